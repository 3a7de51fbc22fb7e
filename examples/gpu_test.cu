// Plug in GPU code: the mapping swept over every key on the device, the atomic strategies on real
// atomics in the warp, block-shared and grid launch shapes, and a whole kernel of your own behind
// a reducer function. Without a CUDA device every test here says SKIPPED.
#include <cuda_runtime.h>

#include <flipcheck/gpu/rapidcheck.cuh>

#include <stdexcept>
#include <string>

#include "known_wrong.hpp"
#include "my_code.hpp"

namespace my {

// The user's own kernel: atomicMax for floats, written with CUDA's integer atomics directly.
__global__ void max_kernel(const std::uint32_t* xs, std::size_t n, std::uint32_t* out) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint32_t b = xs[i];
        if (b & 0x80000000u) atomicMin(out, b);
        else atomicMax(reinterpret_cast<int*>(out), int(b));
    }
}

inline void cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// The whole launch as a reducer function: copy in, run, copy the answer back.
struct kernel_max {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "kernel_max";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint32_t *d_xs = nullptr, *d_out = nullptr, out = 0xff800000u;  // -inf
        cuda(cudaMalloc(&d_xs, xs.size_bytes()), "cudaMalloc");
        cuda(cudaMalloc(&d_out, 4), "cudaMalloc");
        cuda(cudaMemcpy(d_xs, xs.data(), xs.size_bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
        cuda(cudaMemcpy(d_out, &out, 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        max_kernel<<<64, 256>>>(d_xs, xs.size(), d_out);
        cuda(cudaGetLastError(), "max_kernel");
        cuda(cudaMemcpy(&out, d_out, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        cudaFree(d_xs);
        cudaFree(d_out);
        return out;
    }
};

}  // namespace my

FLIPCHECK_GPU_CHECK_MAPPING(FloatKey, my::float_key);
FLIPCHECK_GPU_CHECK_ATOMIC(AtomicMaxFloat, my::atomic_max_float);
FLIPCHECK_GPU_CHECK_ATOMIC(AtomicArgmaxFloat, my::atomic_argmax_float);
FLIPCHECK_GPU_CHECK_ATOMIC(CasMaxFloat, my::cas_max_float);
FLIPCHECK_GPU_CHECK_REDUCER(KernelMax, my::kernel_max);

// The same checks must fail on known-wrong code, in every launch shape.
TEST(GpuCatches, known_wrong_atomics_and_mapping) {
    FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();
    for (auto form : flipcheck::gpu::atomic_forms) {
        EXPECT_FALSE(flipcheck::check(flipcheck::gpu::subject_of<wrong::atomic_max_ge0>(form)).passed()) << to_string(form);
        EXPECT_FALSE(flipcheck::check(flipcheck::gpu::subject_of<wrong::argmax_no_inversion>(form)).passed()) << to_string(form);
    }
    EXPECT_FALSE(flipcheck::gpu::sweep<wrong::key_sign_only>({}).passed());
}
