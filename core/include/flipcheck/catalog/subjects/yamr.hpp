// Seed 003's YAMR ("Yet Another Max Reduce"): a shared max_value starts at the sentinel
// float_min = -3.402e+38 and every thread runs `while (max_value < v) max_value = v;` with no
// atomics. On the CPU, one thread after another, only the sentinel bug shows: values below the
// sentinel (-FLT_MAX, -inf) never replace it. The race needs the GPU (gpu/ runs the real kernel).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "flipcheck/format.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck::subjects {

inline constexpr float yamr_sentinel = -3.402e+38f;

inline float yamr_sequential(const std::vector<float>& xs) {
    float max_value = yamr_sentinel;
    for (float v : xs)
        while (max_value < v) max_value = v;
    return max_value;
}

// As a whole-array reducer (registry.hpp): a max that claims nothing about NaN.
struct yamr_reducer {
    using format = binary32;
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared{nan_policy::undefined, zero_policy::ordered, tie_policy::any};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        std::vector<float> v;
        for (auto x : xs) v.push_back(bit_cast<float>(x));
        return bit_cast<std::uint32_t>(yamr_sequential(v));
    }
};

}  // namespace flipcheck::subjects
