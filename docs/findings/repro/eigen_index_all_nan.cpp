// Standalone: Eigen's maxCoeff/minCoeff(&index) under PropagateNaN and PropagateNumbers when every
// element is NaN. g++ -std=c++17 -I/usr/include/eigen3 eigen_index_all_nan.cpp -o eigen_index_all_nan
#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <limits>

int main() {
    std::printf("Eigen %d.%d.%d\n", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int n : {2, 3, 5}) {
        Eigen::VectorXf v = Eigen::VectorXf::Constant(n, nan);
        Eigen::Index a, b, c, d, e;
        const float va = v.maxCoeff<Eigen::PropagateNaN>(&a), vb = v.maxCoeff<Eigen::PropagateNumbers>(&b);
        v.minCoeff<Eigen::PropagateNaN>(&c);
        v.minCoeff<Eigen::PropagateNumbers>(&d);
        v.maxCoeff<Eigen::PropagateFast>(&e);
        std::printf("%d NaNs: maxCoeff<PropagateNaN> index %ld (value %f), maxCoeff<PropagateNumbers> index %ld (value %f), "
                    "minCoeff<PropagateNaN> index %ld, minCoeff<PropagateNumbers> index %ld, maxCoeff<PropagateFast> index %ld\n",
                    n, long(a), va, long(b), vb, long(c), long(d), long(e));
    }
    Eigen::VectorXf mixed(3);
    mixed << 1.0f, nan, nan;  // the first NaN is at 1
    Eigen::Index i;
    mixed.maxCoeff<Eigen::PropagateNaN>(&i);
    std::printf("[1, NaN, NaN]: maxCoeff<PropagateNaN> index %ld\n", long(i));
    return 0;
}
