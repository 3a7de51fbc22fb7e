// Known-wrong amax, scale and decode code of the FP8/MX scaling path, written from public bug
// reports (flipcheck's own code for each; none is copied). Each exists to be killed by
// check/scaling.hpp; their GPU twins, where the bug is GPU code, are in gpu/amax.cuh.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "flipcheck/amax.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace flipcheck::mutants {

// pytorch#119320's class: a float atomicMax written as `value >= 0 ? signed atomicMax : unsigned
// atomicMin` on the raw bits (and its mirror for min), the tensor's max and min taken with it,
// amax = max(|max|, |min|). -0.0 >= 0 holds, so -0 takes the signed branch, where 0x80000000 is
// INT_MIN and never replaces the -inf the max starts from.
template <class F = binary32>
struct ge0_split_amax {
    static_assert(std::is_same_v<F, binary32>, "CUDA's integer atomics are 32-bit");
    using format = binary32;
    static constexpr nan_policy declared = nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) noexcept {
        std::uint32_t hi = 0xff800000u, lo = 0x7f800000u;  // -inf, +inf
        for (std::uint32_t x : xs) {
            const float v = bit_cast<float>(x);
            if (v >= 0) {
                hi = std::uint32_t(std::max(std::int32_t(hi), std::int32_t(x)));
                lo = std::uint32_t(std::min(std::int32_t(lo), std::int32_t(x)));
            } else {
                hi = std::min(hi, x);
                lo = std::max(lo, x);
            }
        }
        if (xs.empty()) return 0;
        const float a = std::fabs(bit_cast<float>(hi)), b = std::fabs(bit_cast<float>(lo));
        return bit_cast<std::uint32_t>(a < b ? b : a);
    }
};

// An unsigned atomicMax on the raw bits of |x|, with |x| computed as `x < 0 ? -x : x` and its
// sign trusted to a debug-build assert(value >= 0). With NDEBUG the assert is gone: -0 (which
// `x < 0` leaves alone) is 0x80000000 and a negative NaN 0xffc00000, and both win against every
// positive value's bits.
template <class F = binary32>
struct unguarded_unsigned_amax {
    using format = F;
    using S = typename F::storage;
    static constexpr nan_policy declared = nan_policy::propagate;
    static S amax(std::span<const S> xs) noexcept {
        S best = 0;
        for (S x : xs) {
            const float v = F::to_value(x);
            const S a = v < 0 ? S(x ^ F::sign_mask) : x;  // -x; assert(-x >= 0) compiled out
            best = std::max(best, a);
        }
        return best;
    }
};

// A block fold with fmaxf(acc, |x|) (which returns the number when the other operand is NaN),
// then flipcheck's own key atomic across blocks: the NaN is gone before the atomic sees it.
template <class F = binary32>
struct fmaxf_block_amax {
    using format = F;
    using S = typename F::storage;
    static constexpr nan_policy declared = nan_policy::propagate;
    static constexpr std::size_t block = 4;  // elements per simulated thread block
    static S amax(std::span<const S> xs) noexcept {
        S word = 0;
        for (std::size_t i = 0; i < xs.size(); i += block) {
            float acc = 0.0f;
            for (std::size_t j = i; j < std::min(xs.size(), i + block); ++j) acc = std::fmax(acc, std::fabs(F::to_value(xs[j])));
            word = std::max(word, amax_key<binary32>(nan_policy::propagate, bit_cast<std::uint32_t>(acc)) >> (32 - F::width));
        }
        return word;
    }
};

// TransformerEngine#3550's class: a packed bf16x2 abs-max, __hmax2(acc, __habs2(pair)), where
// __hmax2 returns the other lane's number when one is NaN; the NaN is lost and a finite e8m0
// scale comes out where the MX spec asks for 0xff.
template <class F = bfloat16>
struct bf16x2_hmax_amax {
    static_assert(std::is_same_v<F, bfloat16>);
    using format = bfloat16;
    static constexpr nan_policy declared = nan_policy::propagate;
    static float hmax(float a, float b) noexcept { return std::fmax(a, b); }  // __hmax: NaN loses
    static std::uint16_t amax(std::span<const std::uint16_t> xs) noexcept {
        float acc0 = 0.0f, acc1 = 0.0f;
        for (std::size_t i = 0; i < xs.size(); i += 2) {
            acc0 = hmax(acc0, std::fabs(bfloat16::to_value(xs[i])));
            if (i + 1 < xs.size()) acc1 = hmax(acc1, std::fabs(bfloat16::to_value(xs[i + 1])));
        }
        return std::uint16_t(bit_cast<std::uint32_t>(hmax(acc0, acc1)) >> 16);  // exact: both are bf16
    }
};
// The same abs-max feeding flipcheck's MX scale: the pipeline TE#3550 describes.
template <class E>
struct bf16x2_hmax_mx_block_scale {
    using format = bfloat16;
    using element = E;
    static constexpr nan_policy declared = nan_policy::propagate;
    static std::uint8_t block_scale(std::span<const std::uint16_t> block) noexcept {
        return mx_scale_bits<E>(std::uint32_t(bf16x2_hmax_amax<>::amax(block)) << 16);
    }
};

// An e8m0 scale taken from the amax's exponent field, with +inf clamped but no NaN check: a NaN's
// field is 0xff too, so it becomes 0xff - emax, a finite scale.
template <class E>
struct e8m0_from_exponent_field {
    using element = E;
    FLIPCHECK_HD static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        if (amax_bits == 0x7f800000u) return 0xfe;
        const int code = int((amax_bits >> 23) & 0xffu) - emax_of<E>;
        return std::uint8_t(code < 0 ? 0 : code > 254 ? 254 : code);
    }
};

// TransformerEngine#3262 and #3070's class: e8m0 expanded by shifting the code into a binary32
// exponent field, which makes 0x00 +0.0 (not 2^-127) and 0xff +inf (not NaN).
template <class F = float8_e8m0fnu>
struct e8m0_as_exponent_field {
    using format = float8_e8m0fnu;
    static float decode(std::uint8_t c) noexcept { return bit_cast<float>(std::uint32_t(c) << 23); }
};

// triton#10745's class: fnuz decoded as if it were IEEE sign-magnitude, so its one NaN, 0x80
// (the sign bit over a zero), becomes -0.0.
template <class F>
struct fnuz_nan_as_negative_zero {
    using format = F;
    static float decode(std::uint8_t c) noexcept {
        const float m = F::to_value(std::uint8_t(c & 0x7f));
        return (c & 0x80) ? -m : m;
    }
};

// hipDNN's (rocm-libraries#12362) class: std::max as the amax fold. std::max(a, b) is
// `a < b ? b : a`, false for a NaN b, so a NaN after the first element is dropped.
template <class F = binary32>
struct std_max_amax {
    using format = F;
    using S = typename F::storage;
    static constexpr nan_policy declared = nan_policy::propagate;
    static S amax(std::span<const S> xs) noexcept {
        float acc = 0.0f;
        for (S x : xs) acc = std::max(acc, std::fabs(float(F::to_value(x))));
        return S(bit_cast<std::uint32_t>(acc) >> (32 - F::width));
    }
};

// A per-tensor FP8 scale without the overflow guard TransformerEngine added ("the amax is too small
// that the scale becoming infinite in FP32"): max_E / amax for a subnormal amax is +inf
// (TensorLib#99: 448 / amax overflows for an amax below about 1.3e-36).
template <class E>
struct fp8_scale_unguarded {
    using element = E;
    static float tensor_scale(float amax) noexcept {
        if (amax != amax) return amax;
        if (amax == 0.0f || amax == std::numeric_limits<float>::infinity()) return 1.0f;
        return E::to_value(E::max_finite) / amax;
    }
};

// NVFP4's e4m3fn block scale rounded toward zero (a truncating conversion where cvt.rn was meant):
// a scale just below a code's midpoint is fine, one above it comes out a code too small.
template <class F = float4_e2m1fn>
struct nvfp4_scale_truncated {
    FLIPCHECK_HD static std::uint8_t block_scale(float block_amax, float global_scale) noexcept {
        const float x = block_amax / 6.0f * global_scale;
        if (x != x) return 0x7f;
        std::uint8_t best = 0;
        for (unsigned c = 1; c <= float8_e4m3fn::max_finite; ++c)
            if (float8_e4m3fn::to_value(std::uint8_t(c)) <= x) best = std::uint8_t(c);
        return best;
    }
};

// vLLM#58032's class: a UE8M0 (power-of-two) scale, 2^ceil(log2(amax / max_E)), then the
// minimum-scale clamp max(s, 1 / (max_E * 512)) applied after the rounding: a tiny amax gets
// the clamp's value, which is no power of two, so no e8m0 code holds it.
template <class E>
struct ue8m0_clamped_after_rounding {
    using element = E;
    static constexpr scale_recipe recipe = rceil;
    static float scale_value(float amax) {
        if (amax != amax) return amax;
        const float max = E::to_value(E::max_finite);
        const float s = std::exp2(std::ceil(std::log2(std::fabs(amax) / max)));
        return std::fmax(s, 1.0f / (max * 512.0f));
    }
};

// kernels-community#681's class: the FP8 scale as the inverse of max|x| / max_E with no epsilon
// and no zero guard: an all-zero block has amax 0, so the scale is 1 / 0 = +inf (and the block
// quantizes as 0 * inf = NaN) where TransformerEngine's rule gives 1.
template <class E>
struct fp8_scale_no_epsilon {
    using element = E;
    static float tensor_scale(float amax) { return 1.0f / (amax / E::to_value(E::max_finite)); }
};

// flashinfer#3448: NVFP4's global encode scale 448 * 6 / amax with no zero guard: an all-zero
// tensor's scale is +inf.
template <class F = float4_e2m1fn>
struct nvfp4_global_scale_unguarded {
    using element = float4_e2m1fn;
    static constexpr float max_value = nvfp4_max;
    static float tensor_scale(float amax) { return nvfp4_max / amax; }
};

// TransformerEngine's current scaling (max_E / amax in binary32) sold as right in any rounding
// mode: the quotient rounds in the caller's mode, so a caller that ran fesetround(FE_UPWARD)
// gets scales one ulp off the recipe's (check/rounding_modes.hpp; the built-in declares
// to_nearest).
template <class E>
struct fp8_tensor_scale_any_mode : fp8_tensor_scale<E> {
    static constexpr rounding_claim rounding_modes = any_rounding_mode;
};

}  // namespace flipcheck::mutants
