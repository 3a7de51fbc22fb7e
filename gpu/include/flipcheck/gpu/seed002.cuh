// Seed 002 ("Finding Maximum Value and Index with CUDA warp-reduction") on the device, as the
// article writes it, and fixed. The kernels' bodies are the article's; flipcheck adds only the
// batch (array blockIdx.y of the batch, its results at blockIdx.y * gridDim.x) and takes the
// initial value as a parameter because the article ships two: its walkthrough uses
// std::numeric_limits<float>::lowest() in ArgMaxKernel and FLT_MIN in FindMaxOfMax; its full code
// snippet defines FLT_LOWEST = -std::numeric_limits<float>::lowest(), which is +FLT_MAX, in both.
// The host runs ArgMaxKernel on grid = SM count, block = 32 * 32, then FindMaxOfMax on one block.
#pragma once
#include <cfloat>
#include <cstdint>
#include <limits>

namespace flipcheck::gpu::seed002 {

constexpr int WARP_SIZE = 32;

struct ArgMaxResult {
    float value;
    uint32_t index;
};

// The initial values of the two kernels.
struct walkthrough {
    static constexpr float first = std::numeric_limits<float>::lowest();
    static constexpr float final_pass = FLT_MIN;
};
struct full_code {
    static constexpr float first = -std::numeric_limits<float>::lowest();
    static constexpr float final_pass = -std::numeric_limits<float>::lowest();
};

__device__ __inline__ ArgMaxResult WarpReduce(ArgMaxResult local) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        float otherValue = __shfl_down_sync(0xFFFFFFFF, local.value, offset);
        uint32_t otherIndex = __shfl_down_sync(0xFFFFFFFF, local.index, offset);
        if (otherValue > local.value) {
            local.index = otherIndex;
            local.value = otherValue;
        }
    }
    return local;
}

template <class Init>
__global__ void ArgMaxKernel(ArgMaxResult* __restrict__ d_blockWiseResult, const float* __restrict__ d_inputArray,
                             const std::uint64_t* __restrict__ offsets) {
    // flipcheck's batch: this block's array and its slice of the block-wise results.
    d_inputArray += offsets[blockIdx.y];
    const uint32_t nElements = uint32_t(offsets[blockIdx.y + 1] - offsets[blockIdx.y]);
    d_blockWiseResult += blockIdx.y * gridDim.x;

    ArgMaxResult local{.value = Init::first, .index = 0};

    const uint32_t idxStart = threadIdx.x + blockIdx.x * blockDim.x;
    const uint32_t stride = blockDim.x * gridDim.x;

    for (uint32_t idx = idxStart; idx < nElements; idx += stride) {
        const float value = d_inputArray[idx];
        if (value > local.value) {
            local = {.value = value, .index = idx};
        }
    }

    const int lid = threadIdx.x % WARP_SIZE;
    const int wid = threadIdx.x / WARP_SIZE;
    const int nw = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;

    extern __shared__ ArgMaxResult s_argMax[];

    local = WarpReduce(local);
    if (lid == 0) {
        s_argMax[wid] = local;
    }
    __syncthreads();

    if (wid == 0) {
        local = (lid < nw) ? s_argMax[lid] : ArgMaxResult{.value = Init::first, .index = 0};
        local = WarpReduce(local);
        if (lid == 0) {
            d_blockWiseResult[blockIdx.x] = local;
        }
    }
}

// launched with grid size == 1 (per array of the batch: gridDim.x == 1, blockIdx.y = the array)
template <class Init>
__global__ void FindMaxOfMax(ArgMaxResult* __restrict__ d_blockWiseResult, const uint32_t nElements) {
    d_blockWiseResult += blockIdx.y * nElements;  // flipcheck's batch
    const uint32_t idxStart = threadIdx.x;
    const uint32_t stride = blockDim.x;

    ArgMaxResult local{.value = Init::final_pass, .index = 0};

    for (uint32_t idx = idxStart; idx < nElements; idx += stride) {
        ArgMaxResult curr = d_blockWiseResult[idx];
        if (curr.value > local.value) local = curr;
    }

    const int lid = threadIdx.x % WARP_SIZE;
    const int wid = threadIdx.x / WARP_SIZE;
    const int nw = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;

    extern __shared__ ArgMaxResult s_argMax[];

    local = WarpReduce(local);
    if (lid == 0) {
        s_argMax[wid] = local;
    }
    __syncthreads();

    if (wid == 0) {
        local = (lid < nw) ? s_argMax[lid] : ArgMaxResult{.value = Init::final_pass, .index = 0};
        local = WarpReduce(local);
        if (lid == 0) {
            d_blockWiseResult[0] = local;
        }
    }
}

// ---- fixed: the same two kernels with three changes ----------------------------------------
//  1. "nothing yet" is index ~0u, which every element beats: no initial value can be wrong;
//  2. equal values go to the lower index (in the strided walk, across lanes and across blocks);
//  3. a NaN never replaces anything.
// It claims nan=ignore, zero=equal (float ==), ties=lowest_index; an all-NaN array gives ~0u.
__device__ __forceinline__ bool Better(ArgMaxResult x, ArgMaxResult y) {
    if (x.index == ~0u) return false;
    if (y.index == ~0u) return true;
    return x.value > y.value || (x.value == y.value && x.index < y.index);
}

__device__ __forceinline__ ArgMaxResult WarpReduceFixed(ArgMaxResult local) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        const ArgMaxResult other{__shfl_down_sync(0xFFFFFFFF, local.value, offset),
                                 __shfl_down_sync(0xFFFFFFFF, local.index, offset)};
        if (Better(other, local)) local = other;
    }
    return local;
}

__device__ inline ArgMaxResult BlockReduceFixed(ArgMaxResult local, ArgMaxResult* s_argMax) {
    const int lid = threadIdx.x % WARP_SIZE, wid = threadIdx.x / WARP_SIZE;
    const int nw = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
    local = WarpReduceFixed(local);
    if (lid == 0) s_argMax[wid] = local;
    __syncthreads();
    if (wid == 0) local = WarpReduceFixed(lid < nw ? s_argMax[lid] : ArgMaxResult{0.0f, ~0u});
    return local;
}

__global__ void ArgMaxKernelFixed(ArgMaxResult* __restrict__ d_blockWiseResult, const float* __restrict__ d_inputArray,
                                  const std::uint64_t* __restrict__ offsets) {
    d_inputArray += offsets[blockIdx.y];
    const uint32_t nElements = uint32_t(offsets[blockIdx.y + 1] - offsets[blockIdx.y]);
    d_blockWiseResult += blockIdx.y * gridDim.x;
    ArgMaxResult local{0.0f, ~0u};
    for (uint32_t idx = threadIdx.x + blockIdx.x * blockDim.x; idx < nElements; idx += blockDim.x * gridDim.x) {
        const ArgMaxResult cand{d_inputArray[idx], idx};
        if (cand.value == cand.value && Better(cand, local)) local = cand;
    }
    extern __shared__ ArgMaxResult s_argMax[];
    local = BlockReduceFixed(local, s_argMax);
    if (threadIdx.x == 0) d_blockWiseResult[blockIdx.x] = local;
}

__global__ void FindMaxOfMaxFixed(ArgMaxResult* __restrict__ d_blockWiseResult, const uint32_t nElements) {
    d_blockWiseResult += blockIdx.y * nElements;
    ArgMaxResult local{0.0f, ~0u};
    for (uint32_t idx = threadIdx.x; idx < nElements; idx += blockDim.x)
        if (Better(d_blockWiseResult[idx], local)) local = d_blockWiseResult[idx];
    extern __shared__ ArgMaxResult s_argMax[];
    local = BlockReduceFixed(local, s_argMax);
    __syncthreads();  // every thread has read its block results before thread 0 overwrites the first
    if (threadIdx.x == 0) d_blockWiseResult[0] = local;
}

}  // namespace flipcheck::gpu::seed002
