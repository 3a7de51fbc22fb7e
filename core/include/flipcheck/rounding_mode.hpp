// The rounding modes of C's floating-point environment, and what a subject claims about them
// (check/rounding_modes.hpp checks the claim; float_environment.hpp sets a mode). Host and device
// alike may name them; only the host has a mode to set (each device instruction names its own).
#pragma once
#include <cstdint>
#include <string>

namespace flipcheck {

// C's four rounding directions (IEEE 754's roundTiesToEven, roundTowardPositive,
// roundTowardNegative, roundTowardZero).
enum class rounding_mode : std::uint8_t { to_nearest, upward, downward, toward_zero };
inline constexpr rounding_mode all_rounding_modes[] = {rounding_mode::to_nearest, rounding_mode::upward, rounding_mode::downward,
                                                       rounding_mode::toward_zero};

constexpr const char* to_string(rounding_mode m) {
    switch (m) {
        case rounding_mode::upward: return "upward";
        case rounding_mode::downward: return "downward";
        case rounding_mode::toward_zero: return "toward_zero";
        default: return "to_nearest";
    }
}
// The name as to_string writes it, or false.
inline bool parse_rounding_mode(const std::string& text, rounding_mode& out) {
    for (rounding_mode m : all_rounding_modes)
        if (text == to_string(m)) return out = m, true;
    return false;
}
// What a subject that computes with floats says about the caller's rounding mode, as its
// `rounding_modes` (check/rounding_modes.hpp): right in any mode, or in the one it needs.
struct rounding_claim {
    bool any = false;                                 // right in every mode
    rounding_mode needs = rounding_mode::to_nearest;  // else: the one mode it is right in
    bool declared = true;                             // false: the subject says nothing (checked to_nearest)
};
inline constexpr rounding_claim any_rounding_mode{true, rounding_mode::to_nearest, true};
constexpr rounding_claim needs_rounding(rounding_mode m) { return {false, m, true}; }

}  // namespace flipcheck
