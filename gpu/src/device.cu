#include "flipcheck/gpu/device.hpp"

#include <cuda_runtime.h>

#include <chrono>

#include "flipcheck/gpu/detail/device_probe.hpp"

namespace flipcheck::gpu {

bool available() { return detail::device_present(); }

bool required() noexcept { return detail::device_required(); }

double start_up() {
    const auto t0 = std::chrono::steady_clock::now();
    if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
        throw device_error(std::string("CUDA context creation failed: ") + cudaGetErrorString(e));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string skip_reason() { return detail::device_skip_reason(); }

}  // namespace flipcheck::gpu
