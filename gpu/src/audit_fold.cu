// One thread folds the whole array with fmaxf/fminf, in order: compiled twice, with -ftz=true
// (FLIPCHECK_FTZ=1) and -ftz=false, to show what flush-to-zero does to subnormal comparisons.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#if FLIPCHECK_FTZ
#define FLIPCHECK_FOLD fold_ftz
#else
#define FLIPCHECK_FOLD fold_noftz
#endif

namespace flipcheck::gpu {
namespace {
__global__ void fold_kernel(const float* xs, std::size_t n, bool max, float* out) {
    float acc = xs[0];
    for (std::size_t i = 1; i < n; ++i) acc = max ? fmaxf(acc, xs[i]) : fminf(acc, xs[i]);
    *out = acc;
}
}  // namespace

std::uint32_t FLIPCHECK_FOLD(const std::vector<std::uint32_t>& xs, bool max) {
    float *d_in = nullptr, *d_out = nullptr;
    if (cudaMalloc(&d_in, xs.size() * 4) != cudaSuccess || cudaMalloc(&d_out, 4) != cudaSuccess)
        throw std::runtime_error("CUDA: cudaMalloc failed");
    cudaMemcpy(d_in, xs.data(), xs.size() * 4, cudaMemcpyHostToDevice);
    fold_kernel<<<1, 1>>>(d_in, xs.size(), max, d_out);
    float r = 0;
    const cudaError_t e = cudaMemcpy(&r, d_out, 4, cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: fold: ") + cudaGetErrorString(e));
    std::uint32_t b;
    std::memcpy(&b, &r, 4);
    return b;
}

}  // namespace flipcheck::gpu
