// Float max and argmax over 2^28 random floats on the GPU (a start on the reductions issue): the
// mapped-key atomic max (sign_flip_branchless keys, warp-aggregated atomicMax) and a packed 64-bit
// argmax (key << 32 | ~index, warp-aggregated atomicMax), against cub::DeviceReduce::Max/ArgMax and
// thrust::max_element in the same run. Median of --repeats cudaEvent timings, rotating through
// three inputs (3 GiB, far beyond L2); GB/s counts the bytes read once. Results are cross-checked.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/mapping.hpp"

using M = flipcheck::sign_flip_branchless<flipcheck::binary32>;

#define CHECK(x)                                                                   \
    do {                                                                           \
        cudaError_t e = (x);                                                       \
        if (e != cudaSuccess) {                                                    \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));           \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

__global__ void mapped_max(const float4* xs, std::size_t n4, unsigned* out) {
    unsigned best = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += std::size_t(gridDim.x) * blockDim.x) {
        const float4 v = xs[i];
        best = max(best, max(max(M::encode(__float_as_uint(v.x)), M::encode(__float_as_uint(v.y))),
                             max(M::encode(__float_as_uint(v.z)), M::encode(__float_as_uint(v.w)))));
    }
    best = __reduce_max_sync(0xffffffffu, best);
    if ((threadIdx.x & 31u) == 0) atomicMax(out, best);
}

__device__ unsigned long long pack(float v, std::size_t i) {
    return (unsigned long long)M::encode(__float_as_uint(v)) << 32 | (~unsigned(i));  // ~index: ties go low
}

__global__ void packed_argmax(const float4* xs, std::size_t n4, unsigned long long* out) {
    unsigned long long best = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += std::size_t(gridDim.x) * blockDim.x) {
        const float4 v = xs[i];
        const std::size_t b = 4 * i;
        best = max(best, max(max(pack(v.x, b), pack(v.y, b + 1)), max(pack(v.z, b + 2), pack(v.w, b + 3))));
    }
    for (int o = 16; o > 0; o /= 2) best = max(best, __shfl_down_sync(0xffffffffu, best, o));
    if ((threadIdx.x & 31u) == 0) atomicMax(out, best);
}

template <class Launch>
float median_ms(int repeats, Launch launch) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch(0);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < repeats; ++r) {
        CHECK(cudaEventRecord(a));
        launch(r);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
    int repeats = 20;
    if (argc == 3 && std::string(argv[1]) == "--repeats") repeats = std::atoi(argv[2]);
    if (repeats < 1) return std::fprintf(stderr, "usage: gpu_reduce_bench [--repeats N]\n"), 2;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return std::printf("SKIPPED: no CUDA device\n"), 0;
    const std::size_t n = std::size_t(1) << 28, bytes = n * sizeof(float);
    constexpr int inputs = 3;
    std::vector<float> host(n);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
    float* d[inputs];
    std::vector<float> best(inputs);
    std::vector<std::size_t> best_i(inputs);
    for (int k = 0; k < inputs; ++k) {
        for (auto& x : host) x = dist(rng);
        const auto it = std::max_element(host.begin(), host.end());
        best[k] = *it;
        best_i[k] = std::size_t(it - host.begin());
        CHECK(cudaMalloc(&d[k], bytes));
        CHECK(cudaMemcpy(d[k], host.data(), bytes, cudaMemcpyHostToDevice));
    }
    cudaDeviceProp p{};
    CHECK(cudaGetDeviceProperties(&p, 0));
    const unsigned grid = unsigned(p.multiProcessorCount) * 8, block = 256;
    unsigned* word;
    unsigned long long* word64;
    float* cub_max;
    ::cuda::std::int64_t* cub_idx;
    CHECK(cudaMalloc(&word, 4));
    CHECK(cudaMalloc(&word64, 8));
    CHECK(cudaMalloc(&cub_max, 4));
    CHECK(cudaMalloc(&cub_idx, 8));
    std::size_t temp_bytes = 0, t2 = 0;
    CHECK(cub::DeviceReduce::Max(nullptr, temp_bytes, d[0], cub_max, ::cuda::std::int64_t(n)));
    CHECK(cub::DeviceReduce::ArgMax(nullptr, t2, d[0], cub_max, cub_idx, ::cuda::std::int64_t(n)));
    temp_bytes = std::max(temp_bytes, t2);
    void* temp;
    CHECK(cudaMalloc(&temp, temp_bytes));

    const float ours = median_ms(repeats, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        mapped_max<<<grid, block>>>(reinterpret_cast<const float4*>(d[r % inputs]), n / 4, word);
    });
    const float cub = median_ms(repeats, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, d[r % inputs], cub_max, ::cuda::std::int64_t(n));
    });
    const float ours_arg = median_ms(repeats, [&](int r) {
        cudaMemsetAsync(word64, 0, 8);
        packed_argmax<<<grid, block>>>(reinterpret_cast<const float4*>(d[r % inputs]), n / 4, word64);
    });
    const float cub_arg = median_ms(repeats, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::ArgMax(temp, tb, d[r % inputs], cub_max, cub_idx, ::cuda::std::int64_t(n));
    });
    const float thr = median_ms(repeats, [&](int r) {
        thrust::max_element(thrust::device, thrust::device_pointer_cast(d[r % inputs]), thrust::device_pointer_cast(d[r % inputs] + n));
    });
    // Check every answer on input 0 against the host.
    cudaMemset(word, 0, 4);
    mapped_max<<<grid, block>>>(reinterpret_cast<const float4*>(d[0]), n / 4, word);
    cudaMemset(word64, 0, 8);
    packed_argmax<<<grid, block>>>(reinterpret_cast<const float4*>(d[0]), n / 4, word64);
    unsigned k = 0;
    unsigned long long k64 = 0;
    CHECK(cudaMemcpy(&k, word, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&k64, word64, 8, cudaMemcpyDeviceToHost));
    std::size_t tb = temp_bytes;
    CHECK(cub::DeviceReduce::ArgMax(temp, tb, d[0], cub_max, cub_idx, ::cuda::std::int64_t(n)));
    ::cuda::std::int64_t ci = 0;
    CHECK(cudaMemcpy(&ci, cub_idx, 8, cudaMemcpyDeviceToHost));
    const unsigned want = __builtin_bit_cast(unsigned, best[0]);
    const bool ok = M::decode(k) == want && std::size_t(~unsigned(k64)) == best_i[0] && std::size_t(ci) == best_i[0];
    auto gbs = [&](float ms) { return double(bytes) / (ms * 1e-3) / 1e9; };
    std::printf("device: %s; n = 2^28 floats (1 GiB), 3 inputs rotated, median of %d runs\n", p.name, repeats);
    std::printf("%-40s %9s %9s %10s\n", "reduction", "ms", "GB/s", "vs CUB");
    std::printf("%-40s %9.3f %9.1f %10.2f\n", "flipcheck mapped atomic max", ours, gbs(ours), cub / ours);
    std::printf("%-40s %9.3f %9.1f %10.2f\n", "cub::DeviceReduce::Max", cub, gbs(cub), 1.0);
    std::printf("%-40s %9.3f %9.1f %10.2f\n", "flipcheck packed 64-bit argmax", ours_arg, gbs(ours_arg), cub_arg / ours_arg);
    std::printf("%-40s %9.3f %9.1f %10.2f\n", "cub::DeviceReduce::ArgMax", cub_arg, gbs(cub_arg), 1.0);
    std::printf("%-40s %9.3f %9.1f %10.2f\n", "thrust::max_element", thr, gbs(thr), cub_arg / thr);
    std::printf("answers agree with the host (max bits, argmax index, CUB's index): %s\n", ok ? "yes" : "NO");
    return ok ? 0 : 1;
}
