// Scaled quantization: the element code of x * s or x / s, where s is a scale (an MX block's e8m0
// scale as its binary32 value 2^(c - 127), or a per-tensor scale such as 448 / amax). The
// quantizer's policy (quantize.hpp) is only half of what such a kernel means; it also declares
//   op            multiply      x * s (TransformerEngine, PyTorch's (x * scale).to(fp8))
//                 divide        x / s (the OCP MX reference's A / 2^shared_exp)
//   intermediate  binary32      x op s is rounded to binary32 (nearest even) and that binary32 is
//                               quantized: what every kernel that computes x * s in a register
//                               does. Two roundings: x * s can round onto a midpoint between
//                               two codes, and the tie then goes to the even code, not to the
//                               side the exact product was on (double rounding).
//                 exact         x op s is quantized once, as a real number (a fused conversion).
// A power-of-two scale makes x * s exact in binary32 unless it leaves binary32's normal range;
// any other scale (per-tensor) rounds, so the declared intermediate decides the answer.
#pragma once
#include <cstdint>
#include <string_view>

#include "flipcheck/rounding_mode.hpp"
#include "flipcheck/quantize.hpp"

namespace flipcheck {

enum class scale_op : std::uint8_t { multiply, divide };
enum class intermediate : std::uint8_t { binary32, exact };

constexpr std::string_view to_string(scale_op o) noexcept { return o == scale_op::multiply ? "multiply" : "divide"; }
constexpr std::string_view to_string(intermediate i) noexcept { return i == intermediate::binary32 ? "binary32" : "exact"; }

struct scaled_policy {
    quantize_policy quantize{};
    scale_op op = scale_op::multiply;
    intermediate via = intermediate::binary32;
};

namespace oracle {

// x op s as a real number, in binary64: a product of two binary32 values is exact there (48
// significant bits, exponents well inside binary64's); a quotient is not, but it is never within
// 2^-53 (relative) of a number of 24 or fewer significant bits unless equal to it (|x - n s| / |n s|
// is at least 2^-48 when not 0), so rounding it to binary64 moves it past no code, midpoint or
// binary32 value, and quantizing it is the same as quantizing the real quotient.
FLIPCHECK_HD inline double scaled_exactly(scale_op op, float x, float s) {
    return op == scale_op::multiply ? double(x) * double(s) : double(x) / double(s);
}
// The value policy p quantizes: exact, or x op s rounded to binary32 by IEEE arithmetic (the
// host's, or a GPU's built without -ftz).
FLIPCHECK_HD inline double scaled_value(scaled_policy p, float x, float s) {
    if (p.via == intermediate::exact) return scaled_exactly(p.op, x, s);
    return double(p.op == scale_op::multiply ? x * s : x / s);
}
template <element_format E>
code_t<E> quantize_scaled(scaled_policy p, float x, float s) {
    return quantize<E>(p.quantize, scaled_value(p, x, s));
}

}  // namespace oracle

// ---- flipcheck's built-in, host and device ------------------------------------------------------

// y rounded to binary32 toward zero, with the last bit set when that dropped anything (round to
// odd). Rounding that binary32 again, to any element at least two bits narrower at y's magnitude
// (every element here: bfloat16's quantum in binary32's subnormal range is 2^16 of binary32's),
// gives what rounding y once would (Boldo and Melquiond, "When double rounding is odd", 2005):
// the sticky bit keeps y off every midpoint it was not on. Beyond binary32's largest finite it
// gives FLT_MAX, which overflows every element as y would.
FLIPCHECK_HD inline float round_to_odd(double y) noexcept {
    if (y != y) return float(y);
    float f = float(y);  // nearest; stepped back toward zero when it went away from zero
    const double a = y < 0 ? -y : y;
    double fa = f < 0 ? -double(f) : double(f);
    std::uint32_t bits = bit_cast<std::uint32_t>(f);
    if (fa > a) --bits, fa = double(bit_cast<float>(bits) < 0 ? -bit_cast<float>(bits) : bit_cast<float>(bits));
    if (fa != a) bits |= 1u;
    return bit_cast<float>(bits);
}

// A scaled quantizer: input format F (a binary32 value: binary32, bfloat16 or binary16), element
// E, policy P; quantize_scaled(bits, s) is the element's code for x op s. The exact intermediate
// is x op s in binary64 (see oracle::scaled_exactly), rounded to odd into binary32, then quantized.
template <class F, element_format E, scaled_policy P>
struct scaled_quantizer {
    using format = F;
    using element = E;
    static constexpr scaled_policy declared = P;
    // A binary32 intermediate, or a binary64 quotient, rounds in the caller's mode; a binary64
    // product of two binary32 values is exact, and round_to_odd works on its bits.
    static constexpr rounding_claim rounding_modes =
        P.via == intermediate::exact && P.op == scale_op::multiply ? any_rounding_mode : needs_rounding(rounding_mode::to_nearest);
    FLIPCHECK_HD static code_t<E> quantize_scaled(typename F::storage x, float s) noexcept {
        const float v = float(F::to_value(x));
        float y;
        if constexpr (P.via == intermediate::binary32) y = P.op == scale_op::multiply ? v * s : v / s;
        else y = round_to_odd(P.op == scale_op::multiply ? double(v) * double(s) : double(v) / double(s));
        return quantize_bits<E, P.quantize>(y);
    }
};

}  // namespace flipcheck
