#include "subjects.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "flipcheck/atomic.hpp"
#include "flipcheck/mapping.hpp"

namespace flipcheck::gpu {
namespace {

using F = binary32;
using M = sign_flip_branchless<F>;
using R = keyed_reducer<M>;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

// core/atomic.hpp's Word on a 32-bit word in global or shared memory.
struct cuda_word {
    unsigned* p;
    __device__ unsigned load() const { return *static_cast<volatile unsigned*>(p); }
    __device__ unsigned fetch_max(unsigned v) { return atomicMax(p, v); }
    __device__ unsigned fetch_min(unsigned v) { return atomicMin(p, v); }
    __device__ unsigned fetch_max_signed(unsigned v) { return unsigned(atomicMax(reinterpret_cast<int*>(p), int(v))); }
    __device__ unsigned fetch_min_signed(unsigned v) { return unsigned(atomicMin(reinterpret_cast<int*>(p), int(v))); }
    __device__ unsigned cas(unsigned expected, unsigned desired) { return atomicCAS(p, expected, desired); }
};

__device__ unsigned combine(reduce_op op, unsigned a, unsigned b) { return op == reduce_op::max ? max(a, b) : min(a, b); }

// Each thread folds its elements' keys, the warp reduces them, one lane per warp updates the word:
// in global memory (warp-aggregated global atomics) or in shared memory, then one global atomic
// per block (block-level shared-memory atomics, the CUDA analogue of seed 000's groupshared).
__global__ void mapped_kernel(const std::uint32_t* xs, std::size_t n, policy p, reduce_op op, bool shared_first,
                              unsigned* out) {
    __shared__ unsigned block_word;
    const unsigned identity = op == reduce_op::max ? 0u : ~0u;
    if (threadIdx.x == 0) block_word = identity;
    __syncthreads();
    unsigned local = identity;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        if (R::contributes(p, xs[i])) local = combine(op, local, R::key(p, op, xs[i]));
    const unsigned warp = op == reduce_op::max ? __reduce_max_sync(0xffffffffu, local) : __reduce_min_sync(0xffffffffu, local);
    cuda_word w{shared_first ? &block_word : out};
    if ((threadIdx.x & 31u) == 0) op == reduce_op::max ? w.fetch_max(warp) : w.fetch_min(warp);
    if (!shared_first) return;
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda_word g{out};
        op == reduce_op::max ? g.fetch_max(block_word) : g.fetch_min(block_word);
    }
}

// One atomic update per element through a core/atomic.hpp strategy.
template <class Strategy>
__global__ void per_element_kernel(const std::uint32_t* xs, std::size_t n, unsigned* out) {
    cuda_word w{out};
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        Strategy::update(w, xs[i]);
}

// Seed 003, as written (float_min = -3.402e+38; no atomics; the race is the point).
__device__ const float float_min = -3.402e+38f;
template <class Shared>
__global__ void yamr_kernel(float* d_data) {
    int i = threadIdx.x;
    __shared__ Shared max_value;
    if (i == 0) max_value = float_min;
    float v = d_data[i];
    __syncthreads();
    while (max_value < v) max_value = v;
    __syncthreads();
    if (i == 0) d_data[0] = max_value;
}

struct device_array {
    std::uint32_t* p = nullptr;
    explicit device_array(const std::vector<std::uint32_t>& xs) {
        check(cudaMalloc(&p, xs.size() * 4), "cudaMalloc");
        check(cudaMemcpy(p, xs.data(), xs.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    ~device_array() { cudaFree(p); }
};

}  // namespace

std::uint32_t atomic_reduce(atomic_form form, nan_policy np, reduce_op op, const std::vector<std::uint32_t>& xs, unsigned blocks) {
    if (xs.empty()) throw std::invalid_argument("atomic_reduce needs at least one element");
    device_array in(xs);
    unsigned* word = nullptr;
    check(cudaMalloc(&word, 4), "cudaMalloc");
    const policy p{np, zero_policy::ordered, tie_policy::any};
    unsigned init = 0;
    switch (form) {
        case atomic_form::warp_aggregated_global:
        case atomic_form::block_shared: init = op == reduce_op::max ? 0u : ~0u; break;
        case atomic_form::per_element_signbit:
            init = op == reduce_op::max ? atomic::signbit_dispatch<F, reduce_op::max>::init() : atomic::signbit_dispatch<F, reduce_op::min>::init();
            break;
        case atomic_form::per_element_cas: init = atomic::cas_loop<F, reduce_op::max>::init(); break;
    }
    check(cudaMemcpy(word, &init, 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    switch (form) {
        case atomic_form::warp_aggregated_global: mapped_kernel<<<blocks, 256>>>(in.p, xs.size(), p, op, false, word); break;
        case atomic_form::block_shared: mapped_kernel<<<blocks, 256>>>(in.p, xs.size(), p, op, true, word); break;
        case atomic_form::per_element_signbit:
            if (op == reduce_op::max) per_element_kernel<atomic::signbit_dispatch<F, reduce_op::max>><<<blocks, 256>>>(in.p, xs.size(), word);
            else per_element_kernel<atomic::signbit_dispatch<F, reduce_op::min>><<<blocks, 256>>>(in.p, xs.size(), word);
            break;
        case atomic_form::per_element_cas:
            if (op == reduce_op::max) per_element_kernel<atomic::cas_loop<F, reduce_op::max>><<<blocks, 256>>>(in.p, xs.size(), word);
            else per_element_kernel<atomic::cas_loop<F, reduce_op::min>><<<blocks, 256>>>(in.p, xs.size(), word);
            break;
    }
    check(cudaGetLastError(), "launch");
    unsigned result = 0;
    check(cudaMemcpy(&result, word, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    cudaFree(word);
    const bool mapped = form == atomic_form::warp_aggregated_global || form == atomic_form::block_shared;
    return mapped ? M::decode(result) : result;
}

std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared) {
    if (xs.empty() || xs.size() > 1024) throw std::invalid_argument("yamr runs one block of 1 to 1024 threads");
    device_array in(xs);
    float* data = reinterpret_cast<float*>(in.p);
    if (volatile_shared) yamr_kernel<volatile float><<<1, unsigned(xs.size())>>>(data);
    else yamr_kernel<float><<<1, unsigned(xs.size())>>>(data);
    check(cudaGetLastError(), "launch");
    std::uint32_t r = 0;
    check(cudaMemcpy(&r, in.p, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return r;
}

}  // namespace flipcheck::gpu
