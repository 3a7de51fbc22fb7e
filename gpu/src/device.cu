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

std::string name() {
    int device = 0;
    cudaDeviceProp p{};
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) throw device_error(std::string("cudaGetDevice: ") + cudaGetErrorString(e));
    if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess)
        throw device_error(std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e));
    // The driver's CUDA version: a verdict on the device holds for the code its compiler made.
    int driver = 0;
    const std::string version = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0
                                    ? ", driver CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10)
                                    : "";
    return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " + std::to_string(p.multiProcessorCount) +
           " SMs" + version + ")";
}

}  // namespace flipcheck::gpu
