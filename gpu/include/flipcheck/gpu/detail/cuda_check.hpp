// The one way host code of gpu/ reports a failed CUDA call: a device_error naming the call, which
// the CLI turns into a message and exit code 3 instead of a crash, and a test into a failure.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "flipcheck/error.hpp"

namespace flipcheck::gpu {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw device_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace flipcheck::gpu
