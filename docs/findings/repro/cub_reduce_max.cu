// Standalone: CUB's DeviceReduce::Max/Min on inputs with infinities and NaN.
// nvcc -std=c++17 -o cub_reduce_max cub_reduce_max.cu && ./cub_reduce_max
#include <cub/device/device_reduce.cuh>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <vector>

template <class T, class Bits>
Bits run(const std::vector<Bits>& bits, bool max) {
    T *in, *out;
    cudaMalloc(&in, bits.size() * sizeof(T));
    cudaMalloc(&out, sizeof(T));
    cudaMemcpy(in, bits.data(), bits.size() * sizeof(T), cudaMemcpyHostToDevice);
    void* temp = nullptr;
    size_t bytes = 0;
    if (max) cub::DeviceReduce::Max(temp, bytes, in, out, int(bits.size()));
    else cub::DeviceReduce::Min(temp, bytes, in, out, int(bits.size()));
    cudaMalloc(&temp, bytes);
    if (max) cub::DeviceReduce::Max(temp, bytes, in, out, int(bits.size()));
    else cub::DeviceReduce::Min(temp, bytes, in, out, int(bits.size()));
    Bits r;
    cudaMemcpy(&r, out, sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(in), cudaFree(out), cudaFree(temp);
    return r;
}

int main() {
    std::printf("CUB %d.%d.%d, CUDA runtime %d\n", CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, CUDART_VERSION);
    const std::uint32_t ninf = 0xff800000u, inf = 0x7f800000u, nan = 0x7fc00000u, one = 0x3f800000u, three = 0x40400000u;
    std::printf("float Max [-inf, -inf, -inf] = 0x%08x (want 0xff800000 = -inf)\n", run<float>(std::vector<std::uint32_t>{ninf, ninf, ninf}, true));
    std::printf("float Min [+inf, +inf]       = 0x%08x (want 0x7f800000 = +inf)\n", run<float>(std::vector<std::uint32_t>{inf, inf}, false));
    std::printf("float Max [NaN, 1, 3]        = 0x%08x (NaN-propagating: 0x7fc00000; NaN-ignoring: 0x40400000 = 3)\n",
                run<float>(std::vector<std::uint32_t>{nan, one, three}, true));
    std::printf("float Max [1, NaN, 3]        = 0x%08x\n", run<float>(std::vector<std::uint32_t>{one, nan, three}, true));
    std::printf("float Max [1, 3, NaN]        = 0x%08x\n", run<float>(std::vector<std::uint32_t>{one, three, nan}, true));
    std::printf("half  Max [NaN, 1]           = 0x%04x (NaN-propagating: 0x7e00; NaN-ignoring: 0x3c00 = 1)\n",
                unsigned(run<__half>(std::vector<std::uint16_t>{0x7e00, 0x3c00}, true)));
    std::printf("half  Max [-inf]             = 0x%04x (want 0xfc00 = -inf)\n", unsigned(run<__half>(std::vector<std::uint16_t>{0xfc00}, true)));
    return 0;
}
