// The scaling path on the GPU, callable from host code (no CUDA types): flipcheck's amax in its
// three forms (warp, block through a shared word, grid through a global word: gpu/amax.cuh), the
// fused amax + MX block scale kernel, and the GPU twins of the scaling mutants, each judged by
// check/scaling.hpp's judges against the oracle on the same inputs as the CPU's checks; and the
// checks only a GPU runs in milliseconds: the amax of every pair of 16-bit patterns (2^32) and
// the e8m0 and FP8 tensor scales of every binary32 amax pattern.
#pragma once
#include <vector>

#include "flipcheck/check/scaling.hpp"

namespace flipcheck::gpu {

struct scaling_row {
    scaling_report report;
    bool mutant = false;  // a known-wrong subject: passing is the failure
    double ms = 0;        // GPU time of the check's launches
};

// mutants = false: flipcheck's own GPU subjects (every one must pass); true: the mutants' GPU
// twins (every one must be killed). Throws device_error when CUDA fails.
std::vector<scaling_row> verify_scaling(bool mutants, const scaling_options& o = {});

}  // namespace flipcheck::gpu
