// Host/device portability: the one macro and the few primitives every core header needs.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define FLIPCHECK_HD __host__ __device__
#else
#define FLIPCHECK_HD
#endif

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace flipcheck {

// std::bit_cast is a host-only constexpr function under nvcc; the builtin works in both worlds.
template <class To, class From>
FLIPCHECK_HD constexpr To bit_cast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From));
    return __builtin_bit_cast(To, from);
}

namespace detail {
// The oracle may only use signbit and isnan (plus comparisons); these wrap the host and
// device spellings so that one definition of each law compiles everywhere.
template <class T>
FLIPCHECK_HD inline bool signbit(T x) noexcept {
#if defined(__CUDA_ARCH__)
    return ::signbit(x);
#else
    return std::signbit(x);
#endif
}
template <class T>
FLIPCHECK_HD inline bool isnan(T x) noexcept {
#if defined(__CUDA_ARCH__)
    return ::isnan(x);
#else
    return std::isnan(x);
#endif
}
}  // namespace detail
}  // namespace flipcheck
