// The one way host code of gpu/ reports a failed CUDA call: an exception naming the call, which
// the CLI turns into a message and a non-zero exit instead of a crash.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace flipcheck::gpu {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace flipcheck::gpu
