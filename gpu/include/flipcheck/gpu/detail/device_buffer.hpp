// Device memory that frees itself (an exception between cudaMalloc and cudaFree leaks nothing):
// zero-filled or copied from a vector and read back whole, or left uninitialized and grown on
// demand (the sweep's scratch buffers, which kernels overwrite).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "flipcheck/gpu/detail/cuda_check.hpp"

namespace flipcheck::gpu {

struct uninitialized_t {};
inline constexpr uninitialized_t uninitialized{};

template <class T>
struct device_buffer {
    T* p = nullptr;
    std::size_t n = 0;

    device_buffer() = default;  // nothing allocated until reserve()
    explicit device_buffer(std::size_t count) : n(count) {
        check(cudaMalloc(&p, (count ? count : 1) * sizeof(T)), "cudaMalloc");
        if (const cudaError_t e = cudaMemset(p, 0, (count ? count : 1) * sizeof(T)); e != cudaSuccess) {
            cudaFree(p);  // the destructor does not run for a constructor that throws
            check(e, "cudaMemset");
        }
    }
    device_buffer(std::size_t count, uninitialized_t) { reserve(count); }
    explicit device_buffer(const std::vector<T>& v) : device_buffer(v.size()) {
        if (!v.empty()) check(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    ~device_buffer() { cudaFree(p); }

    // Room for at least `count` elements: grows only, and a grown buffer's contents are not kept
    // (nor zeroed).
    void reserve(std::size_t count) {
        if (count <= n) return;
        cudaFree(p);
        p = nullptr;
        n = 0;
        check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
        n = count;
    }
    T* get() const { return p; }

    std::vector<T> download() const {
        std::vector<T> v(n);
        if (n) check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return v;
    }
};

}  // namespace flipcheck::gpu
