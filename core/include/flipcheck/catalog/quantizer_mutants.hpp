// Known-wrong quantizers, decoders and an amax of the FP8/MX path, each written from a public bug
// or a bug class seen in conversion code (flipcheck's own code for each; none is copied), each
// declaring what it was meant to do so that check/quantizers.hpp and check/scaling.hpp can kill it.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "flipcheck/amax.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/quantize.hpp"
#include "flipcheck/scaled_quantize.hpp"

namespace flipcheck::mutants {

// The twists a hand-written binary32 -> element conversion gets wrong, on one conversion.
enum class twist { carry_dropped, truncated, ties_away, flushes_subnormals, overflow_to_nan, sign_kept_on_zero };

// Round |x| to E's binade quantum as quantize_bits does, with one twist; nearest-even and
// satfinite are what every mutant below declares.
template <element_format E, twist T>
FLIPCHECK_HD std::uint8_t twisted_quantize(float x) {
    constexpr int m = E::mantissa_bits, emin = 1 - E::bias;
    if (x != x) return E::quiet_nan;
    const bool negative = std::signbit(x);
    const float a = std::fabs(x);
    const auto sign = [negative](unsigned code) -> std::uint8_t {
        if (code == 0 && T != twist::sign_kept_on_zero) return negative && E::has_negative_zero ? E::sign_mask : 0;
        return std::uint8_t(negative ? code | E::sign_mask : code);
    };
    const float max = E::to_value(E::max_finite);
    if (a > max * 2) return T == twist::overflow_to_nan ? E::quiet_nan : sign(E::max_finite);
    const int e = a < std::ldexp(1.0f, emin) ? emin : std::ilogb(a);
    const float q = std::ldexp(a, m - e);
    float r = std::floor(q);
    const float frac = q - r;
    if constexpr (T == twist::ties_away) r = std::round(q);  // half away from zero: 0.5 always up
    else if constexpr (T != twist::truncated)
        if (frac > 0.5f || (frac == 0.5f && std::fmod(r, 2.0f) == 1.0f)) r += 1.0f;
    unsigned code;
    if (T == twist::carry_dropped && a >= std::ldexp(1.0f, emin))  // exponent field, then the mantissa bits alone
        code = unsigned(e - emin + 1) << m | (unsigned(r) & E::mantissa_mask);
    else
        code = unsigned(e - emin) * (1u << m) + unsigned(r);
    if (T == twist::flushes_subnormals && a < std::ldexp(1.0f, emin)) code = 0;
    if (code > E::max_finite) return T == twist::overflow_to_nan ? E::quiet_nan : sign(E::max_finite);
    return sign(code);
}

template <element_format E, twist T>
struct twisted_quantizer {
    using format = binary32;
    using element = E;
    static constexpr quantize_policy declared{rounding::nearest_even, saturation::finite};
    FLIPCHECK_HD static std::uint8_t quantize(std::uint32_t x) { return twisted_quantize<E, T>(bit_cast<float>(x)); }
};

// A rounding step that adds one to the mantissa and ORs the result into the exponent field: the
// carry out of the mantissa (1.1111 rounding up to 10.000) is lost, so x just below a power of
// two quantizes to the bottom of its own binade, half of what it should be.
template <class E>
using quantize_carry_dropped = twisted_quantizer<E, twist::carry_dropped>;
// A truncating conversion where round-to-nearest-even was declared (the class of an int cast in
// place of rintf, or cvt.rz for cvt.rn).
template <class E>
using quantize_truncated = twisted_quantizer<E, twist::truncated>;
// roundf (half away from zero) where IEEE's ties-to-even was declared: every exact tie between
// two codes goes to the odd one half the time.
template <class E>
using quantize_ties_away = twisted_quantizer<E, twist::ties_away>;
// A conversion that flushes the element's subnormals to zero (a fast path with no subnormal
// branch): the smallest codes never come out, even for their own values.
template <class E>
using quantize_flushes_subnormals = twisted_quantizer<E, twist::flushes_subnormals>;
// The non-saturating conversion (CUDA's __NV_NOSAT) where satfinite was declared: an overflow
// is e4m3fn's NaN 0x7f, the symptom of mlx#4376's decode seen from the encode side.
template <class E>
using quantize_overflow_to_nan = twisted_quantizer<E, twist::overflow_to_nan>;
// sign | q(|x|) on a fnuz element: a negative value that rounds to zero (and -0 itself) gets
// the sign bit over a zero code, 0x80, which is fnuz's NaN (triton#9603's class: the sign bit
// of fnuz treated as IEEE's).
template <class E>
using quantize_fnuz_sign_on_zero = twisted_quantizer<E, twist::sign_kept_on_zero>;

// Scaled quantizers (scaled_quantize.hpp) that declare one computation and do another.
template <element_format E, scaled_policy Declared>
struct scaled_mutant {
    using format = binary32;
    using element = E;
    static constexpr scaled_policy declared = Declared;
};
// Declares the exact intermediate (a fused conversion) and rounds x * s to binary32 first: the
// product can round onto a midpoint between two codes, and the tie then goes to the even code
// though the exact product lay on the other side (double rounding).
template <class E>
struct scaled_double_rounding : scaled_mutant<E, scaled_policy{{}, scale_op::multiply, intermediate::exact}> {
    FLIPCHECK_HD static code_t<E> quantize_scaled(std::uint32_t x, float s) {
        return quantize_bits<E, quantize_policy{}>(bit_cast<float>(x) * s);
    }
};
// Declares x / s and multiplies by 1 / s (one reciprocal a tensor, to save the divisions): 1 / s
// is rounded, so for a scale that is not a power of two x * (1 / s) is not x / s.
template <class E>
struct scaled_reciprocal : scaled_mutant<E, scaled_policy{{}, scale_op::divide, intermediate::binary32}> {
    FLIPCHECK_HD static code_t<E> quantize_scaled(std::uint32_t x, float s) {
        return quantize_bits<E, quantize_policy{}>(bit_cast<float>(x) * (1.0f / s));
    }
};
// x * s with a subnormal product flushed to zero (nvcc -ftz=true, --use_fast_math): an element
// with binary32's subnormal range, bfloat16, loses every code below 2^-126.
template <class E>
struct scaled_flushed_intermediate
    : scaled_mutant<E, scaled_policy{{rounding::nearest_even, saturation::infinity}, scale_op::multiply, intermediate::binary32}> {
    FLIPCHECK_HD static code_t<E> quantize_scaled(std::uint32_t x, float s) {
        float y = bit_cast<float>(x) * s;
        if ((bit_cast<std::uint32_t>(y) & 0x7f800000u) == 0) y = bit_cast<float>(bit_cast<std::uint32_t>(y) & 0x80000000u);
        return quantize_bits<E, quantize_policy{rounding::nearest_even, saturation::infinity}>(y);
    }
};

// mlx#4376: e4m3fn decoded as if it had IEEE-style all-ones exponents that are still numbers:
// 0x7f and 0xff, its NaNs, come out as +-480.
template <class F = float8_e4m3fn>
struct e4m3fn_nan_as_480 {
    using format = float8_e4m3fn;
    static float decode(std::uint8_t c) {
        const float m = float(8 + (c & 7)) * std::ldexp(1.0f, int((c >> 3) & 15) - 7 - 3);
        const float sub = float(c & 7) * std::ldexp(1.0f, -9);
        const float v = ((c >> 3) & 15) == 0 ? sub : m;
        return (c & 0x80) ? -v : v;
    }
};

// trinity#672: fp6 e3m2 decoded with the top exponent field reserved as IEEE reserves it, and
// clamped to the largest value below it: 16, 20, 24 and 28 all decode as 14.
template <class F = float6_e3m2fn>
struct e3m2_top_binade_collapsed {
    using format = float6_e3m2fn;
    static float decode(std::uint8_t c) {
        c &= 0x3f;
        const unsigned field = (c >> 2) & 7;
        const float v = float6_e3m2fn::to_value(field == 7 ? std::uint8_t((c & 0x20) | 0x1b) : c);
        return v;
    }
};

// triton#9603: the amax of fnuz codes as the max of abs(x), with abs clearing the sign bit as on
// IEEE codes: the NaN 0x80 becomes 0x00, +0, and a tensor holding it gets a finite amax.
template <class F>
struct fnuz_abs_amax {
    static_assert(F::nans == nan_encoding::single_pattern && F::is_signed);
    using format = F;
    static constexpr nan_policy declared = nan_policy::propagate;
    static std::uint8_t amax(std::span<const std::uint8_t> xs) {
        std::uint8_t best = 0;
        for (std::uint8_t x : xs) {
            const std::uint8_t a = std::uint8_t(x & 0x7f);
            if (F::to_value(a) > F::to_value(best)) best = a;
        }
        return best;
    }
};

// bfloat16 to the element, nearest even declared for any rounding mode, with the count of the
// binade's quantum rounded by nearbyint: that rounds in the caller's mode, so it is right only
// while the mode is to_nearest (the built-in's quantize_bits rounds with its own arithmetic).
template <element_format E>
struct quantize_nearbyint {
    using format = bfloat16;
    using element = E;
    static constexpr quantize_policy declared{rounding::nearest_even, saturation::finite};
    static constexpr rounding_claim rounding_modes = any_rounding_mode;
    static code_t<E> quantize(typename bfloat16::storage x) noexcept {
        const float v = float(bfloat16::to_value(x));
        const float a = std::fabs(v);
        if (!(a == a) || a == std::numeric_limits<float>::infinity()) return quantize_bits<E, declared>(v);
        constexpr int m = E::mantissa_bits, emin = 1 - E::bias;
        const int field = std::ilogb(a);
        const int e = a == 0 || field < emin ? emin : field;
        const float quantum = std::ldexp(1.0f, e - m);
        return quantize_bits<E, declared>(std::copysign(std::nearbyint(a / quantum) * quantum, v));  // a / quantum: exact
    }
};

}  // namespace flipcheck::mutants
