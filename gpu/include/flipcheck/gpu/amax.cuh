// flipcheck's amax and MX block scales on the GPU, and the GPU twins of the scaling mutants
// (core's scaling_mutants.hpp). Device code only; gpu/src/amax.cu launches and checks them, and
// bench/gpu_amax_bench.cu times them against CUB.
//
// The amax is amax.hpp's: the unsigned max of amax_key (|x|'s bits; a NaN keeps its place above
// +inf under propagate, keys as +0 under ignore), starting at 0. On a GPU that is one AND (and
// for ignore one compare) and one integer max per element, at every level:
//   warp         __reduce_max_sync over the lanes' keys (sm_80+: one instruction)
//   block        each warp's maximum into a shared word by atomicMax (shared memory)
//   grid         each block's maximum into the result word by atomicMax (global memory)
// 16-bit formats are reduced two at a time: a 32-bit word holds two keys side by side and
// __vmaxu2 takes the max of each half, so the sign clearing is one AND of 0x7fff7fff.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "flipcheck/amax.hpp"
#include "flipcheck/check/scales.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace flipcheck::gpu::amax_kernels {

// The keys of the 16-bit elements packed in word w, side by side, in one word.
template <class F, nan_policy P>
__device__ __forceinline__ std::uint32_t keys2(std::uint32_t w) {
    static_assert(F::width == 16);
    const std::uint32_t a = w & 0x7fff7fffu;
    if constexpr (P == nan_policy::ignore) {
        constexpr std::uint32_t inf2 = std::uint32_t(F::infinity) * 0x00010001u;
        return a & __vcmpleu2(a, inf2);  // a NaN half (above inf) becomes +0
    } else {
        return a;
    }
}

// The key max of one 32-bit word of elements (one binary32, or two 16-bit ones side by side).
template <class F, nan_policy P>
__device__ __forceinline__ std::uint32_t word_max(std::uint32_t m, std::uint32_t w) {
    if constexpr (F::width == 32) return max(m, std::uint32_t(amax_key<F>(P, w)));
    else return __vmaxu2(m, keys2<F, P>(w));
}
// A 32-bit word of side-by-side keys (or one 32-bit key) to the key max it holds.
template <class F>
__device__ __forceinline__ std::uint32_t fold_halves(std::uint32_t m) {
    if constexpr (F::width == 32) return m;
    else return max(m & 0xffffu, m >> 16);
}

// The block's threads' key maxima m into *out (which starts at 0, the identity) by atomicMax: each
// warp's by __reduce_max_sync, the block's through a shared word, one global atomic per block
// (none when the block's maximum is 0). Every thread of the block calls it, once.
__device__ __forceinline__ void block_max_into(std::uint32_t* __restrict__ out, std::uint32_t m) {
    __shared__ std::uint32_t block_max;
    if (threadIdx.x == 0) block_max = 0;
    __syncthreads();
    m = __reduce_max_sync(0xffffffffu, m);
    if (threadIdx.x % 32 == 0) atomicMax(&block_max, m);
    __syncthreads();
    if (threadIdx.x == 0 && block_max != 0) atomicMax(out, block_max);
}

// amax of x[0, n) into *out (which starts at 0, the identity), the share of block `block` of
// `blocks`: amax_grid's body. Any alignment, any n: elements before the first 16-byte boundary
// and after the last whole vector are read one by one.
template <class F, nan_policy P, int Unroll>
__device__ __forceinline__ void amax_grid_share(const typename F::storage* __restrict__ x, std::size_t n,
                                                std::uint32_t* __restrict__ out, unsigned block, unsigned blocks) {
    using S = typename F::storage;
    constexpr int per_vec = 16 / int(sizeof(S));
    const std::size_t tid = std::size_t(block) * blockDim.x + threadIdx.x, threads = std::size_t(blocks) * blockDim.x;
    const std::size_t misalign = (reinterpret_cast<std::uintptr_t>(x) / sizeof(S)) % per_vec;
    const std::size_t head = misalign == 0 ? 0 : std::size_t(per_vec) - misalign < n ? std::size_t(per_vec) - misalign : n;
    const std::size_t vectors = (n - head) / per_vec;
    const uint4* body = reinterpret_cast<const uint4*>(x + head);

    std::uint32_t m = 0;
    std::size_t i = tid;
    for (; i + (Unroll - 1) * threads < vectors; i += Unroll * threads) {
        uint4 v[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) v[u] = __ldg(body + i + u * threads);
#pragma unroll
        for (int u = 0; u < Unroll; ++u) m = word_max<F, P>(word_max<F, P>(word_max<F, P>(word_max<F, P>(m, v[u].x), v[u].y), v[u].z), v[u].w);
    }
    for (; i < vectors; i += threads) {
        const uint4 v = __ldg(body + i);
        m = word_max<F, P>(word_max<F, P>(word_max<F, P>(word_max<F, P>(m, v.x), v.y), v.z), v.w);
    }
    m = fold_halves<F>(m);
    const std::size_t tail = head + vectors * per_vec;
    if (tid < head) m = max(m, std::uint32_t(amax_key<F>(P, x[tid])));
    if (tid < n - tail) m = max(m, std::uint32_t(amax_key<F>(P, x[tail + tid])));
    block_max_into(out, m);
}

// flipcheck's amax over a whole grid: x[0, n) into *out (which starts at 0, the identity).
template <class F, nan_policy P, int Unroll = 4>
__global__ void __launch_bounds__(256) amax_grid(const typename F::storage* __restrict__ x, std::size_t n,
                                                 std::uint32_t* __restrict__ out) {
    amax_grid_share<F, P, Unroll>(x, n, out, blockIdx.x, gridDim.x);
}

// The same code over arrays first to first + gridDim.y of a batch (array a is x[offsets[a],
// offsets[a+1])), each with a grid of gridDim.x blocks of its own: the checks run thousands of
// arrays through amax_grid's body in one launch instead of one launch each (4813 launches a
// check, 70-90 ms of the GPU main job each on an H200).
template <class F, nan_policy P, int Unroll = 4>
__global__ void __launch_bounds__(256) amax_grid_each(const typename F::storage* __restrict__ x, const std::uint64_t* __restrict__ offsets,
                                                      std::size_t first, std::uint32_t* __restrict__ out) {
    const std::size_t a = first + blockIdx.y;
    amax_grid_share<F, P, Unroll>(x + offsets[a], offsets[a + 1] - offsets[a], out + a, blockIdx.x, gridDim.x);
}

// Arrays of a batch (array a is x[offsets[a], offsets[a+1])), one warp each: the warp form.
template <class F, nan_policy P>
__global__ void amax_warp(const typename F::storage* x, const std::uint64_t* offsets, std::size_t arrays, std::uint32_t* out) {
    const std::size_t a = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (a >= arrays) return;  // whole warps leave together: blockDim is a multiple of 32
    std::uint32_t m = 0;
    for (std::uint64_t i = offsets[a] + threadIdx.x % 32; i < offsets[a + 1]; i += 32) m = max(m, std::uint32_t(amax_key<F>(P, x[i])));
    m = __reduce_max_sync(0xffffffffu, m);
    if (threadIdx.x % 32 == 0) out[a] = m;
}

// One block each, through a shared word: the block form.
template <class F, nan_policy P>
__global__ void amax_block(const typename F::storage* x, const std::uint64_t* offsets, std::uint32_t* out) {
    __shared__ std::uint32_t word;
    if (threadIdx.x == 0) word = 0;
    __syncthreads();
    std::uint32_t m = 0;
    for (std::uint64_t i = offsets[blockIdx.x] + threadIdx.x; i < offsets[blockIdx.x + 1]; i += blockDim.x)
        m = max(m, std::uint32_t(amax_key<F>(P, x[i])));
    atomicMax(&word, m);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = word;
}

// The scale kernels' shared loop: the maximum key of every block of `Block` elements of x[0, n)
// and the tensor's, in one read of x. A group of G lanes holds a block (G = Block / elements per
// 16-byte vector); its maximum is found with shuffles inside the group and handed to
// `emit(block, key)`; the tensor's maximum key goes into *tensor_amax. The loop is amax_grid's (a
// grid-stride loop, `Unroll` independent 16-byte loads issued before any is waited on, none
// tested against n) for as long as every load of every lane of the warp is of a whole vector: the
// test is on the warp's last lane, so a warp stays together for its shuffles. The rest is read one
// vector per lane, with bounds (past n: +0, amax's identity). x must be 16-byte aligned.
// Gather: the emit runs on the group's first lane, one group of the warp's at a time, so a costly
// emit (NVFP4's division and e4m3fn rounding) ran 32 / G times a load; gathered, a round's
// Unroll x 32 / G block maxima move to one lane each first and the emit runs once per 32 blocks:
// NVFP4 0.77x -> 0.92x of the read ceiling on an H200 (on an H100, whose slower memory hid the
// emit, 0.94x either way); MX's cheap emit is no faster gathered (bench/RESULTS.md, issue 31). The bench launches many waves of short blocks (16 x SMs x 8):
// these kernels' registers fit fewer blocks per SM than amax_grid's, and SMs x 8 left a second,
// partial wave; forcing amax_grid's occupancy (32 registers) measured slower.
template <class F, nan_policy P, int Block, int Unroll, bool Gather, class Emit>
__device__ __forceinline__ void block_maxima(const typename F::storage* __restrict__ x, std::size_t n,
                                             std::uint32_t* __restrict__ tensor_amax, Emit emit) {
    constexpr int per_vec = 16 / int(sizeof(typename F::storage)), group = Block / per_vec, groups = 32 / group;
    static_assert(Block % per_vec == 0 && group <= 32 && 32 % group == 0, "a block is whole vectors inside a warp");
    const std::size_t blocks = (n + Block - 1) / Block, vectors = blocks * group, whole = n / per_vec;
    const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, threads = std::size_t(gridDim.x) * blockDim.x;
    const unsigned lane = threadIdx.x % 32;
    const uint4* __restrict__ body = reinterpret_cast<const uint4*>(x);
    std::uint32_t all = 0;
    auto key_of = [](const uint4& w) {
        return fold_halves<F>(word_max<F, P>(word_max<F, P>(word_max<F, P>(word_max<F, P>(0u, w.x), w.y), w.z), w.w));
    };
    auto group_max = [&](std::uint32_t m) {
#pragma unroll
        for (int d = group / 2; d > 0; d /= 2) m = max(m, __shfl_xor_sync(0xffffffffu, m, d));
        all = max(all, m);
        return m;
    };
    // Vector v's key m (this lane's) joins its group's; the group's first lane emits the block's.
    auto finish = [&](std::uint32_t m, std::size_t v) {
        m = group_max(m);
        if (lane % group == 0 && v < vectors) emit(v / group, m);
    };
    // A whole round: loads w of vectors v + u * threads. Gathered, the round's U x groups block
    // maxima of the warp move to one lane each, so that the emit runs once a round per 32 blocks.
    auto round = [&](const uint4 (&w)[Unroll], std::size_t v) {
        if constexpr (!Gather) {
#pragma unroll
            for (int u = 0; u < Unroll; ++u) finish(key_of(w[u]), v + u * threads);
        } else {
            std::uint32_t m[Unroll];
#pragma unroll
            for (int u = 0; u < Unroll; ++u) m[u] = group_max(key_of(w[u]));
            const std::size_t first = v - lane;  // the warp's first vector of load 0
#pragma unroll
            for (int pass = 0; pass < (Unroll * groups + 31) / 32; ++pass) {
                const unsigned j = pass * 32 + lane, ju = j / groups, jg = j % groups;
                std::uint32_t mine = 0;
#pragma unroll
                for (int u = 0; u < Unroll; ++u) {
                    const std::uint32_t t = __shfl_sync(0xffffffffu, m[u], jg * group);
                    if (ju == unsigned(u)) mine = t;
                }
                if (ju < unsigned(Unroll)) emit((first + ju * threads) / group + jg, mine);
            }
        }
    };
    auto whole_round = [&](std::size_t v) { return v - lane + 31 + std::size_t(Unroll - 1) * threads < whole; };
    std::size_t v = tid;
    for (; whole_round(v); v += Unroll * threads) {
        uint4 w[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) w[u] = __ldg(body + v + u * threads);
        round(w, v);
    }
    for (; v - lane < vectors; v += threads) {
        std::uint32_t m = 0;
        if (v < whole) m = key_of(__ldg(body + v));
        else
            for (std::size_t i = v * per_vec; i < n && i < (v + 1) * per_vec; ++i) m = max(m, std::uint32_t(amax_key<F>(P, x[i])));
        finish(m, v);
    }
    block_max_into(tensor_amax, all);
}

// The fused MX kernel: the e8m0 scale of every block of 32 elements (amax then mx_scale_bits, as
// scale.hpp's mx_block_scale) and the tensor's amax, in one read of x.
template <class F, class E, nan_policy P, int Unroll = 4>
__global__ void __launch_bounds__(256) mx_scales(const typename F::storage* __restrict__ x, std::size_t n,
                                                 std::uint8_t* __restrict__ scales, std::uint32_t* __restrict__ tensor_amax) {
    using S = typename F::storage;
    block_maxima<F, P, mx_block, Unroll, false>(x, n, tensor_amax, [&](std::size_t b, std::uint32_t key) {
        scales[b] = mx_scale_bits<E>(bit_cast<std::uint32_t>(float(F::to_value(S(key)))));
    });
}

// The fused NVFP4 kernel: the e4m3fn scale of every block of 16 elements under the global scale
// of a given tensor amax (scale.hpp's nvfp4_block_scale: block amax / 6 * (448 * 6 / tensor
// amax), satfinite, nearest-even), in one read of x, and the tensor's own amax into *amax_out.
// The global scale needs the whole tensor's amax before any block's scale, so a kernel that
// reads x once takes it as input: the amax of an earlier pass (amax_grid) or an earlier step (a
// delayed scale), as NVFP4 recipes do; the bench times amax_grid then this too. Scale is the
// block scale (scale.hpp's nvfp4_block_scale, or a mutant's).
template <class F, nan_policy P, class Scale = nvfp4_block_scale, int Unroll = 4>
__global__ void __launch_bounds__(256) nvfp4_scales(const typename F::storage* __restrict__ x, std::size_t n,
                                                    const std::uint32_t* __restrict__ tensor_amax_key,
                                                    std::uint8_t* __restrict__ scales, std::uint32_t* __restrict__ amax_out) {
    using S = typename F::storage;
    const float global = ::flipcheck::tensor_scale(nvfp4_max, float(F::to_value(S(*tensor_amax_key))));  // the built-in
    block_maxima<F, P, nvfp4_block, Unroll, true>(x, n, amax_out, [&](std::size_t b, std::uint32_t key) {
        scales[b] = Scale::block_scale(float(F::to_value(S(key))), global);
    });
}

// ---- the GPU twins of the scaling mutants: one block per array of a batch -----------------------

// pytorch#119320: `v >= 0 ? atomicMax((int*)...) : atomicMin((unsigned*)...)` for the max, and
// its mirror for the min; out[2a] and out[2a + 1] start at -inf and +inf; amax = max(|hi|, |lo|).
template <class F = binary32>
__global__ void ge0_split(const std::uint32_t* x, const std::uint64_t* offsets, std::uint32_t* words) {
    std::uint32_t* hi = words + 2 * blockIdx.x;
    std::uint32_t* lo = hi + 1;
    for (std::uint64_t i = offsets[blockIdx.x] + threadIdx.x; i < offsets[blockIdx.x + 1]; i += blockDim.x) {
        const float v = __uint_as_float(x[i]);
        if (v >= 0) {
            atomicMax(reinterpret_cast<int*>(hi), int(x[i]));
            atomicMin(reinterpret_cast<int*>(lo), int(x[i]));
        } else {
            atomicMin(hi, x[i]);
            atomicMax(lo, x[i]);
        }
    }
}
template <class F = binary32>
__global__ void ge0_split_finish(std::uint32_t* words, std::size_t arrays, const std::uint64_t* offsets, std::uint32_t* out) {
    const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (a >= arrays) return;
    const float h = fabsf(__uint_as_float(words[2 * a])), l = fabsf(__uint_as_float(words[2 * a + 1]));
    out[a] = offsets[a + 1] == offsets[a] ? 0u : __float_as_uint(h < l ? l : h);
}

// An assert(value >= 0) compiled out: atomicMax on the unsigned bits of `v < 0 ? -v : v`.
template <class F = binary32>
__global__ void unguarded_unsigned(const std::uint32_t* x, const std::uint64_t* offsets, std::uint32_t* out) {
    for (std::uint64_t i = offsets[blockIdx.x] + threadIdx.x; i < offsets[blockIdx.x + 1]; i += blockDim.x) {
        const float v = __uint_as_float(x[i]);
        atomicMax(out + blockIdx.x, __float_as_uint(v < 0 ? -v : v));
    }
}

// fmaxf(acc, fabsf(x)) in each thread and across the block (shared memory), then the key atomic.
template <class F = binary32>
__global__ void fmaxf_block(const std::uint32_t* x, const std::uint64_t* offsets, std::uint32_t* out) {
    __shared__ float partial[256];
    float acc = 0.0f;
    for (std::uint64_t i = offsets[blockIdx.x] + threadIdx.x; i < offsets[blockIdx.x + 1]; i += blockDim.x)
        acc = fmaxf(acc, fabsf(__uint_as_float(x[i])));
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicMax(out + blockIdx.x, std::uint32_t(amax_key<binary32>(nan_policy::propagate, __float_as_uint(partial[0]))));
}

// TransformerEngine#3550: __hmax2(acc, __habs2(pair)) over bf16x2, then __hmax2 across the block.
// The array's elements are read in pairs (a lone last element pairs with +0).
template <class F = bfloat16>
__global__ void bf16x2_hmax2(const std::uint16_t* x, const std::uint64_t* offsets, std::uint32_t* out) {
    __shared__ __nv_bfloat162 partial[256];
    const __nv_bfloat16 zero = __ushort_as_bfloat16(0);
    __nv_bfloat162 acc{zero, zero};
    const std::uint64_t begin = offsets[blockIdx.x], end = offsets[blockIdx.x + 1];
    for (std::uint64_t i = begin + 2 * threadIdx.x; i < end; i += 2 * blockDim.x) {
        const __nv_bfloat162 pair{__ushort_as_bfloat16(x[i]), i + 1 < end ? __ushort_as_bfloat16(x[i + 1]) : zero};
        acc = __hmax2(acc, __habs2(pair));
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] = __hmax2(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = __bfloat16_as_ushort(__hmax(partial[0].x, partial[0].y));
}

// ---- exhaustive checks ----------------------------------------------------------------------------

// Every pair (a, b) of 16-bit patterns, as one word b << 16 | a: the production path's step
// (keys2, then the halves folded) against the oracle's amax of the two. `mutant` runs the
// bf16x2 __hmax2 abs-max on the same pair instead. Counts disagreements; keeps the lowest.
template <class F, nan_policy P, bool Mutant>
__device__ __forceinline__ typename F::storage pair_amax(std::uint32_t w) {
    if constexpr (Mutant) {
        const __nv_bfloat162 v{__ushort_as_bfloat16(std::uint16_t(w & 0xffffu)), __ushort_as_bfloat16(std::uint16_t(w >> 16))};
        const __nv_bfloat162 z{__ushort_as_bfloat16(0), __ushort_as_bfloat16(0)};
        const __nv_bfloat162 m = __hmax2(z, __habs2(v));
        return __bfloat16_as_ushort(__hmax(m.x, m.y));
    } else {
        return typename F::storage(fold_halves<F>(__vmaxu2(0u, keys2<F, P>(w))));
    }
}
// The GPU's own answer for one pair, for the report.
template <class F, nan_policy P, bool Mutant>
__global__ void one_pair(std::uint32_t w, std::uint32_t* got) {
    *got = pair_amax<F, P, Mutant>(w);
}
template <class F, nan_policy P, bool Mutant>
__global__ void every_pair(std::uint64_t begin, std::uint64_t count, unsigned long long* wrong, unsigned long long* first) {
    using S = typename F::storage;
    unsigned long long bad = 0, low = ~0ull;
    for (std::uint64_t k = begin + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < begin + count;
         k += std::uint64_t(gridDim.x) * blockDim.x) {
        const std::uint32_t w = std::uint32_t(k);
        const S pair[2] = {S(w & 0xffffu), S(w >> 16)};
        const S got = pair_amax<F, P, Mutant>(w);
        // The oracle's amax of two, in its own words (oracle::amax's loop, unrolled).
        const float va = F::to_value(pair[0]), vb = F::to_value(pair[1]);
        const bool na = va != va, nb = vb != vb;
        S want = 0;
        float best = 0.0f;
        if (!na && fabsf(va) > best) want = S(pair[0] & ~F::sign_mask), best = fabsf(va);
        if (!nb && fabsf(vb) > best) want = S(pair[1] & ~F::sign_mask);
        const bool nan_result = P == nan_policy::propagate && (na || nb);
        const bool ok = nan_result ? F::is_nan_bits(got) : got == want;
        if (!ok) {
            ++bad;
            low = min(low, (unsigned long long)k);
        }
    }
    if (bad) {
        atomicAdd(wrong, bad);
        atomicMin(first, low);
    }
}

// Every binary32 amax pattern of [begin, begin + count): `scale(bits)` against the oracle's
// recipe_scale under the recipe the subject declares (OCP's floor by default) or tensor_scale
// (binary64 division). Negative patterns other than -0 and the NaNs are not amaxes and are skipped.
template <class E, class Subject, bool Tensor>
__global__ void every_amax(std::uint64_t begin, std::uint64_t count, unsigned long long* checked, unsigned long long* wrong,
                           unsigned long long* first) {
    unsigned long long n = 0, bad = 0, low = ~0ull;
    for (std::uint64_t k = begin + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < begin + count;
         k += std::uint64_t(gridDim.x) * blockDim.x) {
        const std::uint32_t a = std::uint32_t(k);
        if ((a >> 31) && a != 0x80000000u && (a & 0x7fffffffu) <= 0x7f800000u) continue;
        ++n;
        bool ok;
        if constexpr (Tensor) {
            const float got = Subject::tensor_scale(__uint_as_float(a)), want = oracle::tensor_scale<E>(__uint_as_float(a));
            ok = __float_as_uint(got) == __float_as_uint(want) || (got != got && want != want);
        } else {
            ok = Subject::scale(a) == oracle::recipe_scale(declared_recipe<Subject>(), E::to_value(E::max_finite), __uint_as_float(a));
        }
        if (!ok) {
            ++bad;
            low = min(low, (unsigned long long)k);
        }
    }
    atomicAdd(checked, n);
    if (bad) {
        atomicAdd(wrong, bad);
        atomicMin(first, low);
    }
}

}  // namespace flipcheck::gpu::amax_kernels
