// Compiled with -ffast-math and linked into float_environment_fast_math_test: GCC then links
// crtfastmath.o, whose start-up code sets FTZ and DAZ in MXCSR before main, as any object built
// with -ffast-math does to the program it is linked into. It includes nothing of flipcheck
// (oracle.hpp refuses to compile under -ffast-math).
namespace flipcheck::detail {
float fast_math_sum(const float* xs, int n);
float fast_math_sum(const float* xs, int n) {  // what the object is there for, in a real program
    float s = 0;
    for (int i = 0; i < n; ++i) s += xs[i];
    return s;
}
}  // namespace flipcheck::detail
