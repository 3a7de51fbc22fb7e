#include "flipcheck/gpu/device.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace flipcheck::gpu {
namespace {

// The CUDA runtime says "insufficient driver" both when no driver is installed and when an old
// one is; only the first means "no device". The driver library's presence tells them apart.
bool driver_installed() {
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) return false;
    dlclose(lib);
    return true;
}

struct probe_result {
    bool present;
    std::string error;  // non-empty: the driver failed
};

probe_result probe() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    cudaGetLastError();  // a failed query leaves a sticky error behind
    if (e == cudaSuccess) return {n > 0, ""};
    if (e == cudaErrorNoDevice || (e == cudaErrorInsufficientDriver && !driver_installed())) return {false, ""};
    return {false, std::string("the CUDA driver failed: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e)};
}

}  // namespace

bool available() {
    static const probe_result r = probe();
    if (!r.error.empty()) throw device_error(r.error);
    return r.present;
}

bool required() noexcept {
    const char* v = std::getenv("FLIPCHECK_REQUIRE_GPU");
    return v && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
}

double start_up() {
    const auto t0 = std::chrono::steady_clock::now();
    if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
        throw device_error(std::string("CUDA context creation failed: ") + cudaGetErrorString(e));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string skip_reason() {
    if (available()) return "";
    if (required()) throw device_error("FLIPCHECK_REQUIRE_GPU is set but no CUDA device is present");
    return "no CUDA device (set FLIPCHECK_REQUIRE_GPU=1 to make this a failure)";
}

}  // namespace flipcheck::gpu
