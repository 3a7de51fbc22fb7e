// Device memory that frees itself (an exception between cudaMalloc and cudaFree leaks nothing):
// zero-filled or copied from a vector and read back whole, or left uninitialized and grown on
// demand (the sweep's scratch buffers, which kernels overwrite).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flipcheck/gpu/detail/cuda_check.hpp"

namespace flipcheck::gpu {

namespace detail {
// Device memory from the device's stream-ordered pool (cudaMallocAsync on the default stream, where
// every flipcheck launch runs), kept by the pool between uses: a check allocates and frees buffers
// for every call, and cudaFree waits for the whole device, so calls from the main job's host
// threads (mappings, reducers, scaling side by side) serialized on each other's frees. The pool's
// release threshold is raised once per process, so freed memory is reused rather than returned.
inline void* pooled_alloc(std::size_t bytes) {
    static const bool kept = [] {
        int device = 0;
        cudaMemPool_t pool;
        if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
            std::uint64_t keep_all = ~std::uint64_t(0);
            cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all);
        }
        return true;
    }();
    (void)kept;
    void* p = nullptr;
    check(cudaMallocAsync(&p, bytes, 0), "cudaMallocAsync");
    return p;
}
inline void pooled_free(void* p) noexcept {
    if (p) cudaFreeAsync(p, 0);
}
}  // namespace detail

struct uninitialized_t {};
inline constexpr uninitialized_t uninitialized{};

template <class T>
struct device_buffer {
    T* p = nullptr;
    std::size_t n = 0;

    device_buffer() = default;  // nothing allocated until reserve()
    explicit device_buffer(std::size_t count) : n(count) {
        p = static_cast<T*>(detail::pooled_alloc((count ? count : 1) * sizeof(T)));
        if (const cudaError_t e = cudaMemset(p, 0, (count ? count : 1) * sizeof(T)); e != cudaSuccess) {
            detail::pooled_free(p);  // the destructor does not run for a constructor that throws
            check(e, "cudaMemset");
        }
    }
    device_buffer(std::size_t count, uninitialized_t) { reserve(count); }
    explicit device_buffer(const std::vector<T>& v) : device_buffer(v.size()) {
        if (!v.empty()) check(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    ~device_buffer() { detail::pooled_free(p); }

    // Room for at least `count` elements: grows only, and a grown buffer's contents are not kept
    // (nor zeroed).
    void reserve(std::size_t count) {
        if (count <= n) return;
        detail::pooled_free(p);
        p = nullptr;
        n = 0;
        p = static_cast<T*>(detail::pooled_alloc(count * sizeof(T)));
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
