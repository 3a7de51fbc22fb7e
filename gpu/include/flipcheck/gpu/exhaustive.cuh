// core/exhaustive.hpp on the device: an atomic strategy over a byte format (minifloat.hpp) on every
// array of 1 to 3 codes, on real atomics, judged on the spot by the oracle (oracle.hpp is host and
// device code). Two shapes:
//   sequential  one thread per array: its updates, in the array's order, on a word of its own in
//               shared memory. Byte words sit four to a 32-bit word, so neighbouring threads' CAS
//               loops (gpu/word.cuh) contend for the same containing word, as packed bytes do.
//   contended   four lanes per array: lane i applies element i to one shared word at the same
//               time, in whatever order the hardware picks (every order comes up across arrays).
// Header-only and installed: a user's .cu includes it for their own strategy.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/word.cuh"
#include "flipcheck/oracle.hpp"

namespace flipcheck::gpu {

enum class exhaustive_shape : std::uint8_t { sequential, contended };

struct exhaustive_report {
    std::uint64_t arrays = 0, failures = 0;
    std::uint64_t first = ~std::uint64_t(0);  // the smallest failing array's number (codes, first most significant)
    bool passed() const { return failures == 0; }
};
using exhaustive_result = exhaustive_report;  // its earlier name, kept for code written against it

namespace detail {

template <class A>
using word_t = std::remove_cvref_t<decltype(A::init())>;

// Does the strategy's answer for xs agree with the oracle under its declared policy?
// (reducer_laws<F>'s agreement, in device code: oracle.hpp's fold and same_result/ties.)
template <class A>
__device__ bool agrees(const std::uint8_t* xs, int n, word_t<A> word) {
    using F = typename A::format;
    constexpr policy p = A::declared;
    if constexpr (p.nan == nan_policy::undefined) {
        for (int i = 0; i < n; ++i)
            if (F::is_nan_bits(xs[i])) return true;  // outside the domain: anything goes
    }
    const std::size_t best = oracle::arg_reduce<F>(p, A::op, xs, std::size_t(n));
    if constexpr (requires { A::index(word); }) {
        const std::size_t got = A::index(word);
        if (best == oracle::npos) return false;  // the strategy always answers; the oracle has none
        return got == best || (p.ties == tie_policy::any && got < std::size_t(n) &&
                               oracle::ties(p, A::op, F::to_value(xs[got]), F::to_value(xs[best])));
    } else {
        const std::uint8_t expected = xs[best == oracle::npos ? 0 : best];
        return oracle::same_result<F>(p, expected, std::uint8_t(A::result(word)));
    }
}

template <int Length>
__device__ void codes_of(std::uint64_t t, unsigned count, std::uint8_t* xs) {
    for (int i = Length - 1; i >= 0; --i) {
        xs[i] = std::uint8_t(t % count);
        t /= count;
    }
}

template <class A>
__device__ void update(cuda_word<word_t<A>>& w, std::uint8_t bits, unsigned index) {
    if constexpr (requires { A::index(word_t<A>{}); }) A::update(w, bits, index);
    else A::update(w, bits);
}

__device__ inline void record(bool ok, std::uint64_t t, unsigned long long* out) {
    if (ok) return;
    atomicAdd(&out[0], 1ull);
    atomicMin(&out[1], static_cast<unsigned long long>(t));
}

template <class A, int Length>
__global__ void sequential_kernel(std::uint64_t total, unsigned count, unsigned long long* out) {
    __shared__ word_t<A> words[256];
    const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool live = t < total;
    std::uint8_t xs[Length]{};
    if (live) codes_of<Length>(t, count, xs);
    // Every word is set before any is updated: a byte's plain store must not race with a
    // neighbour's CAS on the containing word (its four bytes belong to lanes of one warp).
    words[threadIdx.x] = A::init();
    __syncwarp();
    if (!live) return;
    cuda_word<word_t<A>> w{&words[threadIdx.x]};
    for (int i = 0; i < Length; ++i) update<A>(w, xs[i], unsigned(i));
    record(agrees<A>(xs, Length, w.load()), t, out);
}

template <class A, int Length>
__global__ void contended_kernel(std::uint64_t total, unsigned count, unsigned long long* out) {
    __shared__ word_t<A> words[64];  // one per group of four lanes
    const unsigned group = threadIdx.x / 4, lane = threadIdx.x % 4;
    const std::uint64_t t = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 4;
    const bool live = t < total;
    std::uint8_t xs[Length]{};
    if (live) codes_of<Length>(t, count, xs);
    if (lane == 0) words[group] = A::init();
    __syncwarp();
    cuda_word<word_t<A>> w{&words[group]};
    if (live && lane < unsigned(Length)) update<A>(w, xs[lane], lane);
    __syncwarp();
    if (live && lane == 0) record(agrees<A>(xs, Length, w.load()), t, out);
}

}  // namespace detail

// Strategy A (core/atomic.hpp's shape, over a byte format) on every array of `length` codes
// (1 to 3) in the given shape. Throws device_error if the device fails.
template <class A>
exhaustive_report check_every_array(int length, exhaustive_shape shape) {
    using F = typename A::format;
    static_assert(F::width <= 8, "gpu::check_every_array enumerates a byte format's codes");
    const unsigned count = unsigned(F::value_mask) + 1;
    std::uint64_t total = 1;
    for (int i = 0; i < length; ++i) total *= count;
    device_buffer<unsigned long long> out(std::vector<unsigned long long>{0ull, ~0ull});
    const unsigned block = 256;
    const std::uint64_t threads = shape == exhaustive_shape::sequential ? total : total * 4;
    const unsigned grid = unsigned((threads + block - 1) / block);
    auto launch = [&]<int Length>() {
        if (shape == exhaustive_shape::sequential) detail::sequential_kernel<A, Length><<<grid, block>>>(total, count, out.get());
        else detail::contended_kernel<A, Length><<<grid, block>>>(total, count, out.get());
    };
    if (length == 1) launch.template operator()<1>();
    else if (length == 2) launch.template operator()<2>();
    else if (length == 3) launch.template operator()<3>();
    else throw std::invalid_argument("gpu::check_every_array: arrays of 1 to 3 codes");
    check(cudaGetLastError(), "exhaustive kernel launch");
    check(cudaStreamSynchronize(0), "exhaustive kernel");
    const auto o = out.download();
    return {total, o[0], o[1]};
}

}  // namespace flipcheck::gpu
