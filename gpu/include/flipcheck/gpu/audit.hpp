// GPU subjects for `flipcheck audit`: CUB's DeviceReduce and Thrust's device max_element on float,
// double, __half and __nv_bfloat16, CUDA's fmaxf built with and without flush-to-zero, CUB's and
// Thrust's sorts, and the NaN the device makes by 0/0. No CUDA types here, so g++-built code can
// call it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/audit/intrinsics.hpp"
#include "flipcheck/audit/p3008.hpp"
#include "flipcheck/audit/sort.hpp"

namespace flipcheck::gpu {

std::vector<audit::subject> audit_subjects();
std::vector<audit::sort_subject> sort_subjects();
// cuda::atomic_ref fetch_max/fetch_min and flipcheck's p3008.cuh, in a kernel (audit_p3008.cu).
std::vector<audit::p3008_subject> p3008_subjects();

// The 16-bit max/min intrinsics on every pair of 16-bit patterns (audit_intrinsics.cu).
using intrinsic_row = audit::intrinsic_row;
std::vector<intrinsic_row> intrinsic_truth_tables();
// 0/0 computed on the device in the format (binary16, bfloat16, binary32, binary64): its bits.
std::uint64_t made_nan(const std::string& format);
std::string cccl_version();

}  // namespace flipcheck::gpu
