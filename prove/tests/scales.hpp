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

// RCEIL of E's elements from the binary32 quotient `quotient(|amax|)` gives (rceil_scale_bits'
// steps); `up_always`: a quotient that is a power of two is rounded up too (wrong).
template <class E, class Quotient>
std::uint8_t rceil_from(std::uint32_t amax_bits, Quotient quotient, bool up_always) noexcept {
    amax_bits &= 0x7fffffffu;
    if (amax_bits > 0x7f800000u) return 0xff;
    if (amax_bits == 0x7f800000u) return 0xfe;
    const std::uint32_t q = std::bit_cast<std::uint32_t>(quotient(std::bit_cast<float>(amax_bits), E::to_value(E::max_finite)));
    const std::uint32_t field = q >> 23, mantissa = q & 0x7fffffu;
    if (field == 0) return mantissa > 0x400000u ? 1 : 0;
    const std::uint32_t code = field + (up_always || mantissa != 0);
    return std::uint8_t(code > 254 ? 254 : code);
}

template <class E>
struct rceil_by_reciprocal {
    using element = E;
    static constexpr flipcheck::scale_recipe recipe = flipcheck::rceil;
    static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        return rceil_from<E>(amax_bits, [](float a, float max) { return a * (1.0f / max); }, false);
    }
};

template <class E>
struct rceil_always_up {
    using element = E;
    static constexpr flipcheck::scale_recipe recipe = flipcheck::rceil;
    static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        return rceil_from<E>(amax_bits, [](float a, float max) { return a / max; }, true);
    }
};

}  // namespace prove_fixture
