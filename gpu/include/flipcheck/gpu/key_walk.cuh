// A canonical key over every binary32 code on the GPU: check/canonical_keys.hpp's walk (the same
// judge the CPU runs, over the same declared order), a chunk of positions a thread. Each law's
// smallest failing position is kept by atomicMin; the two codes around it are keyed again on the
// device for the report, which is then the CPU's word for word.
//
// Header-only, for any key whose key() is __host__ __device__ (or __device__ only) and returns an
// unsigned integer or at most 8 bytes: a user's CUDA source calls
//     flipcheck::gpu::check_canonical_key_every<MyKey>()
// after including this header. Needs --expt-relaxed-constexpr.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/gpu/detail/oracle_environment.cuh"
#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/quantize_walk.cuh"

namespace flipcheck::gpu {

namespace key_kernels {

template <class X>
struct device_key {
    __device__ std::uint64_t operator()(typename X::format::storage x) const { return key_word(X::key(x)); }
};

// Chunk c judges the neighbour pairs ending at positions (begin + c * chunk, begin + (c + 1) * chunk]
// of the order, up to position end.
template <class X>
__global__ void walk_all(key_check::declared_order<typename X::format> order, std::uint64_t begin, std::uint64_t end,
                         std::uint64_t chunk, unsigned long long* first) {
    const std::uint64_t chunks = (end - begin + chunk - 1) / chunk;
    for (std::uint64_t c = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += std::uint64_t(gridDim.x) * blockDim.x) {
        const std::uint64_t a = begin + c * chunk;
        const auto f = key_check::judge<typename X::format>(order, device_key<X>{}, a, std::min(a + chunk, end), 0);
        for (int l = 0; l < 2; ++l)
            if (f.law[l].at != ~std::uint64_t(0)) atomicMin(first + l, (unsigned long long)f.law[l].at);
    }
}

template <class X>
__global__ void keys_of(const typename X::format::storage* codes, unsigned n, std::uint64_t* out) {
    for (unsigned i = 0; i < n; ++i) out[i] = key_word(X::key(codes[i]));
}

}  // namespace key_kernels

// Key X (binary32 input) on every code of its declared order (2^32 for total_order and sql, the
// numbers for numeric); the report is check_canonical_key's. `pairs` below the order's (compute-
// sanitizer's runs): that many neighbour pairs around -0 and +0, sampled. Throws device_error when
// CUDA fails.
template <canonical_key_subject X>
scaling_report check_canonical_key_every(walk_timing* timing = nullptr, std::uint64_t pairs = ~std::uint64_t(0)) {
    detail::require_ieee_device_oracle();  // this unit's flags, not flushed (detail/oracle_environment.cuh)
    using F = typename X::format;
    using S = typename F::storage;
    using K = std::remove_cvref_t<decltype(X::key(S{}))>;
    static_assert(F::width == 32, "16-bit formats are exhaustive on the CPU already (check_canonical_key)");
    static_assert(sizeof(K) <= 8 && (!std::is_integral_v<K> || std::is_unsigned_v<K>),
                  "the GPU walk compares keys as one unsigned word: an unsigned integer or at most 8 bytes");
    namespace kc = key_check;
    const auto t0 = std::chrono::steady_clock::now();
    const kc::declared_order<F> order{X::declared, nullptr, 0, nullptr, 0, true};
    const std::uint64_t n = order.size();
    const bool every = pairs >= n - 1;
    // The sample: pairs ending around the zeros, which sit at positions n / 2 - 1 and n / 2 but for
    // total_order's NaNs below (its negative NaNs come first: the zeros at the numbers' middle).
    const std::uint64_t zeros = X::declared == equivalence::total_order ? order.nan_count() + order.number_count() : order.number_count();
    const std::uint64_t begin = every ? 0 : zeros - pairs / 2, end = every ? n - 1 : begin + pairs;
    scaling_report r{"", "canonical key", std::string(F::name) + ", " + std::string(to_string(X::declared)),
                     every ? "every " + std::string(F::name) + " code (exhaustive, GPU)"
                           : std::to_string(pairs) + " neighbour pairs around -0 and +0 (sampled, GPU)",
                     every, every ? n : pairs + 1, {}};
    if (X::declared == equivalence::numeric) r.domain += "; NaNs not judged (numeric)";
    device_buffer<unsigned long long> first(2);
    check(cudaMemset(first.get(), 0xff, 2 * sizeof(unsigned long long)), "cudaMemset");
    constexpr std::uint64_t chunk = 4096;  // positions a thread: 2^20 threads for 2^32
    const float kernel_ms =
        timed_launch("key walk_all", [&] { key_kernels::walk_all<X><<<2048, 256>>>(order, begin, end, chunk, first.get()); });
    // Each law's first failing pair, and the pairs' keys from the device.
    const std::vector<unsigned long long> at = first.download();
    kc::key_findings<S> f{};
    std::vector<S> codes;
    for (int l = 0; l < 2; ++l) {
        if (at[std::size_t(l)] == ~0ull) continue;
        f.law[l] = {order.at(at[std::size_t(l)] - 1), order.at(at[std::size_t(l)]), l, at[std::size_t(l)]};
        codes.push_back(f.law[l].a), codes.push_back(f.law[l].b);
    }
    std::map<S, K> keys;
    if (!codes.empty()) {
        const device_buffer<S> in(codes);
        device_buffer<std::uint64_t> out(codes.size());
        key_kernels::keys_of<X><<<1, 1>>>(in.get(), unsigned(codes.size()), out.get());
        check(cudaGetLastError(), "key keys_of");
        check(cudaStreamSynchronize(0), "key keys_of");
        const std::vector<std::uint64_t> words = out.download();
        for (std::size_t i = 0; i < codes.size(); ++i) {
            K k{};
            if constexpr (std::is_integral_v<K>) k = K(words[i]);
            else
                for (std::size_t b = 0; b < k.size(); ++b) k[b] = std::uint8_t(words[i] >> (8 * (k.size() - 1 - b)));
            keys[codes[i]] = k;
        }
    }
    kc::conclude<F>(r, X::declared, f, [&](S x) { return keys.at(x); }, [](const K& k) { return kc::show_key(k); });
    if (timing) timing->kernel_ms = kernel_ms, timing->wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace flipcheck::gpu
