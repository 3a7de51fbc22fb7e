// Highway's VQSort on float and double, two and three elements: the output is not a permutation of
// the input. Needs only Highway (Debian 12: apt-get install libhwy-dev):
//   g++ -std=c++17 -O2 highway_vqsort_not_a_permutation.cpp -lhwy_contrib -lhwy && ./a.out
#include <hwy/contrib/sort/vqsort.h>
#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

template <class T>
void show(const char* what, const T* v, int n) {
    std::printf("%s", what);
    for (int i = 0; i < n; ++i) {
        std::uint64_t b = 0;
        std::memcpy(&b, &v[i], sizeof(T));
        std::printf(" %g (0x%0*llx)", double(v[i]), int(2 * sizeof(T)), static_cast<unsigned long long>(b));
    }
    std::printf("\n");
}

int main() {
    std::printf("Highway %d.%d.%d\n", HWY_MAJOR, HWY_MINOR, HWY_PATCH);
    hwy::Sorter sorter;
    float zeros[2] = {0.0f, -0.0f};
    sorter(zeros, 2, hwy::SortAscending());
    show("float  [+0, -0]     ->", zeros, 2);
    float with_nan[3] = {1.0f, std::nanf(""), -1.0f};
    sorter(with_nan, 3, hwy::SortAscending());
    show("float  [1, NaN, -1] ->", with_nan, 3);
    double dzeros[2] = {0.0, -0.0};
    sorter(dzeros, 2, hwy::SortAscending());
    show("double [+0, -0]     ->", dzeros, 2);
    float numbers[3] = {1.0f, 2.0f, -1.0f};
    sorter(numbers, 3, hwy::SortAscending());
    show("float  [1, 2, -1]   ->", numbers, 3);
}
