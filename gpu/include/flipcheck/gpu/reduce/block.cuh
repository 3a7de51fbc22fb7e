// The reductions' block layer: a thread's share of a segment (16-byte loads, grid-stride), one
// block's partials merged, the key word's atomic max/min, and the last block of a segment to finish.
// Device only; kernel.cuh builds on it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "flipcheck/gpu/reduce/warp.cuh"
#include "flipcheck/policy.hpp"

namespace flipcheck::gpu::detail {

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
__device__ __forceinline__ void atomic_pick(reduce_op op, K* word, K v) {
    op == reduce_op::max ? atomicMax(word, v) : atomicMin(word, v);
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

}  // namespace flipcheck::gpu::detail
