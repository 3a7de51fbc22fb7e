// Quantizers for prove_test.cpp that flipcheck's catalogue does not have: any binary32 quantizer
// fed bfloat16 or binary16 inputs (so that the prover can be checked against the sweep on every
// input of a 16-bit format, mutants included), and binary64 quantizers, which no sweep reaches.
// The prover compiles this file with clang; prove_test.cpp includes it for the sweep's side.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

#include "flipcheck/catalog/quantizer_mutants.hpp"
#include "flipcheck/formats.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/quantize.hpp"

namespace prove_fixture {

// Quantizer Q (binary32 inputs) on the 16-bit format F's inputs, each widened exactly.
template <class Q, class F>
struct on_16_bits {
    using format = F;
    using element = typename Q::element;
    static constexpr flipcheck::quantize_policy declared = Q::declared;
    static flipcheck::code_t<element> quantize(std::uint16_t x) { return Q::quantize(std::bit_cast<std::uint32_t>(F::to_value(x))); }
};

// The built-in bfloat16 quantizer with -0 sent to the smallest positive code: the results run
// against the inputs' order at -0, +0 (the order law's one pair across the signs) and -0's answer
// is not its zero (special).
template <class E>
struct minus_zero_above_plus_zero {
    using format = flipcheck::bfloat16;
    using element = E;
    static constexpr flipcheck::quantize_policy declared{};
    static std::uint8_t quantize(std::uint16_t x) {
        return x == 0x8000 ? 1 : flipcheck::quantizer<flipcheck::bfloat16, E, declared>::quantize(x);
    }
};

// A binary64 to element E, nearest even, satfinite, written as a user might: |x| scaled to a count
// of its binade's quantum (exact: a power of two), rounded by nearbyint (ties to even).
template <class E>
struct binary64_quantizer {
    using format = flipcheck::binary64;
    using element = E;
    static constexpr flipcheck::quantize_policy declared{};
    static std::uint8_t quantize(std::uint64_t bits) {
        const double x = std::bit_cast<double>(bits);
        if (x != x) return E::quiet_nan;
        const bool negative = std::signbit(x);
        const auto with_sign = [negative](unsigned code) -> std::uint8_t {
            if (code == 0) return negative && E::has_negative_zero ? E::sign_mask : 0;
            return std::uint8_t(negative ? code | E::sign_mask : code);
        };
        constexpr int m = E::mantissa_bits, emin = 1 - E::bias;
        const double a = std::fabs(x);
        if (a >= double(E::to_value(E::max_finite))) return with_sign(E::max_finite);
        const int e = a < std::ldexp(1.0, emin) ? emin : std::ilogb(a);
        const unsigned code = unsigned(e - emin) * (1u << m) + unsigned(std::nearbyint(std::ldexp(a, m - e)));
        return with_sign(code > E::max_finite ? E::max_finite : code);
    }
};

// The same conversion through binary32 first (a float overload called with a double): the
// narrowing rounds once and the quantizer again, so a binary64 just beyond a midpoint between two
// codes narrows onto the midpoint and its tie goes to the even code (double rounding).
template <class E>
struct binary64_through_float {
    using format = flipcheck::binary64;
    using element = E;
    static constexpr flipcheck::quantize_policy declared{};
    static std::uint8_t quantize(std::uint64_t bits) {
        return flipcheck::quantize_bits<E, flipcheck::quantize_policy{}>(float(std::bit_cast<double>(bits)));
    }
};

}  // namespace prove_fixture
