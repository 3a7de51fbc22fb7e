// The device oracle's comparisons and arithmetic are compiled into each translation unit that
// instantiates a walk or a sweep, with that unit's flags: nvcc's -ftz=true (which --use_fast_math
// turns on) flushes the subnormal operands of every float comparison and product in it
// (setp.ftz, mul.ftz), and the oracle then judges subnormals wrong, silently. No macro tells a
// unit it was built so (nvcc passes -ftz to cicc only); a kernel compiled in the same unit can
// tell: it compares the smallest subnormal with zero. A unit built so is refused before any
// verdict (environment_error: exit 2), never judged by a flushed oracle. The device has no
// rounding mode to guard: each instruction names its own.
#pragma once
#include <cuda_runtime.h>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/gpu/detail/cuda_check.hpp"

namespace flipcheck::gpu::detail {
namespace {  // one probe per translation unit, compiled with that unit's flags

__global__ void oracle_flags_probe(const float* in, int* out) {
    out[0] = in[0] > in[1];               // denorm_min > 0: false under -ftz=true
    out[1] = in[0] * in[2] > in[1];       // denorm_min * 1 > 0: the product flushed under -ftz=true
}

// Throws environment_error when this unit's device code flushes subnormals; device_error when
// CUDA fails. The answer is the unit's flags', so it is asked once per unit.
inline void require_ieee_device_oracle() {
    static const bool flushes = [] {
        const float host[3] = {1.40129846e-45f, 0.0f, 1.0f};
        float* in = nullptr;
        int* out = nullptr;
        check(cudaMalloc(&in, sizeof host), "cudaMalloc (the oracle's flags probe)");
        if (const cudaError_t e = cudaMalloc(&out, 2 * sizeof(int)); e != cudaSuccess) {
            cudaFree(in);
            check(e, "cudaMalloc (the oracle's flags probe)");
        }
        int answer[2] = {0, 0};
        cudaError_t e = cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) {
            oracle_flags_probe<<<1, 1>>>(in, out);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess) e = cudaMemcpy(answer, out, sizeof answer, cudaMemcpyDeviceToHost);
        cudaFree(in);
        cudaFree(out);
        check(e, "the oracle's flags probe");
        return !(answer[0] && answer[1]);
    }();
    if (flushes)
        throw environment_error(
            "this .cu file was compiled with nvcc -ftz=true (as --use_fast_math does): its device code flushes subnormals to zero, "
            "so flipcheck's device oracle compiled into it would judge them wrong. Compile the file that includes flipcheck's GPU "
            "headers without --use_fast_math and -ftz=true, and keep the code under test in a file of its own if it needs them");
}

}  // namespace
}  // namespace flipcheck::gpu::detail
