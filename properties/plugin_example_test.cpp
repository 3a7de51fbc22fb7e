// How a user checks their own mapping with flipcheck: define the type, then one line.
// This file is built and run with the property tests, so the example cannot rot.
#include <cstdint>
#include <string_view>

#include "flipcheck/format.hpp"
#include "plugin.hpp"

namespace my_project {

// A hand-written binary16 key, as it might appear in a half-precision sort: positives get their
// top bit set, negatives are inverted whole, so larger keys are larger halves (-0 just below +0,
// NaNs outside the infinities).
struct half_key {
    using format = flipcheck::binary16;
    using storage = std::uint16_t;
    static constexpr std::string_view name = "half_key";
    static constexpr storage encode(storage bits) noexcept {
        return (bits & 0x8000u) ? storage(~bits) : storage(bits | 0x8000u);
    }
    static constexpr storage decode(storage key) noexcept {
        return (key & 0x8000u) ? storage(key & 0x7fffu) : storage(~key);
    }
};

}  // namespace my_project

// Defines HalfKey.round_trip_key ... HalfKey.nan_ignore (RapidCheck) and HalfKey.exhaustive (all 65536 keys; a binary64 mapping gets .sampled instead).
FLIPCHECK_CHECK_MAPPING(HalfKey, my_project::half_key);
