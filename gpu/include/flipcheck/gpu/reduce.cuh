// Float max/min and argmax/argmin on the GPU through order-preserving keys: the kernels users take
// away, and the ones gpu/tests verify against the oracle. Every element's contribution comes from
// core's keyed_reducer (key per NaN/zero policy, packing of the index), so the CPU reducers, the
// fuzzers and these kernels cannot drift apart.
//
// Value kernels (one key word per array; integer max/min over keys is the float reduction):
//   warp_aggregated  each thread folds its elements, the warp reduces, one global atomic per warp;
//   block_shared     as above into a shared-memory word, then one global atomic per block (the
//                    CUDA analogue of seed 000's groupshared InterlockedMax);
//   full_grid        no atomics on the result: each block writes its partial, the last block to
//                    finish (a ticket counter) reduces the partials. Deterministic by construction.
// Arg kernels:
//   packed_atomic    key << 32 | index slot in one 64-bit atomicMax/Min (formats up to 32 bits);
//                    binary64's (key, slot) in a 128-bit compare-and-swap loop (sm_90);
//   two_level        seed 002's shape (warp shuffles, shared memory, a final reduction of block
//                    results, here by the last block) on (key, slot) pairs: every format.
// The identity keys (0 for max, all ones for min) decode to NaNs under key_mapping (mapping.hpp), which
// is exactly the answer an all-NaN input must get under nan=ignore; arg forms carry "seen".
//
// Work comes as a batch: array s is xs[offsets[s], offsets[s+1]) and is reduced by the blocks with
// blockIdx.y == s (gridDim.x blocks each). One array is the batch {0, n}. Batches let the property
// tests put thousands of arrays through a reducer per second with one launch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "flipcheck/atomic.hpp"
#include "flipcheck/gpu/word.cuh"
#include "flipcheck/mapping.hpp"
#include "flipcheck/p3008.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/reducer.hpp"

namespace flipcheck::gpu {

enum class value_form : std::uint8_t { warp_aggregated, block_shared, full_grid };

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

namespace detail {

// Calls fn(index, bits) for the elements of [begin, end) that belong to this thread of the
// segment's blocks (a grid-stride loop), reading 16 bytes at a time where the array is aligned:
// the loads CUB uses, which is what lets these kernels match its bandwidth.
template <class S, class Fn>
__device__ __forceinline__ void for_each_element(const S* __restrict__ xs, std::uint64_t begin, std::uint64_t end, Fn fn) {
    constexpr unsigned per = 16 / sizeof(S);
    const std::uint64_t tid = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    const std::uint64_t misaligned = (reinterpret_cast<std::uintptr_t>(xs + begin) % 16) / sizeof(S);
    std::uint64_t body = misaligned == 0 ? begin : begin + (per - misaligned);
    if (body > end) body = end;
    for (std::uint64_t i = begin + tid; i < body; i += stride) fn(i, xs[i]);
    const std::uint64_t vectors = (end - body) / per;
    const uint4* v = reinterpret_cast<const uint4*>(xs + body);
    for (std::uint64_t j = tid; j < vectors; j += stride) {
        const uint4 q = v[j];
        S parts[per];
        std::memcpy(parts, &q, 16);
#pragma unroll
        for (unsigned k = 0; k < per; ++k) fn(body + j * per + k, parts[k]);
    }
    for (std::uint64_t i = body + vectors * per + tid; i < end; i += stride) fn(i, xs[i]);
}

template <class K>
__device__ __forceinline__ K pick(reduce_op op, K a, K b) {
    return op == reduce_op::max ? (a < b ? b : a) : (b < a ? b : a);
}

template <class K>
__device__ __forceinline__ K warp_reduce(reduce_op op, K v) {
    if constexpr (std::is_same_v<K, unsigned>) {
        return op == reduce_op::max ? __reduce_max_sync(0xffffffffu, v) : __reduce_min_sync(0xffffffffu, v);
    } else {
        for (int o = 16; o > 0; o /= 2) v = pick(op, v, __shfl_xor_sync(0xffffffffu, v, o));
        return v;
    }
}

template <class K>
__device__ __forceinline__ void atomic_pick(reduce_op op, K* word, K v) {
    op == reduce_op::max ? atomicMax(word, v) : atomicMin(word, v);
}

// Shuffles of keyed_reducer's partial results: a 64-bit word, or a (key, slot) pair for binary64.
template <class W>
__device__ __forceinline__ W shfl_down(W w, int offset) {
    if constexpr (std::is_same_v<W, std::uint64_t>) {
        return __shfl_down_sync(0xffffffffu, (unsigned long long)w, offset);
    } else {
        return {__shfl_down_sync(0xffffffffu, (unsigned long long)w.key, offset),
                __shfl_down_sync(0xffffffffu, (unsigned long long)w.slot, offset)};
    }
}
template <class R, class W>
__device__ __forceinline__ typename R::template partial<W> warp_merge(reduce_op op, typename R::template partial<W> p) {
    for (int o = 16; o > 0; o /= 2) {
        typename R::template partial<W> other{shfl_down(p.word, o), __shfl_down_sync(0xffffffffu, int(p.seen), o) != 0};
        p = R::merge(op, p, other);
    }
    return p;  // lane 0 holds the warp's result
}

// Block-wide merge of partials (any block size that is a multiple of 32, up to 1024): every
// thread calls it; thread 0 gets the block's result.
template <class R, class W>
__device__ typename R::template partial<W> block_merge(reduce_op op, typename R::template partial<W> p) {
    using P = typename R::template partial<W>;
    __shared__ W words[32];
    __shared__ int seen[32];
    const unsigned lane = threadIdx.x % 32, wid = threadIdx.x / 32, nw = (blockDim.x + 31) / 32;
    p = warp_merge<R, W>(op, p);
    if (lane == 0) words[wid] = p.word, seen[wid] = p.seen;
    __syncthreads();
    if (wid == 0) {
        p = lane < nw ? P{words[lane], seen[lane] != 0} : P{};
        p = warp_merge<R, W>(op, p);
    }
    __syncthreads();  // the arrays may be reused by the caller's next block_merge
    return p;
}

// The last block of segment s to finish: true in every thread of that block only. The writes of
// the partials are made visible before the ticket is taken (the CUDA threadFenceReduction idiom);
// the last block resets the counter so the buffers can be reused by the next launch.
__device__ inline bool last_block(unsigned* counter) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) *counter = 0;
    return last;
}

}  // namespace detail

// ---- value forms -----------------------------------------------------------------------------
// words[s]: the key word of array s (start it at identity_key(op) for the atomic forms; full_grid
// overwrites it). partials: gridDim.x per array; counters: one per array, zeroed once.
// Compiled per operation and NaN policy (launch_reduce picks), so that the per-element work of
// keyed_reducer folds to a handful of instructions; the zero policy stays a runtime argument.
template <mapping M, reduce_op Op, nan_policy N>
__global__ void reduce_kernel(batch<typename M::format::storage> b, policy requested, value_form form,
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
    if (form == value_form::warp_aggregated) {
        if (leader) detail::atomic_pick(op, &words[s], local);
        return;
    }
    if (form == value_form::block_shared) {
        __shared__ K block_word;
        if (threadIdx.x == 0) block_word = identity_key<K>(op);
        __syncthreads();
        if (leader) detail::atomic_pick(op, &block_word, local);
        __syncthreads();
        if (threadIdx.x == 0) detail::atomic_pick(op, &words[s], block_word);
        return;
    }
    // full_grid: keys with the identity are already a monoid, so a partial needs no "seen" flag.
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

// ---- launching: the runtime (operation, NaN policy) picks the compiled kernel -----------------
// Calls f.template operator()<Op, N>(). nan=undefined runs as total_order (the same keys).
template <class Fn>
void dispatch(reduce_op op, nan_policy nan, Fn&& f) {
    auto with_op = [&]<reduce_op Op>() {
        switch (nan) {
            case nan_policy::propagate: f.template operator()<Op, nan_policy::propagate>(); break;
            case nan_policy::ignore: f.template operator()<Op, nan_policy::ignore>(); break;
            default: f.template operator()<Op, nan_policy::total_order>(); break;
        }
    };
    if (op == reduce_op::max) with_op.template operator()<reduce_op::max>();
    else with_op.template operator()<reduce_op::min>();
}

// `count` arrays, `blocks` blocks of `threads` threads each (threads: a multiple of 32, <= 1024).
// words: start at identity_key(op) for the atomic forms. partials: blocks * count key words;
// counters: count words, zero before the first launch (the kernels leave them zero).
template <mapping M>
void launch_reduce(value_form form, policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count,
                   unsigned blocks, unsigned threads, key_word_t<typename M::format>* words,
                   key_word_t<typename M::format>* partials, unsigned* counters, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        reduce_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, form, words, partials, counters);
    });
}

// words: count words starting at identity_word<packed_word_t<F>>(op); unpack_packed reads them.
// binary64 takes a 128-bit atomicCAS: sm_90 or newer.
template <mapping M>
void launch_packed_arg(policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count, unsigned blocks,
                       unsigned threads, packed_word_t<typename M::format>* words, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        packed_arg_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, words);
    });
}

// partials/partial_seen: blocks * count each; counters: count, zero; indices: count answers.
template <mapping M>
void launch_two_level_arg(policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count, unsigned blocks,
                          unsigned threads, typename keyed_reducer<M>::arg_word* partials, int* partial_seen,
                          unsigned* counters, std::uint64_t* indices, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        two_level_arg_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, partials, partial_seen, counters, indices);
    });
}

}  // namespace flipcheck::gpu
