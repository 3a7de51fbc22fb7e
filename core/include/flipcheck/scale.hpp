// Scales: what FP8, MX and NVFP4 quantization compute from an amax (amax.hpp). Each formula is
// stated here once, with where it comes from; the oracle spells it with float functions (ilogb,
// double division, a search over codes), flipcheck's built-ins with bit arithmetic that runs on
// the host and the device alike. scaling_check.hpp holds every built-in to its formula.
//
// 1. The MX block scale (OCP Microscaling Formats (MX) Specification v1.0, 6.3 "Conversion from
//    vector of scalar values to MX"): for a block of 32 elements quantized to element format E,
//        X = 2^(floor(log2(amax)) - emax_E)         emax_E = floor(log2(E's largest finite))
//    stored as e8m0 (code c means 2^(c - 127)). Where the spec is silent or a code is out of range:
//      - amax NaN           -> 0xff (the spec: a NaN in the block makes X NaN)
//      - amax +0 (or -0)    -> 0x00: log2(0) = -inf, clamped to the smallest scale 2^-127
//      - amax +inf          -> 0xfe: clamped to the largest scale 2^127 (a finite X; the elements
//                              then saturate or become inf as E allows)
//      - otherwise clamp(floor(log2(amax)) - emax_E + 127, 0, 254); floor(log2) of a subnormal
//        amax is its true exponent (ilogb), not the exponent field's -127.
//    emax: e4m3fn 8, e5m2 15, e2m3fn 2, e3m2fn 4, e2m1fn 2 (the spec's table 1).
// 2. The per-tensor FP8 scale (TransformerEngine's current scaling, compute_scale_from_amax in
//    transformer_engine/common/recipe/recipe_common.cuh, epsilon 0, no power-of-two rounding):
//        s = max_E / amax        (binary32, rounded to nearest)
//      - amax +0, -0 or +inf    -> 1.0 (TE: no information to scale by)
//      - max_E / amax overflows  -> FLT_MAX (a subnormal amax: TE's "not representable in FP32")
//      - amax NaN               -> NaN. TE returns 1.0 here; flipcheck propagates, so a NaN
//                                  tensor never yields a finite scale silently (as the MX spec
//                                  asks of its block scales).
// 3. NVFP4 (NVIDIA's two-level scaling of e2m1 elements, as TransformerEngine's NVFP4 recipe):
//      - per tensor, a binary32 encode scale g = (448 * 6) / amax_tensor, under the rules of 2
//        (with max_E = 448 * 6: e4m3fn's largest finite times e2m1's);
//      - per 16 elements, an e4m3fn decode scale e4m3fn((amax_block / 6) * g): two binary32
//        operations in that order, then rounded to nearest (ties to even) and saturated to 448
//        (satfinite); a NaN gives e4m3fn's NaN 0x7f.
#pragma once
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "flipcheck/rounding_mode.hpp"
#include "flipcheck/amax.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/oracle.hpp"

namespace flipcheck {

inline constexpr int mx_block = 32;     // OCP MX: elements per e8m0 scale
inline constexpr int nvfp4_block = 16;  // NVFP4: e2m1 elements per e4m3fn scale
inline constexpr float nvfp4_max = 448.0f * 6.0f;  // e4m3fn's largest finite times e2m1's

// emax of an element format from its fields: the exponent of its largest finite code.
template <format E>
inline constexpr int emax_of = int(E::exponent_field(E::max_finite)) - E::bias;

namespace oracle {

// floor(log2(|x|)) of a finite non-zero x, exactly, subnormals included (C's ilogb).
FLIPCHECK_HD inline int ilogb(float x) noexcept {
#if defined(__CUDA_ARCH__)
    return ::ilogbf(x);
#else
    return std::ilogb(x);
#endif
}
FLIPCHECK_HD inline bool isinf(float x) noexcept { return !isnan(x) && isnan(x - x); }
// x * 2^k, exactly where it is representable (C's ldexp).
FLIPCHECK_HD inline float ldexp(float x, int k) noexcept {
#if defined(__CUDA_ARCH__)
    return ::ldexpf(x, k);
#else
    return std::ldexp(x, k);
#endif
}

// 1, with the oracle's functions (host and device: the GPU runs it on all 2^32 amaxes).
FLIPCHECK_HD inline std::uint8_t mx_scale(int emax, float amax) noexcept {
    if (isnan(amax)) return 0xff;
    if (amax == 0) return 0x00;
    if (isinf(amax)) return 0xfe;
    const int biased = ilogb(amax) - emax + 127;
    return std::uint8_t(biased < 0 ? 0 : biased > 254 ? 254 : biased);
}
template <format E>
FLIPCHECK_HD std::uint8_t mx_scale(float amax) noexcept {
    return mx_scale(ilogb(E::to_value(E::max_finite)), amax);
}

// 2, through binary64: max_E / amax rounds once to 53 bits, then to 24, and double rounding is
// innocuous for division when 53 >= 2 * 24 + 2 (Figueroa 1995), so this is the binary32 quotient.
FLIPCHECK_HD inline float tensor_scale(float max_elem, float amax) noexcept {
    if (isnan(amax)) return bit_cast<float>(0x7fc00000u);
    if (amax == 0 || isinf(amax)) return 1.0f;
    const double q = double(max_elem) / double(amax);
    return q >= double(FLT_MAX) ? FLT_MAX : float(q);
}
template <format E>
FLIPCHECK_HD float tensor_scale(float amax) noexcept {
    return tensor_scale(E::to_value(E::max_finite), amax);
}

// e4m3fn's code nearest to x (ties to the even code), saturated at 448; NaN -> 0x7f. By search
// over the codes, so that nothing of the built-in's bit arithmetic is shared.
inline std::uint8_t e4m3fn_satfinite(float x) {
    // The codes' values, decoded once (minifloat.hpp's to_value): the checks ask this millions of times.
    static const std::array<double, float8_e4m3fn::max_finite + 1> value = [] {
        std::array<double, float8_e4m3fn::max_finite + 1> v{};
        for (unsigned c = 0; c < v.size(); ++c) v[c] = double(float8_e4m3fn::to_value(std::uint8_t(c)));
        return v;
    }();
    if (isnan(x)) return 0x7f;
    const std::uint8_t sign = x < 0 || (x == 0 && signbit(x)) ? 0x80 : 0x00;
    const float a = x < 0 ? -x : x;
    std::uint8_t best = 0;
    for (unsigned c = 1; c <= float8_e4m3fn::max_finite; ++c) {
        const double d = std::fabs(value[c] - double(a));
        const double db = std::fabs(value[best] - double(a));
        if (d < db || (d == db && (c % 2) == 0)) best = std::uint8_t(c);
    }
    return std::uint8_t(sign | best);
}
// 3's block scale.
inline std::uint8_t nvfp4_block_scale(float block_amax, float global_scale) {
    return e4m3fn_satfinite(block_amax / 6.0f * global_scale);
}

}  // namespace oracle

// ---- flipcheck's built-ins: bit arithmetic, host and device ---------------------------------------

// 1 on the amax's binary32 bits: the exponent field is floor(log2) + 127 for a normal amax; a
// zero or subnormal one (field 0) is below 2^-126, so minus emax_E (>= 1) it clamps to 0x00.
template <format E>
FLIPCHECK_HD constexpr std::uint8_t mx_scale_bits(std::uint32_t amax_bits) noexcept {
    if ((amax_bits & 0x7fffffffu) > 0x7f800000u) return 0xff;  // a NaN, of either sign
    const int field = int((amax_bits >> 23) & 0xffu);
    if (field == 0xff) return 0xfe;
    const int code = field - emax_of<E>;
    return field == 0 || code < 0 ? std::uint8_t(0) : std::uint8_t(code > 254 ? 254 : code);
}

template <format E>
struct mx_scale_from_bits {
    using element = E;
    static constexpr rounding_claim rounding_modes = any_rounding_mode;  // bit arithmetic and exact scalings only
    FLIPCHECK_HD static std::uint8_t scale(std::uint32_t amax_bits) noexcept { return mx_scale_bits<E>(amax_bits); }
};

// flipcheck's MX block pipeline: keyed amax (propagate) of the block, widened exactly to binary32,
// then mx_scale_bits. (gpu/amax.cuh fuses the same two steps into one kernel.)
template <amax_format F, format E>
struct mx_block_scale {
    using format = F;
    using element = E;
    static constexpr nan_policy declared = nan_policy::propagate;
    static constexpr rounding_claim rounding_modes = any_rounding_mode;  // bit arithmetic and exact scalings only
    static std::uint8_t block_scale(std::span<const typename F::storage> block) noexcept {
        return mx_scale_bits<E>(bit_cast<std::uint32_t>(float(F::to_value(keyed_amax<F, declared>::amax(block)))));
    }
};

// 2 in binary32 arithmetic (on a device this needs -prec-div=true: flipcheck's CUDA flags).
FLIPCHECK_HD inline float tensor_scale(float max_elem, float amax) noexcept {
    if (amax != amax) return amax;
    if (amax == 0.0f || amax == std::numeric_limits<float>::infinity()) return 1.0f;
    const float s = max_elem / amax;
    return s == std::numeric_limits<float>::infinity() ? FLT_MAX : s;
}
template <format E>
struct fp8_tensor_scale {
    using element = E;
    static constexpr rounding_claim rounding_modes = needs_rounding(rounding_mode::to_nearest);  // max_E / amax rounds in the caller's mode
    FLIPCHECK_HD static float tensor_scale(float amax) noexcept { return flipcheck::tensor_scale(E::to_value(E::max_finite), amax); }
};

// e8m0 to binary32: 2^(c - 127). Code 0 is 2^-127, a binary32 subnormal (0x00400000), not a
// shifted exponent field; 0xff is NaN (TransformerEngine#3262 and #3070 got these two wrong).
struct e8m0_decode {
    using format = float8_e8m0fnu;
    static constexpr rounding_claim rounding_modes = any_rounding_mode;  // bit arithmetic and exact scalings only
    FLIPCHECK_HD static float decode(std::uint8_t c) noexcept {
        if (c == 0xff) return bit_cast<float>(0x7fc00000u);
        if (c == 0x00) return bit_cast<float>(0x00400000u);
        return bit_cast<float>(std::uint32_t(c) << 23);
    }
};

// Round a non-negative binary32 to e4m3fn, ties to even, saturating at 448 (PTX's
// cvt.rn.satfinite.e4m3x2.f32 for one lane): scale to an integer count of the binade's quantum,
// round that, and let a mantissa carry move into the exponent field.
FLIPCHECK_HD inline std::uint8_t to_e4m3fn_satfinite(float x) noexcept {
    if (x != x) return 0x7f;
    const std::uint8_t sign = (bit_cast<std::uint32_t>(x) >> 24) & 0x80;
    const float a = x < 0 ? -x : x;
    if (a >= 464.0f) return std::uint8_t(sign | 0x7e);  // 464 is halfway from 448 up: beyond it, saturate
    const int field = int((bit_cast<std::uint32_t>(a) >> 23) & 0xff) - 127;  // floor(log2 a) for a normal a
    const int e = a < 0.015625f ? -6 : field;                              // below 2^-6: e4m3fn subnormals
    const float quantum = bit_cast<float>(std::uint32_t(e - 3 + 127) << 23);  // 2^(e-3)
    const float q = a / quantum;                                           // exact: a power-of-two scaling
    float r = float(int(q));
    const float frac = q - r;
    if (frac > 0.5f || (frac == 0.5f && (int(r) & 1))) r += 1.0f;
    const int code = (e + 7 - 1) * 8 + int(r);  // e's binade starts at code (e + 7) * 8 = (e+7-1)*8 + 8
    return std::uint8_t(sign | (code > 0x7e ? 0x7e : code));
}

// NVFP4's built-in global scale (3's per-tensor step): 448 * 6 / amax under 2's rules.
template <class = void>
struct nvfp4_global_scale {
    using element = float4_e2m1fn;
    static constexpr float max_value = nvfp4_max;
    static constexpr rounding_claim rounding_modes = needs_rounding(rounding_mode::to_nearest);  // 448 * 6 / amax rounds in the caller's mode
    FLIPCHECK_HD static float tensor_scale(float amax) noexcept { return flipcheck::tensor_scale(nvfp4_max, amax); }
};

// NVFP4's built-in block scale (3), as a kernel computes it.
struct nvfp4_block_scale {
    static constexpr rounding_claim rounding_modes = needs_rounding(rounding_mode::to_nearest);  // amax / 6 * global rounds in the caller's mode
    FLIPCHECK_HD static std::uint8_t block_scale(float block_amax, float global_scale) noexcept {
        return to_e4m3fn_satfinite(block_amax / 6.0f * global_scale);
    }
};

}  // namespace flipcheck
