// Whether a CUDA device is usable, told apart from a driver that fails (device.hpp's contract),
// inline so that header-only users (sweep_launch.cuh, check.cuh) and the library share it.
#pragma once
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "flipcheck/error.hpp"

namespace flipcheck::gpu::detail {

// The CUDA runtime says "insufficient driver" both when no driver is installed and when an old
// one is; only the first means "no device". The driver library's presence tells them apart.
inline bool driver_installed() {
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) return false;
    dlclose(lib);
    return true;
}

struct probe_result {
    bool present;
    std::string error;  // non-empty: the driver failed
};

inline probe_result probe() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    cudaGetLastError();  // a failed query leaves a sticky error behind
    if (e == cudaSuccess) return {n > 0, ""};
    if (e == cudaErrorNoDevice || (e == cudaErrorInsufficientDriver && !driver_installed())) return {false, ""};
    return {false, std::string("the CUDA driver failed: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e)};
}

// True when a device is usable, false when none is present; a failing driver throws device_error.
inline bool device_present() {
    static const probe_result r = probe();
    if (!r.error.empty()) throw device_error(r.error);
    return r.present;
}

inline bool device_required() noexcept {
    const char* v = std::getenv("FLIPCHECK_REQUIRE_GPU");
    return v && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
}

// Why a GPU test should skip, or "" when a device is usable. Throws device_error when the device
// is broken, or absent while FLIPCHECK_REQUIRE_GPU is set.
inline std::string device_skip_reason() {
    if (device_present()) return "";
    if (device_required()) throw device_error("FLIPCHECK_REQUIRE_GPU is set but no CUDA device is present");
    return "no CUDA device (set FLIPCHECK_REQUIRE_GPU=1 to make this a failure)";
}

}  // namespace flipcheck::gpu::detail
