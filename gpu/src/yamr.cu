#include "flipcheck/gpu/yamr.hpp"

#include "flipcheck/gpu/detail/device_buffer.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>


namespace flipcheck::gpu {
namespace {


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


}  // namespace

std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared) {
    if (xs.empty() || xs.size() > 1024) throw std::invalid_argument("yamr runs one block of 1 to 1024 threads");
    device_buffer<std::uint32_t> in(xs);
    float* data = reinterpret_cast<float*>(in.p);
    if (volatile_shared) yamr_kernel<volatile float><<<1, unsigned(xs.size())>>>(data);
    else yamr_kernel<float><<<1, unsigned(xs.size())>>>(data);
    check(cudaGetLastError(), "launch");
    std::uint32_t r = 0;
    check(cudaMemcpy(&r, in.p, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return r;
}

}  // namespace flipcheck::gpu
