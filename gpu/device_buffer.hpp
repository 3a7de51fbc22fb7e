// Device memory that frees itself (an exception between cudaMalloc and cudaFree leaks nothing),
// zero-filled or copied from a vector, and read back whole.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda_check.hpp"

namespace flipcheck::gpu {

template <class T>
struct device_buffer {
    T* p = nullptr;
    std::size_t n = 0;
    explicit device_buffer(std::size_t count) : n(count) {
        check(cudaMalloc(&p, (count ? count : 1) * sizeof(T)), "cudaMalloc");
        if (const cudaError_t e = cudaMemset(p, 0, (count ? count : 1) * sizeof(T)); e != cudaSuccess) {
            cudaFree(p);  // the destructor does not run for a constructor that throws
            check(e, "cudaMemset");
        }
    }
    explicit device_buffer(const std::vector<T>& v) : device_buffer(v.size()) {
        if (!v.empty()) check(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    ~device_buffer() { cudaFree(p); }
    std::vector<T> download() const {
        std::vector<T> v(n);
        if (n) check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return v;
    }
};

}  // namespace flipcheck::gpu
