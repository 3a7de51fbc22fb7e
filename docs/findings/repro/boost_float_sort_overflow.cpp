// Standalone: Boost.Sort's float_sort on 1000 floats holding -0.0 and +inf, under UBSan.
// g++ -std=c++17 -O1 -fsanitize=undefined boost_float_sort_overflow.cpp -o boost_float_sort_overflow && ./boost_float_sort_overflow
#include <boost/sort/spreadsort/float_sort.hpp>
#include <boost/version.hpp>
#include <cstdio>
#include <limits>
#include <vector>

int main() {
    std::printf("Boost %d.%d.%d\n", BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100);
    std::vector<float> v(1000, 1.0f);  // 1000 elements: the spreadsort path, not std::sort
    v[0] = -0.0f;                      // bits 0x80000000: INT_MIN as float_sort's int key
    v[1] = std::numeric_limits<float>::infinity();  // 0x7f800000
    boost::sort::spreadsort::float_sort(v.begin(), v.end());
    std::printf("sorted: first %g, last %g\n", double(v.front()), double(v.back()));
    return 0;
}
