// The reductions' kernels, one per form (form.hpp) for values, two for indices, and one per
// registry atomic strategy, each compiled per operation and NaN policy. dispatch.cuh launches them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "flipcheck/atomic.hpp"
#include "flipcheck/gpu/form.hpp"
#include "flipcheck/gpu/reduce/block.cuh"
#include "flipcheck/gpu/word.cuh"
#include "flipcheck/mapping.hpp"
#include "flipcheck/p3008.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/reducer.hpp"

namespace flipcheck::gpu {

template <class S>
struct batch {
    const S* xs;
    const std::uint64_t* offsets;  // count + 1 entries
};

// The key word of a format: 16-bit keys live in 32-bit words (CUDA has 32- and 64-bit atomics).
template <class F>
using key_word_t = std::conditional_t<(F::width <= 32), unsigned, unsigned long long>;

template <class K>
__host__ __device__ constexpr K identity_key(reduce_op op) {
    return op == reduce_op::max ? K(0) : ~K(0);
}

// ---- value forms -----------------------------------------------------------------------------
// words[s]: the key word of array s (start it at identity_key(op) for the atomic forms; the grid
// form overwrites it). partials: gridDim.x per array; counters: one per array, zeroed once.
// Compiled per operation and NaN policy (launch_reduce picks), so that the per-element work of
// keyed_reducer folds to a handful of instructions; the zero policy stays a runtime argument.
template <mapping M, reduce_op Op, nan_policy N>
__global__ void reduce_kernel(batch<typename M::format::storage> b, policy requested, atomic_form form,
                              key_word_t<typename M::format>* words, key_word_t<typename M::format>* partials,
                              unsigned* counters) {
    constexpr reduce_op op = Op;
    const policy p{N, requested.zero, requested.ties};
    using F = typename M::format;
    using S = typename F::storage;
    using K = key_word_t<F>;
    using R = keyed_reducer<M>;
    const unsigned s = blockIdx.y;
    K local = identity_key<K>(op);
    detail::for_each_element(b.xs, b.offsets[s], b.offsets[s + 1], [&](std::uint64_t, S x) {
        if (R::contributes(p, x)) local = detail::pick(op, local, K(R::key(p, op, x)));
    });
    local = detail::warp_reduce(op, local);
    const bool leader = threadIdx.x % 32 == 0;
    if (form == atomic_form::warp) {
        if (leader) detail::atomic_pick(op, &words[s], local);
        return;
    }
    if (form == atomic_form::block_shared) {
        __shared__ K block_word;
        if (threadIdx.x == 0) block_word = identity_key<K>(op);
        __syncthreads();
        if (leader) detail::atomic_pick(op, &block_word, local);
        __syncthreads();
        if (threadIdx.x == 0) detail::atomic_pick(op, &words[s], block_word);
        return;
    }
    // grid: keys with the identity are already a monoid, so a partial needs no "seen" flag.
    __shared__ K warp_keys[32];
    const unsigned lane = threadIdx.x % 32, wid = threadIdx.x / 32, nw = (blockDim.x + 31) / 32;
    if (lane == 0) warp_keys[wid] = local;
    __syncthreads();
    if (wid == 0) {
        local = detail::warp_reduce(op, lane < nw ? warp_keys[lane] : identity_key<K>(op));
        if (lane == 0) partials[std::size_t(s) * gridDim.x + blockIdx.x] = local;
    }
    if (!detail::last_block(&counters[s])) return;
    local = identity_key<K>(op);
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
        local = detail::pick(op, local, *static_cast<volatile K*>(&partials[std::size_t(s) * gridDim.x + i]));
    local = detail::warp_reduce(op, local);
    __syncthreads();  // warp_keys is reused
    if (lane == 0) warp_keys[wid] = local;
    __syncthreads();
    if (wid == 0) {
        local = detail::warp_reduce(op, lane < nw ? warp_keys[lane] : identity_key<K>(op));
        if (lane == 0) words[s] = local;
    }
}

// ---- per-element reducers: the registry's atomic update strategies ------------------------------
// (seed 004's dispatch, the CAS loop, P3008's fetch_*, the mapped keys, their mutants: core's
// atomic.hpp and p3008.hpp.) objects[s] starts at the reducer's initial value, or at the array's
// first element for one without init() (P3008); every element of array s is one update.
template <class Reducer>
__global__ void per_element_kernel(batch<typename Reducer::format::storage> b, typename Reducer::format::storage* objects) {
    using S = typename Reducer::format::storage;
    cuda_word<S> w{&objects[blockIdx.y]};
    detail::for_each_element(b.xs, b.offsets[blockIdx.y], b.offsets[blockIdx.y + 1],
                             [&](std::uint64_t, S x) { Reducer::update(w, x); });
}

// The arg reducers of the same shape (the packed 64-bit argmax): objects[s] starts at
// Reducer::init(); every element is one update with its index in the array, and
// Reducer::index(objects[s]) is the answer.
template <class Reducer>
__global__ void per_element_arg_kernel(batch<typename Reducer::format::storage> b,
                                       std::remove_cvref_t<decltype(Reducer::init())>* objects) {
    using S = typename Reducer::format::storage;
    cuda_word<std::remove_cvref_t<decltype(Reducer::init())>> w{&objects[blockIdx.y]};
    const std::uint64_t begin = b.offsets[blockIdx.y];
    detail::for_each_element(b.xs, begin, b.offsets[blockIdx.y + 1],
                             [&](std::uint64_t i, S x) { Reducer::update(w, x, std::uint32_t(i - begin)); });
}

// ---- arg forms -------------------------------------------------------------------------------
// binary64's (key, slot) pair as one 16-byte word for the 128-bit atomicCAS of sm_90.
struct alignas(16) wide_word {
    unsigned long long key, slot;
    friend constexpr bool operator==(wide_word, wide_word) = default;
};
// The word a packed arg reduction keeps per array: key << 32 | slot in 64 bits up to 32-bit
// formats, (key, slot) in 128 bits for binary64.
template <class F>
using packed_word_t = std::conditional_t<(F::width <= 32), unsigned long long, wide_word>;

template <class W>
__host__ __device__ constexpr W identity_word(reduce_op op) {
    if constexpr (std::is_same_v<W, wide_word>) return op == reduce_op::max ? W{0, 0} : W{~0ull, ~0ull};
    else return identity_key<W>(op);
}

namespace detail {
// max/min of (key, slot) on a 128-bit word: a compare-and-swap loop. The first read is itself a
// CAS (expected == desired), because two 64-bit loads could tear and make a worse pair look better.
__device__ inline void atomic_pick_wide(reduce_op op, wide_word* w, wide_word v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap();  // 128-bit atomicCAS needs sm_90
#else
    auto better = [op](wide_word a, wide_word b) {  // does a beat b?
        const bool less = a.key != b.key ? a.key < b.key : a.slot < b.slot;
        const bool greater = a.key != b.key ? a.key > b.key : a.slot > b.slot;
        return op == reduce_op::max ? greater : less;
    };
    const wide_word guess = identity_word<wide_word>(op);
    wide_word cur = atomicCAS(w, guess, guess);
    while (better(v, cur)) {
        const wide_word seen = atomicCAS(w, cur, v);
        if (seen == cur) return;
        cur = seen;
    }
#endif
}
}  // namespace detail

// packed_atomic: words[s] starts at identity_word(op); see unpack_packed for the answer.
template <mapping M, reduce_op Op, nan_policy N>
__global__ void packed_arg_kernel(batch<typename M::format::storage> b, policy requested,
                                  packed_word_t<typename M::format>* words) {
    constexpr reduce_op op = Op;
    const policy p{N, requested.zero, requested.ties};
    using F = typename M::format;
    using S = typename F::storage;
    using R = keyed_reducer<M>;
    const std::uint64_t begin = b.offsets[blockIdx.y];
    if constexpr (F::width <= 32) {
        unsigned long long local = identity_key<unsigned long long>(op);
        detail::for_each_element(b.xs, begin, b.offsets[blockIdx.y + 1], [&](std::uint64_t i, S x) {
            if (R::contributes(p, x)) local = detail::pick(op, local, (unsigned long long)R::pack(p, op, x, i - begin));
        });
        local = detail::warp_reduce(op, local);
        if (threadIdx.x % 32 == 0) detail::atomic_pick(op, &words[blockIdx.y], local);
    } else {
        using W = typename R::arg_word;
        typename R::template partial<W> local{};
        detail::for_each_element(b.xs, begin, b.offsets[blockIdx.y + 1], [&](std::uint64_t i, S x) {
            local = R::merge(op, local, R::lift_arg(p, op, x, i - begin));
        });
        local = detail::warp_merge<R, W>(op, local);
        if (threadIdx.x % 32 == 0 && local.seen) detail::atomic_pick_wide(op, &words[blockIdx.y], {local.word.key, local.word.slot});
    }
}

// The index a packed word means, or none. The identity word is "nothing seen" only under ignore:
// otherwise some element contributed, and an element can pack to the identity itself (the least
// key at index 0 with its slot not inverted), which decodes to that element.
template <mapping M>
__host__ __device__ inline std::uint64_t unpack_packed(policy p, reduce_op op, packed_word_t<typename M::format> word) {
    using W = packed_word_t<typename M::format>;
    if (p.nan == nan_policy::ignore && word == identity_word<W>(op)) return ~std::uint64_t(0);
    if constexpr (std::is_same_v<W, wide_word>) return keyed_reducer<M>::unpack_index(p, op, {word.key, word.slot});
    else return keyed_reducer<M>::unpack_index(p, op, word);
}

// two_level: indices[s] gets the answer (~0 for none). partials: gridDim.x arg words per array.
template <mapping M, reduce_op Op, nan_policy N>
__global__ void two_level_arg_kernel(batch<typename M::format::storage> b, policy requested,
                                     typename keyed_reducer<M>::arg_word* partials, int* partial_seen,
                                     unsigned* counters, std::uint64_t* indices) {
    constexpr reduce_op op = Op;
    const policy p{N, requested.zero, requested.ties};
    using S = typename M::format::storage;
    using R = keyed_reducer<M>;
    using W = typename R::arg_word;
    using P = typename R::template partial<W>;
    const unsigned s = blockIdx.y;
    const std::uint64_t begin = b.offsets[s];
    P local{};
    detail::for_each_element(b.xs, begin, b.offsets[s + 1], [&](std::uint64_t i, S x) {
        local = R::merge(op, local, R::lift_arg(p, op, x, i - begin));
    });
    local = detail::block_merge<R, W>(op, local);
    const std::size_t slot = std::size_t(s) * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0) partials[slot] = local.word, partial_seen[slot] = local.seen;
    if (!detail::last_block(&counters[s])) return;
    local = P{};
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) {
        const std::size_t k = std::size_t(s) * gridDim.x + i;
        // volatile: the other blocks' writes, made visible by their fences, not a stale L1 line
        W w;
        if constexpr (std::is_same_v<W, std::uint64_t>) w = *static_cast<volatile std::uint64_t*>(&partials[k]);
        else w = {static_cast<volatile W*>(&partials[k])->key, static_cast<volatile W*>(&partials[k])->slot};
        local = R::merge(op, local, P{w, *static_cast<volatile int*>(&partial_seen[k]) != 0});
    }
    local = detail::block_merge<R, W>(op, local);
    if (threadIdx.x == 0) indices[s] = local.seen ? R::unpack_index(p, op, local.word) : ~std::uint64_t(0);
}

}  // namespace flipcheck::gpu
