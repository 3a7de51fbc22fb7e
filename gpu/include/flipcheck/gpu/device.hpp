// Whether a CUDA device is here, told apart from one that is broken. Without a device, GPU tests
// and tools say SKIPPED; with a device whose driver fails they fail, with CUDA's message. No
// CUDA types cross this header.
#pragma once
#include <string>

#include "flipcheck/error.hpp"

namespace flipcheck::gpu {

// True when a device is usable; false when none is present (no NVIDIA driver library installed,
// or the driver sees no device). Any other failure throws device_error with CUDA's message.
// The answer is cached; a failure is thrown again at every call.
bool available();

// FLIPCHECK_REQUIRE_GPU=1 in the environment: finding no device is a failure, not a skip. The
// device scripts set it, so a GPU run can never pass by skipping.
bool required() noexcept;

// Creates the CUDA context now (it is otherwise made by the first CUDA call) and returns the
// seconds that took, so that reports can show start-up apart from the work.
double start_up();

// For tests and tools: why to skip ("no CUDA device ..."), or "" when a device is usable.
// Throws device_error when the device is broken, or absent while required().
std::string skip_reason();

// The device's name, compute capability and SM count ("NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"),
// for reports that say where they ran (a shard's manifest).
std::string name();

}  // namespace flipcheck::gpu
