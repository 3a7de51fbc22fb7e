// MX scales for prove_test: the catalogue's (through the registry); RCEIL written as users write it
// when the division looks expensive, the quotient by a multiplication with the reciprocal (rounded
// twice, yet proved to give RCEIL's code for every amax on every MX element); and RCEIL that always
// rounds up, even a quotient that is a power of two (wrong).
#pragma once
#include <bit>
#include <cstdint>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace prove_fixture {

// Every recipe's codes for a NaN amax (0xff) and an infinite one (0xfe); -1 for the others.
inline int nan_or_infinity(std::uint32_t amax_bits) noexcept {
    amax_bits &= 0x7fffffffu;
    return amax_bits > 0x7f800000u ? 0xff : amax_bits == 0x7f800000u ? 0xfe : -1;
}

template <class E>
struct rceil_by_reciprocal {
    using element = E;
    static constexpr flipcheck::scale_recipe recipe = flipcheck::rceil;
    static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        if (const int special = nan_or_infinity(amax_bits); special >= 0) return std::uint8_t(special);
        const float inverse = 1.0f / E::to_value(E::max_finite);
        const std::uint32_t q = std::bit_cast<std::uint32_t>(std::bit_cast<float>(amax_bits & 0x7fffffffu) * inverse);
        const std::uint32_t field = q >> 23, mantissa = q & 0x7fffffu;
        if (field == 0) return mantissa > 0x400000u ? 1 : 0;
        const std::uint32_t code = field + (mantissa != 0);
        return std::uint8_t(code > 254 ? 254 : code);
    }
};

template <class E>
struct rceil_always_up {
    using element = E;
    static constexpr flipcheck::scale_recipe recipe = flipcheck::rceil;
    static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        if (const int special = nan_or_infinity(amax_bits); special >= 0) return std::uint8_t(special);
        const std::uint32_t q = std::bit_cast<std::uint32_t>(std::bit_cast<float>(amax_bits & 0x7fffffffu) / E::to_value(E::max_finite));
        const std::uint32_t field = q >> 23, mantissa = q & 0x7fffffu;
        if (field == 0) return mantissa > 0x400000u ? 1 : 0;
        return std::uint8_t(field + 1 > 254 ? 254 : field + 1);
    }
};

}  // namespace prove_fixture
