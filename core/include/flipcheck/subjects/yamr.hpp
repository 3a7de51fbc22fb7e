// Seed 003's YAMR ("Yet Another Max Reduce"): a shared max_value starts at the sentinel
// float_min = -3.402e+38 and every thread runs `while (max_value < v) max_value = v;` with no
// atomics. On the CPU, one thread after another, only the sentinel bug shows: values below the
// sentinel (-FLT_MAX, -inf) never replace it. The race needs the GPU (gpu/ runs the real kernel).
#pragma once
#include <vector>

namespace flipcheck::subjects {

inline constexpr float yamr_sentinel = -3.402e+38f;

inline float yamr_sequential(const std::vector<float>& xs) {
    float max_value = yamr_sentinel;
    for (float v : xs)
        while (max_value < v) max_value = v;
    return max_value;
}

}  // namespace flipcheck::subjects
