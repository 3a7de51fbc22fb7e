// The audit's truth tables of the 16-bit max/min intrinsics (__hmax, __hmin, __hmax_nan, ... on
// __half and __nv_bfloat16), measured on every pair of 16-bit patterns by gpu/src/audit_intrinsics.cu:
// per candidate semantics, how many pairs the intrinsic gets wrong and the lowest such pair. Plain
// data, so host code without CUDA can hold and print it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace flipcheck::audit {

struct intrinsic_row {
    struct candidate {
        std::string name;
        std::uint64_t wrong;
        std::uint32_t a, b, result;  // the lowest wrong pair and the intrinsic's result on it
    };
    std::string name, format;
    std::vector<candidate> candidates;
    std::string nan_result;   // the first NaN result's bits (decimal), or "none"
    std::uint64_t nan_other;  // NaN results with other bits than that one
};

}  // namespace flipcheck::audit
