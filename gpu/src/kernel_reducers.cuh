// The kernels that exist only on the GPU (flipcheck/gpu/reduce.hpp's value_kernels and
// arg_kernels), each with the code that launches it on a batch of arrays:
//   run<F>(policy, op, batch, shape) -> per array, the answer's bits (a value kernel) or its
//   index, ~0 for none (an arg kernel); an empty array's entry is ignored.
// src/reduce.cu reaches them through the lists; a new kernel is its struct here and its line there.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/reduce.cuh"
#include "flipcheck/gpu/reduce.hpp"
#include "flipcheck/gpu/seed002.cuh"

namespace flipcheck::gpu {

// A batch on the device: array s is xs[offsets[s], offsets[s+1]).
template <class S>
struct device_batch {
    std::vector<std::uint64_t> offsets{0};
    device_buffer<S> xs;
    device_buffer<std::uint64_t> d_offsets;
    static std::vector<S> concat(const std::vector<std::vector<S>>& arrays, std::vector<std::uint64_t>& offsets) {
        std::vector<S> all;
        for (const auto& a : arrays) {
            all.insert(all.end(), a.begin(), a.end());
            offsets.push_back(all.size());
        }
        return all;
    }
    explicit device_batch(const std::vector<std::vector<S>>& arrays) : xs(concat(arrays, offsets)), d_offsets(offsets) {}
    batch<S> view() const { return {xs.p, d_offsets.p}; }
    unsigned count() const { return unsigned(offsets.size() - 1); }
};

inline void finish_launch() {
    check(cudaGetLastError(), "launch");
    check(cudaStreamSynchronize(0), "kernel");
}

inline constexpr std::uint64_t no_index = ~std::uint64_t(0);

namespace kernels {

// reduce.cuh's keyed value kernels: one key word per array, decoded at the end.
template <atomic_form Form>
struct keyed_value {
    template <format F>
    static std::vector<typename F::storage> run(policy p, reduce_op op, const device_batch<typename F::storage>& b,
                                                launch_shape shape) {
        using S = typename F::storage;
        using M = key_mapping<F>;
        using K = key_word_t<F>;
        device_buffer<K> words(std::vector<K>(b.count(), identity_key<K>(op)));
        device_buffer<K> partials(std::size_t(shape.blocks) * b.count());
        device_buffer<unsigned> counters(b.count());
        launch_reduce<M>(Form, p, op, b.view(), b.count(), shape.blocks, shape.threads, words.p, partials.p, counters.p);
        finish_launch();
        const auto keys = words.download();
        std::vector<S> bits(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) bits[i] = M::decode(S(keys[i]));
        return bits;
    }
};
struct warp_aggregated : keyed_value<atomic_form::warp> {};
struct block_shared : keyed_value<atomic_form::block_shared> {};
struct full_grid : keyed_value<atomic_form::grid> {};

struct packed_atomic {
    template <format F>
    static std::vector<std::uint64_t> run(policy p, reduce_op op, const device_batch<typename F::storage>& b, launch_shape shape) {
        using M = key_mapping<F>;
        using W = packed_word_t<F>;
        device_buffer<W> words(std::vector<W>(b.count(), identity_word<W>(op)));
        launch_packed_arg<M>(p, op, b.view(), b.count(), shape.blocks, shape.threads, words.p);
        finish_launch();
        const auto w = words.download();
        std::vector<std::uint64_t> index(w.size());
        for (std::size_t i = 0; i < w.size(); ++i) index[i] = unpack_packed<M>(p, op, w[i]);
        return index;
    }
};

struct two_level {
    template <format F>
    static std::vector<std::uint64_t> run(policy p, reduce_op op, const device_batch<typename F::storage>& b, launch_shape shape) {
        using M = key_mapping<F>;
        using R = keyed_reducer<M>;
        device_buffer<typename R::arg_word> partials(std::size_t(shape.blocks) * b.count());
        device_buffer<int> seen(std::size_t(shape.blocks) * b.count());
        device_buffer<unsigned> counters(b.count());
        device_buffer<std::uint64_t> indices(b.count());
        launch_two_level_arg<M>(p, op, b.view(), b.count(), shape.blocks, shape.threads, partials.p, seen.p, counters.p, indices.p);
        finish_launch();
        return indices.download();
    }
};

// Seed 002's kernels: ArgMaxKernel on grid = SM count x 1024 threads, then FindMaxOfMax on one
// block per array (binary32 argmax only; the launch shape and the policy are the article's).
template <class Kernel1, class Kernel2>
std::vector<std::uint64_t> run_seed002(const device_batch<std::uint32_t>& b, Kernel1 first, Kernel2 final_pass) {
    int device = 0, sms = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    constexpr int blockSize = seed002::WARP_SIZE * seed002::WARP_SIZE;
    const int gridSize = sms;
    device_buffer<seed002::ArgMaxResult> block_max(std::size_t(gridSize) * b.count());
    const int shared = (blockSize / seed002::WARP_SIZE) * int(sizeof(seed002::ArgMaxResult));
    first<<<dim3(gridSize, b.count()), blockSize, shared>>>(block_max.p, reinterpret_cast<const float*>(b.xs.p), b.d_offsets.p);
    finish_launch();
    const int blockSizeReduction = std::min(blockSize, ((gridSize + seed002::WARP_SIZE - 1) / seed002::WARP_SIZE) * seed002::WARP_SIZE);
    const int shared2 = (blockSizeReduction / seed002::WARP_SIZE) * int(sizeof(seed002::ArgMaxResult));
    final_pass<<<dim3(1, b.count()), blockSizeReduction, shared2>>>(block_max.p, uint32_t(gridSize));
    finish_launch();
    const auto all = block_max.download();
    std::vector<std::uint64_t> index;
    for (unsigned s = 0; s < b.count(); ++s) {
        const seed002::ArgMaxResult& r = all[std::size_t(s) * gridSize];
        index.push_back(r.index == ~0u ? no_index : r.index);
    }
    return index;
}

template <class Init>
struct seed002_as_written {
    template <format F>
    static std::vector<std::uint64_t> run(policy, reduce_op, const device_batch<typename F::storage>& b, launch_shape) {
        static_assert(std::is_same_v<F, binary32>, "seed 002's kernels reduce floats");
        return run_seed002(b, seed002::ArgMaxKernel<Init>, seed002::FindMaxOfMax<Init>);
    }
};
struct seed002_walkthrough : seed002_as_written<seed002::walkthrough> {};
struct seed002_full_code : seed002_as_written<seed002::full_code> {};

struct seed002_fixed {
    template <format F>
    static std::vector<std::uint64_t> run(policy, reduce_op, const device_batch<typename F::storage>& b, launch_shape) {
        static_assert(std::is_same_v<F, binary32>, "seed 002's kernels reduce floats");
        return run_seed002(b, seed002::ArgMaxKernelFixed, seed002::FindMaxOfMaxFixed);
    }
};

}  // namespace kernels
}  // namespace flipcheck::gpu
