// GPU subjects for `flipcheck audit`: CUB's DeviceReduce, Thrust's device max_element, and CUDA's
// fmaxf built with and without flush-to-zero. No CUDA types here, so g++-built code can call it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/policy.hpp"

namespace flipcheck::gpu {

struct audit_subject {
    std::string name, library;
    reduce_op op;
    bool arg;  // answers an index rather than bits
    // binary32 bits in; the answer's bits (or index), or nothing where the library gives none.
    std::function<std::optional<std::uint64_t>(const std::vector<std::uint32_t>&)> run;
};

std::vector<audit_subject> audit_subjects();
std::string cccl_version();

}  // namespace flipcheck::gpu
