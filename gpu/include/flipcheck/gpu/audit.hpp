// GPU subjects for `flipcheck audit`: CUB's DeviceReduce, Thrust's device max_element, and CUDA's
// fmaxf built with and without flush-to-zero. No CUDA types here, so g++-built code can call it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/audit.hpp"

namespace flipcheck::gpu {

std::vector<audit::subject> audit_subjects();
std::string cccl_version();

}  // namespace flipcheck::gpu
