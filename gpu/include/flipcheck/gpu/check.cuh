// A user's atomic strategy (atomic.hpp's atomic_strategy or arg_atomic_strategy) on real GPU
// atomics, in every launch shape flipcheck's kernels use, checked by check/reducers.hpp's stages (edge
// battery, random arrays, order independence, large arrays) with the same laws, shrinking and
// replay lines as on the CPU. Header-only: include it in a .cu file.
//
//   warp          each warp updates its own shared-memory word; lane 0 publishes the warp's
//                 answer to the global word with one more update (a warp-aggregated atomic);
//   block_shared  every thread updates one shared word per block, thread 0 publishes (seed 000's
//                 groupshared InterlockedMax, then a global one);
//   grid          every thread updates the global word directly.
// Publishing is the strategy's own update applied to its own result: the value's bits, or for an
// arg strategy the element at the index it chose, with that index. A block or warp that saw no
// element publishes nothing. The hardware picks the interleaving. Arrays go in batches, one launch
// for thousands of them (check/reducers.hpp's run_batch), each array on up to 64 blocks of 256 threads
// (grid-stride; 64 for arrays of 16k elements and more), so words are contended across warps and
// blocks.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/detail/device_probe.hpp"
#include "flipcheck/gpu/form.hpp"
#include "flipcheck/gpu/word.cuh"

namespace flipcheck::gpu {

template <class A>
using word_of = std::remove_cvref_t<decltype(A::init())>;

namespace detail {

inline constexpr unsigned check_threads = 256;
inline constexpr unsigned check_max_blocks = 64;

template <class A>
__device__ void publish(cuda_word<word_of<A>>& global, word_of<A> local, const typename A::format::storage* xs) {
    if constexpr (atomic::arg_atomic_strategy<A>) {
        const std::uint32_t i = std::uint32_t(A::index(local));
        A::update(global, xs[i], i);
    } else {
        A::update(global, typename A::format::storage(A::result(local)));
    }
}

// Array s of the batch is xs[offsets[s], offsets[s + 1]), reduced by blocks [s * per, (s + 1) * per)
// into words[s] (which starts at A::init()).
template <class A>
__global__ void atomic_check_kernel(const typename A::format::storage* xs, const std::uint64_t* offsets, unsigned per,
                                    atomic_form form, word_of<A>* words) {
    using W = word_of<A>;
    __shared__ W local[check_threads / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned s = blockIdx.x / per, block = blockIdx.x % per;
    const std::uint64_t begin = offsets[s], end = offsets[s + 1];
    if (threadIdx.x < check_threads / 32) local[threadIdx.x] = A::init();
    __syncthreads();
    W* global = &words[s];
    W* target = form == atomic_form::grid ? global : form == atomic_form::warp ? &local[warp] : &local[0];
    bool mine = false;
    const std::uint64_t stride = std::uint64_t(per) * blockDim.x;
    for (std::uint64_t i = begin + std::uint64_t(block) * blockDim.x + threadIdx.x; i < end; i += stride) {
        mine = true;
        cuda_word<W> w{target};
        if constexpr (atomic::arg_atomic_strategy<A>) A::update(w, xs[i], std::uint32_t(i - begin));
        else A::update(w, xs[i]);
    }
    cuda_word<W> g{global};
    if (form == atomic_form::warp) {
        const bool any = __any_sync(0xffffffffu, mine);
        __syncwarp();  // the lanes' shared-memory updates are visible to lane 0
        if (lane == 0 && any) publish<A>(g, *static_cast<volatile W*>(&local[warp]), xs + begin);
    } else if (form == atomic_form::block_shared) {
        const bool any = __syncthreads_or(mine);
        if (threadIdx.x == 0 && any) publish<A>(g, *static_cast<volatile W*>(&local[0]), xs + begin);
    }
}

// Device buffers reused from batch to batch: one check makes many launches.
template <class A>
struct atomic_runner {
    using S = typename A::format::storage;
    using W = word_of<A>;
    device_buffer<S> xs;
    device_buffer<std::uint64_t> offsets;
    device_buffer<W> words;

    std::vector<std::optional<std::uint64_t>> run(const std::vector<std::span<const S>>& arrays, atomic_form form) {
        std::vector<std::uint64_t> off{0};
        std::size_t longest = 0;
        for (const auto& a : arrays) {
            off.push_back(off.back() + a.size());
            longest = std::max(longest, a.size());
        }
        std::vector<S> all;
        all.reserve(off.back());
        for (const auto& a : arrays) all.insert(all.end(), a.begin(), a.end());
        xs.reserve(std::max<std::size_t>(all.size(), 1));
        offsets.reserve(off.size());
        words.reserve(arrays.size());
        if (!all.empty()) check(cudaMemcpy(xs.get(), all.data(), all.size() * sizeof(S), cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(offsets.get(), off.data(), off.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice), "cudaMemcpy");
        const std::vector<W> init(arrays.size(), A::init());
        check(cudaMemcpy(words.get(), init.data(), init.size() * sizeof(W), cudaMemcpyHostToDevice), "cudaMemcpy");
        // Long arrays get up to 64 blocks each, so that their words are contended across blocks.
        const unsigned per = unsigned(std::clamp<std::size_t>((longest + check_threads - 1) / check_threads, 1, check_max_blocks));
        atomic_check_kernel<A><<<unsigned(arrays.size()) * per, check_threads>>>(xs.get(), offsets.get(), per, form, words.get());
        check(cudaGetLastError(), "atomic_check_kernel launch");
        std::vector<W> out(arrays.size());
        check(cudaMemcpy(out.data(), words.get(), out.size() * sizeof(W), cudaMemcpyDeviceToHost), "atomic_check_kernel");
        std::vector<std::optional<std::uint64_t>> answers(arrays.size());
        for (std::size_t i = 0; i < arrays.size(); ++i) {
            if (arrays[i].empty()) continue;  // no update: the word has no answer to give
            if constexpr (atomic::arg_atomic_strategy<A>) answers[i] = std::uint64_t(A::index(out[i]));
            else answers[i] = std::uint64_t(A::result(out[i]));
        }
        return answers;
    }
};

}  // namespace detail

// The GPU subject of atomic strategy A in one launch shape, for check/reducers.hpp's check(): named
// "<A::name> (gpu warp)" and so on. Throws device_error when there is no usable device.
template <class A>
reducer_subject<typename A::format> subject_of(atomic_form form) {
    static_assert(!atomic::lane_atomic_strategy<A>,
                  "gpu::subject_of<A>: a lane strategy (shared_word) is checked on the CPU only, where its "
                  "neighbours' lanes are judged too (flipcheck::check_atomic, FLIPCHECK_CHECK_ATOMIC)");
    static_assert(atomic::lane_atomic_strategy<A> || atomic::atomic_strategy<A> || atomic::arg_atomic_strategy<A>,
                  "gpu::subject_of<A>: A must be an atomic::atomic_strategy or arg_atomic_strategy (atomic.hpp)");
    using S = typename A::format::storage;
    if (!detail::device_present()) throw device_error("no CUDA device is present to run " + std::string(A::name) + " on");
    reducer_subject<typename A::format> s;
    s.name = std::string(A::name) + " (gpu " + std::string(to_string(form)) + ")";
    s.op = A::op;
    s.declared = A::declared;
    s.arg = atomic::arg_atomic_strategy<A>;
    auto runner = std::make_shared<detail::atomic_runner<A>>();
    s.run = [runner, form](std::span<const S> xs, std::span<const std::size_t>) { return runner->run({xs}, form).front(); };
    s.run_batch = [runner, form](const std::vector<std::vector<S>>& arrays) {
        return runner->run(std::vector<std::span<const S>>(arrays.begin(), arrays.end()), form);
    };
    return s;
}

// Every launch shape, each through every stage: one report per shape, in atomic_forms' order.
template <class A>
std::vector<check_report> check_atomic(const check_options& o = {}) {
    std::vector<check_report> out;
    for (atomic_form f : atomic_forms) out.push_back(check(subject_of<A>(f), o));
    return out;
}

}  // namespace flipcheck::gpu
