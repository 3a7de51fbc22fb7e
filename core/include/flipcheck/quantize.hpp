// Quantizers: a wide float (binary32, bfloat16, binary16) to a low-precision element code
// (fp8, fp6, fp4; minifloat.hpp). The map is order-preserving but many-to-one, so the mapping
// laws of law.hpp (a bijection's) do not apply; check/quantizers.hpp states its own laws.
//
// What a quantizer means is declared, as a policy (IEEE 754-2019 4.3 and 7.4, OCP FP8 and MX):
//   rounding     nearest_even  the nearest code, a tie to the code with an even mantissa
//                toward_zero   the code nearest zero of the two around x (truncation)
//                up            toward +infinity (RCEIL's direction; for x < 0, toward zero)
//   saturation   finite        an overflow, or +-inf, gives +-max_finite (PTX .satfinite)
//                infinity      IEEE's overflow: to +-inf under nearest_even, to +-max toward
//                              zero, and under `up` to +inf above and -max below; +-inf stay
//                              (a format without infinities cannot declare it)
//                nan           as `infinity`, with NaN where infinity would be (OCP's non-
//                              saturating e4m3fn: an overflow is NaN)
// Overflow is IEEE's: the magnitude rounded with an unbounded exponent exceeds max_finite (so
// e4m3fn's 464, halfway from 448 to the next binade's 480, rounds to the even 448, not up).
// NaN gives a NaN code of the element, of either sign; an element without NaNs (fp6, fp4) has no
// answer for it, and a NaN input is not judged there. A result of magnitude zero keeps the input's
// sign where the element has a -0; the fnuz elements have none (0x80 is their NaN): +0.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <vector>

#include "flipcheck/rounding_mode.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/oracle.hpp"

namespace flipcheck {

enum class rounding : std::uint8_t { nearest_even, toward_zero, up };
enum class saturation : std::uint8_t { finite, infinity, nan };

constexpr std::string_view to_string(rounding r) noexcept {
    constexpr std::string_view names[] = {"nearest_even", "toward_zero", "up"};
    return names[std::size_t(r)];
}
constexpr std::string_view to_string(saturation s) noexcept {
    constexpr std::string_view names[] = {"finite", "infinity", "nan"};
    return names[std::size_t(s)];
}

struct quantize_policy {
    rounding round = rounding::nearest_even;
    saturation saturate = saturation::finite;
};

// The elements a quantizer may produce: signed byte formats (fp8, fp6, fp4; e8m0 is a scale, not
// an element) and the 16-bit floats a binary32 is narrowed to (binary16, bfloat16).
template <class E>
concept element_format = format<E> && (E::width == 8 || E::width == 16) && E::is_signed && std::same_as<typename E::value_type, float>;

// An element's code.
template <class E>
using code_t = typename E::storage;

// Whether element E can carry out policy p: saturating to an infinity or a NaN needs a format
// that has one.
template <element_format E>
constexpr bool can_declare(quantize_policy p) noexcept {
    return (p.saturate != saturation::infinity || E::has_infinity) && (p.saturate != saturation::nan || E::nans != nan_encoding::none);
}

namespace oracle {

// The element's finite non-negative codes and their values, ascending by value (sorted, not
// assumed from the codes' order), once per element.
template <element_format E>
const std::vector<std::pair<double, code_t<E>>>& element_ladder() {
    static const auto ladder = [] {
        std::vector<std::pair<double, code_t<E>>> v;
        for (unsigned c = 0; c <= E::value_mask; ++c) {
            const float x = E::to_value(code_t<E>(c));
            if (isnan(x) || std::isinf(x) || signbit(x)) continue;
            v.emplace_back(double(x), code_t<E>(c));
        }
        std::sort(v.begin(), v.end());
        return v;
    }();
    return ladder;
}

// The code policy p gives for x, by search over the element's values in binary64, where every
// input value and every midpoint between codes is exact. Nothing of a built-in's bit arithmetic.
template <element_format E>
code_t<E> quantize(quantize_policy p, double x) {
    using C = code_t<E>;
    const auto& ladder = element_ladder<E>();
    if (isnan(x)) return E::quiet_nan;
    const bool negative = signbit(x);
    const C sign = negative && E::has_negative_zero ? E::sign_mask : C(0);
    const auto with_sign = [&](C magnitude) {
        return magnitude == 0 ? sign : C(negative ? magnitude | E::sign_mask : magnitude);
    };
    const double a = negative ? -x : x, max = ladder.back().first;
    // The direction in magnitude: nearest, down (toward zero) or up (away from zero).
    const bool away = p.round == rounding::up && !negative;
    const bool down = p.round == rounding::toward_zero || (p.round == rounding::up && negative);
    const auto overflow = [&] {
        const bool to_max = p.saturate == saturation::finite || down;
        if (to_max) return with_sign(ladder.back().second);
        if (p.saturate == saturation::nan || !E::has_infinity) return E::quiet_nan;
        return C(E::infinity | (negative ? E::sign_mask : 0));
    };
    if (std::isinf(a)) {
        if (p.saturate == saturation::finite) return with_sign(ladder.back().second);
        if (p.saturate == saturation::nan || !E::has_infinity) return E::quiet_nan;
        return C(E::infinity | (negative ? E::sign_mask : 0));
    }
    if (a > max) {
        if (down) return with_sign(ladder.back().second);
        if (away) return overflow();
        // Nearest with an unbounded exponent: the next value above max is max + ulp(max), and
        // its code (max_finite + 1) has the parity a tie goes by.
        const double ulp = max - ladder[ladder.size() - 2].first;
        const double mid = max + ulp / 2;
        if (a < mid || (a == mid && (ladder.back().second & 1) == 0)) return with_sign(ladder.back().second);
        return overflow();
    }
    const auto hi = std::lower_bound(ladder.begin(), ladder.end(), std::pair<double, C>(a, 0));
    if (hi->first == a) return with_sign(hi->second);
    const auto lo = hi - 1;  // a > 0 = ladder[0], so hi is not the first
    if (down) return with_sign(lo->second);
    if (away) return with_sign(hi->second);
    const double mid = (lo->first + hi->first) / 2;
    if (a < mid) return with_sign(lo->second);
    if (a > mid) return with_sign(hi->second);
    return with_sign((lo->second & 1) == 0 ? lo->second : hi->second);
}

}  // namespace oracle

// ---- flipcheck's built-in: bit arithmetic on the binary32 value, host and device ----------------

// Round a binary32 to element E under policy P: scale |x| to a count of its binade's quantum
// (exact: a power of two), round the count, and let a carry move into the exponent field, which
// the code's layout (exponent above mantissa) does by itself.
template <element_format E, quantize_policy P>
FLIPCHECK_HD code_t<E> quantize_bits(float x) noexcept {
    static_assert(can_declare<E>(P), "the element has no infinity or NaN to saturate to");
    using C = code_t<E>;
    constexpr int m = E::mantissa_bits, emin = 1 - E::bias;
    const std::uint32_t bits = bit_cast<std::uint32_t>(x);
    const bool negative = (bits >> 31) != 0;
    const std::uint32_t magnitude_bits = bits & 0x7fffffffu;
    constexpr C nan_code = E::quiet_nan;
    if (magnitude_bits > 0x7f800000u) return nan_code;
    const auto with_sign = [negative](unsigned code) -> C {
        if (code == 0) return negative && E::has_negative_zero ? E::sign_mask : C(0);
        return C(negative ? code | E::sign_mask : code);
    };
    constexpr bool down_positive = P.round == rounding::toward_zero;
    const bool down = down_positive || (P.round == rounding::up && negative);
    const bool away = P.round == rounding::up && !negative;
    const auto overflow = [&]() -> C {
        if (P.saturate == saturation::finite || down) return with_sign(E::max_finite);
        if constexpr (P.saturate == saturation::nan || !E::has_infinity) return nan_code;
        else return C(E::infinity | (negative ? E::sign_mask : 0));
    };
    if (magnitude_bits == 0x7f800000u) {  // exact, so never rounded down to max (as overflow() would)
        if constexpr (P.saturate == saturation::finite) return with_sign(E::max_finite);
        else if constexpr (P.saturate == saturation::nan || !E::has_infinity) return nan_code;
        else return C(E::infinity | (negative ? E::sign_mask : 0));
    }
    const float a = bit_cast<float>(magnitude_bits);
    const int field = int(magnitude_bits >> 23) - 127;  // floor(log2 a) for a normal a
    const int e = (magnitude_bits >> 23) == 0 || field < emin ? emin : field;
    if (e > E::bias + 1) return overflow();  // above the binade of any code (bias + 1: the top exponent field's)
    // q = a / 2^(e - m), as a product with 2^(m - e), so exact; a product, not a division, for
    // speed. 2^(m - e) is a normal binary32 but for bfloat16's lowest binades (m - e up to 133),
    // where it is applied as 2^64 times the rest.
    float q;
    if constexpr (m - emin > 127) {
        const int k = m - e > 127 ? 64 : 0;
        q = a * bit_cast<float>(std::uint32_t(k + 127) << 23) * bit_cast<float>(std::uint32_t(m - e - k + 127) << 23);
    } else {
        q = a * bit_cast<float>(std::uint32_t(m - e + 127) << 23);
    }
    const float floor_q = float(std::uint32_t(q));  // q < 2^(m+1) <= 2^11 in the binade
    const float frac = q - floor_q;
    unsigned r = unsigned(floor_q);
    if (frac != 0.0f) {
        if (away) ++r;
        else if (!down && (frac > 0.5f || (frac == 0.5f && (r & 1u)))) ++r;
    }
    const unsigned code = unsigned(e - emin) * (1u << m) + r;
    if (code > E::max_finite) return overflow();
    return with_sign(code);
}

// A quantizer subject: input format F (a binary32 value: binary32, bfloat16 or binary16), element
// E, policy P; quantize(bits) is the element's code.
template <class F, element_format E, quantize_policy P>
struct quantizer {
    using format = F;
    using element = E;
    static constexpr quantize_policy declared = P;
    // quantize_bits scales by powers of two and takes a fraction that is exact: no step rounds.
    static constexpr rounding_claim rounding_modes = any_rounding_mode;
    FLIPCHECK_HD static code_t<E> quantize(typename F::storage x) noexcept {
        return quantize_bits<E, P>(float(F::to_value(x)));
    }
};

}  // namespace flipcheck
