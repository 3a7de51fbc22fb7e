// A quantizer over every binary32 input on the GPU: check/quantizers.hpp's walk, the same code the
// CPU runs, one chunk of magnitudes a thread, against the oracle's step table copied to the device.
// Each thread keeps its chunk's first failure per law; the grid keeps the smallest rank per law
// (atomicMin), and the chunk that holds it is walked again by one thread to give the whole finding,
// so the report is exactly the CPU's (same laws, same first inputs, same words).
//
// Header-only, for any quantizer whose quantize() is __host__ __device__ (or __device__ only, as a
// CUDA intrinsic's wrapper may be): a user's CUDA source calls
//     flipcheck::gpu::check_quantizer_every<MyQuantizer>()
// after including this header, as check.cuh does for mappings. Needs --expt-relaxed-constexpr.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/gpu/detail/oracle_environment.cuh"
#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"

namespace flipcheck::gpu {

namespace quantize_kernels {

template <class X>
struct device_quantize {
    __device__ code_t<typename X::element> operator()(typename X::format::storage x) const { return X::quantize(x); }
};

// Walk chunk c of the magnitudes [first, first + count): the first chunk of the whole domain starts
// cold, every other one a magnitude early (the walk's warm_up: the order law's first neighbour).
template <class X>
__device__ void walk_chunk(quantize_check::findings<typename X::format::storage, code_t<typename X::element>>& f,
                           quantize_check::step_view<code_t<typename X::element>> steps, const float* value, std::uint64_t first,
                           std::uint64_t count, std::uint64_t chunk, std::uint64_t c) {
    using F = typename X::format;
    using E = typename X::element;
    const std::uint64_t a = first + c * chunk, e = std::min(a + chunk, first + count);
    const bool warm = a != 0;
    const std::uint64_t from = warm ? a - 1 : a;
    quantize_check::stepped_want<F, code_t<E>> want{steps, steps.find(std::uint32_t(from))};
    quantize_check::walk<F, E>(f, value, device_quantize<X>{}, want, from, e - 1, nullptr, 0, warm);
}

// Chunk c of X's magnitudes [first, first + count), walked into a findings: what the kernels
// below run a thread each.
template <class X>
struct chunk_walk {
    quantize_check::step_view<code_t<typename X::element>> steps;
    const float* value;
    std::uint64_t first, count, chunk;
    __device__ void operator()(quantize_check::findings<typename X::format::storage, code_t<typename X::element>>& f, std::uint64_t c) const {
        walk_chunk<X>(f, steps, value, first, count, chunk, c);
    }
};

// Every one of `chunks` chunks, a thread each: the checks summed and each law's smallest failing
// rank kept (atomicMin). Walk: a chunk_walk, or any functor of its form (scaled_quantize_walk.cuh's).
template <class S, class C, class Walk>
__global__ void walk_all(Walk walk, std::uint64_t chunks, unsigned long long* checks, unsigned long long* ranks) {
    unsigned long long n = 0;
    for (std::uint64_t c = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += std::uint64_t(gridDim.x) * blockDim.x) {
        quantize_check::findings<S, C> f;
        walk(f, c);
        n += f.checks;
        for (int l = 0; l < 4; ++l)
            if (f.first[l].rank != ~std::uint64_t(0)) atomicMin(ranks + l, (unsigned long long)f.first[l].rank);
    }
    atomicAdd(checks, n);
}

// Chunk c alone, its whole findings written out: the report's words for the chunk that holds a
// law's smallest failing rank.
template <class S, class C, class Walk>
__global__ void walk_one(Walk walk, std::uint64_t c, quantize_check::findings<S, C>* out) {
    quantize_check::findings<S, C> f;
    walk(f, c);
    *out = f;
}

}  // namespace quantize_kernels

// What a GPU walk (a quantizer's here, a key's in key_walk.cuh) reports beside the verdict: the
// walk kernel's own time (cudaEvent) and the call's wall time, oracle table and copies included.
// The kernel that launch() starts, timed by cudaEvents: its milliseconds. `what` names it in the
// device_error a CUDA failure throws.
template <class Launch>
float timed_launch(const char* what, Launch&& launch) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    check(cudaEventRecord(start, 0), "cudaEventRecord");
    launch();
    check(cudaGetLastError(), what);
    check(cudaEventRecord(stop, 0), "cudaEventRecord");
    check(cudaEventSynchronize(stop), what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

struct walk_timing {
    double kernel_ms = 0, wall_ms = 0;
};

// Quantizer X (binary32 input) on `magnitudes` magnitudes from `first` (2^31 from 0: every binary32
// pattern, both signs); the report is check_quantizer's. Throws device_error when CUDA fails.
template <quantizer_subject X>
scaling_report check_quantizer_every(std::uint64_t first = 0, std::uint64_t magnitudes = std::uint64_t(1) << 31,
                                     walk_timing* timing = nullptr) {
    detail::require_ieee_device_oracle();  // this unit's flags, not flushed (detail/oracle_environment.cuh)
    using F = typename X::format;
    using E = typename X::element;
    using S = typename F::storage;
    using C = code_t<E>;
    static_assert(F::width == 32, "16-bit inputs are exhaustive on the CPU already (check_quantizer)");
    namespace qc = quantize_check;
    const auto t0 = std::chrono::steady_clock::now();
    scaling_report r = qc::report_of<F, E>(X::declared);
    if (qc::say_cannot_declare<E>(r, X::declared)) return r;
    const bool every = first == 0 && magnitudes == std::uint64_t(1) << 31;
    r.exhaustive = every;
    r.domain = every ? std::string(qc::every_binary32_domain) + ", GPU"
                     : std::to_string(magnitudes * 2) + " binary32 patterns from magnitude " + hex(first, 8) + ", both signs (sampled), GPU";
    const qc::oracle_steps<E> host_steps(X::declared);
    const device_buffer<std::uint32_t> points(host_steps.points);
    const device_buffer<C> at0(host_steps.at[0]), at1(host_steps.at[1]), above0(host_steps.above[0]), above1(host_steps.above[1]);
    const device_buffer<float> value(qc::element_values<E>());
    const quantize_check::step_view<C> steps{points.get(), {at0.get(), at1.get()}, {above0.get(), above1.get()}, host_steps.points.size()};
    device_buffer<unsigned long long> words(5);  // checks, then the smallest rank of each law
    check(cudaMemset(words.get() + 1, 0xff, 4 * sizeof(unsigned long long)), "cudaMemset");
    // 2^31 magnitudes in chunks of 2048: 2^20 threads, each a sequential walk (the step table's
    // cursor moves forward, as on the CPU).
    constexpr std::uint64_t chunk = 2048;
    const quantize_kernels::chunk_walk<X> walk{steps, value.get(), first, magnitudes, chunk};
    const float kernel_ms = timed_launch("quantize walk_all", [&] {
        quantize_kernels::walk_all<S, C><<<2048, 256>>>(walk, (magnitudes + chunk - 1) / chunk, words.get(), words.get() + 1);
    });
    const std::vector<unsigned long long> w = words.download();
    qc::findings<S, C> f;
    f.checks = w[0];
    device_buffer<qc::findings<S, C>> one(1);
    for (int l = 0; l < 4; ++l) {
        if (w[std::size_t(1 + l)] == ~0ull) continue;
        const std::uint64_t magnitude = w[std::size_t(1 + l)] / 2;
        quantize_kernels::walk_one<S, C><<<1, 1>>>(walk, (magnitude - first) / chunk, one.get());
        check(cudaGetLastError(), "quantize walk_one");
        check(cudaStreamSynchronize(0), "quantize walk_one");
        f.note(l, one.download()[0].first[l]);
    }
    qc::conclude<F, E>(r, f);
    if (timing) timing->kernel_ms = kernel_ms, timing->wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace flipcheck::gpu
