// The reductions' warp layer: one warp's 32 keys or keyed partials to one (shuffles, or sm_80's
// __reduce_*_sync on 32-bit keys). Device only; block.cuh builds on it.
#pragma once
#include <type_traits>

#include "flipcheck/policy.hpp"

namespace flipcheck::gpu::detail {

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

}  // namespace flipcheck::gpu::detail
