// The amax benchmark: flipcheck's amax (gpu/amax.cuh's amax_grid, the kernel gpu_amax_test
// verifies) and the fused amax + MX e8m0 scales kernel, against CUB's DeviceReduce::Max over an
// absolute-value transform iterator of the same data, in one run. 2^28 binary32 values (1 GiB) and
// 2^29 bfloat16 (1 GiB); three inputs of each, rotated, so that nothing stays in the 50 MiB L2.
// The median of --repeats cudaEvent timings per row (default 30), round robin; GB/s counts the
// input bytes read once; each row's ratio is its bandwidth over its format's CUB row.
// Every answer is checked against the host's (the amax bits, every e8m0 code); exit 1 if any differs.
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "flipcheck/gpu/amax.cuh"
#include "flipcheck/random.hpp"
#include "gpu_timing.cuh"

namespace fc = flipcheck;
namespace k = flipcheck::gpu::amax_kernels;

struct abs_f32 {
    __device__ float operator()(float x) const { return fabsf(x); }
};
struct abs_bf16 {  // widened to binary32, exactly: CUB then reduces floats read as bf16
    __device__ float operator()(__nv_bfloat16 x) const { return fabsf(__bfloat162float(x)); }
};

constexpr int inputs = 3;

// Three device inputs of random values of every sign and of magnitudes 2^-27 .. 2^24, their
// amax bits and their MX e8m0 codes for e4m3fn (the host's answers).
template <class F>
struct data {
    using format = F;
    using S = typename F::storage;
    std::size_t n;
    S* d[inputs];
    S amax[inputs];
    std::vector<std::uint8_t> codes[inputs];
    data(std::size_t count, std::uint64_t seed) : n(count) {
        std::vector<S> host(n);
        fc::detail::splitmix64 rng{seed};
        for (int i = 0; i < inputs; ++i) {
            for (S& x : host) {
                const std::uint64_t r = rng();
                const S exponent = S((F::bias - 27 + r % 52) << F::mantissa_bits);
                x = S(((r >> 8) & 1 ? F::sign_mask : 0) | exponent | S((r >> 16) & F::mantissa_mask));
            }
            amax[i] = fc::keyed_amax<F, fc::nan_policy::propagate>::amax(host);
            codes[i].resize((n + fc::mx_block - 1) / fc::mx_block);
            for (std::size_t b = 0; b < codes[i].size(); ++b)
                codes[i][b] = fc::mx_block_scale<F, fc::float8_e4m3fn>::block_scale(
                    std::span<const S>(host.data() + b * fc::mx_block, std::min<std::size_t>(fc::mx_block, n - b * fc::mx_block)));
            CHECK(cudaMalloc(&d[i], n * sizeof(S)));
            CHECK(cudaMemcpy(d[i], host.data(), n * sizeof(S), cudaMemcpyHostToDevice));
        }
    }
};

int main(int argc, char** argv) {
    int repeats = 30;
    if (argc == 3 && std::string(argv[1]) == "--repeats") repeats = std::atoi(argv[2]);
    if (argc != 1 && argc != 3) repeats = 0;
    if (repeats < 1) return std::fprintf(stderr, "usage: gpu_amax_bench [--repeats N >= 1]\n"), 2;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return std::printf("SKIPPED: no CUDA device\n"), 0;
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount) * 8, threads = 256;

    data<fc::binary32> f32(std::size_t(1) << 28, 11);
    data<fc::bfloat16> b16(std::size_t(1) << 29, 13);

    float* cub_out;
    std::uint32_t* word;
    std::uint8_t* scales;
    CHECK(cudaMalloc(&cub_out, 4));
    CHECK(cudaMalloc(&word, 4));
    CHECK(cudaMalloc(&scales, b16.n / fc::mx_block));
    auto abs32 = [&](int r) { return thrust::make_transform_iterator(reinterpret_cast<const float*>(f32.d[r % inputs]), abs_f32{}); };
    auto abs16 = [&](int r) {
        return thrust::make_transform_iterator(reinterpret_cast<const __nv_bfloat16*>(b16.d[r % inputs]), abs_bf16{});
    };
    std::size_t temp_bytes = 0, t2 = 0;
    CHECK(cub::DeviceReduce::Max(nullptr, temp_bytes, abs32(0), cub_out, ::cuda::std::int64_t(f32.n)));
    CHECK(cub::DeviceReduce::Max(nullptr, t2, abs16(0), cub_out, ::cuda::std::int64_t(b16.n)));
    temp_bytes = std::max(temp_bytes, t2);
    void* temp;
    CHECK(cudaMalloc(&temp, temp_bytes));

    auto cub_ok = [&](auto& in) {
        return [&](int r) {
            float m = 0;
            CHECK(cudaMemcpy(&m, cub_out, 4, cudaMemcpyDeviceToHost));
            using F = typename std::remove_reference_t<decltype(in)>;
            return fc::bit_cast<std::uint32_t>(m) == fc::bit_cast<std::uint32_t>(float(F::format::to_value(in.amax[r % inputs])));
        };
    };
    auto word_ok = [&](auto& in) {
        return [&](int r) {
            std::uint32_t w = 0;
            CHECK(cudaMemcpy(&w, word, 4, cudaMemcpyDeviceToHost));
            return w == in.amax[r % inputs];
        };
    };
    auto scales_ok = [&](auto& in) {
        return [&](int r) {
            std::vector<std::uint8_t> got(in.codes[r % inputs].size());
            CHECK(cudaMemcpy(got.data(), scales, got.size(), cudaMemcpyDeviceToHost));
            std::uint32_t w = 0;
            CHECK(cudaMemcpy(&w, word, 4, cudaMemcpyDeviceToHost));
            return got == in.codes[r % inputs] && w == in.amax[r % inputs];
        };
    };

    std::vector<row> rows;
    std::vector<double> bytes_of;  // per row: the input bytes one launch reads
    auto add = [&](std::string name, double bytes, std::function<void(int)> launch, std::function<bool(int)> ok, int baseline) {
        rows.push_back({std::move(name), std::move(launch), std::move(ok), baseline});
        bytes_of.push_back(bytes);
        return int(rows.size() - 1);
    };
    using P = fc::nan_policy;
    // binary32
    const double bytes32 = double(f32.n) * 4;
    const int cub32 = add("cub::DeviceReduce::Max(|x|) binary32", bytes32, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, abs32(r), cub_out, ::cuda::std::int64_t(f32.n));
    }, cub_ok(f32), -1);
    add("flipcheck amax binary32 (propagate)", bytes32, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::amax_grid<fc::binary32, P::propagate><<<blocks, threads>>>(f32.d[r % inputs], f32.n, word);
    }, word_ok(f32), cub32);
    add("flipcheck amax binary32 (ignore)", bytes32, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::amax_grid<fc::binary32, P::ignore><<<blocks, threads>>>(f32.d[r % inputs], f32.n, word);
    }, word_ok(f32), cub32);
    add("flipcheck fused amax + e8m0 scales /32 binary32", bytes32, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::mx_scales<fc::binary32, fc::float8_e4m3fn, P::propagate><<<blocks, threads>>>(f32.d[r % inputs], f32.n, scales, word);
    }, scales_ok(f32), cub32);
    // bfloat16
    const double bytes16 = double(b16.n) * 2;
    const int cub16 = add("cub::DeviceReduce::Max(|x|) bfloat16", bytes16, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, abs16(r), cub_out, ::cuda::std::int64_t(b16.n));
    }, cub_ok(b16), -1);
    add("flipcheck amax bfloat16 (propagate)", bytes16, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::amax_grid<fc::bfloat16, P::propagate><<<blocks, threads>>>(b16.d[r % inputs], b16.n, word);
    }, word_ok(b16), cub16);
    add("flipcheck amax bfloat16 (ignore)", bytes16, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::amax_grid<fc::bfloat16, P::ignore><<<blocks, threads>>>(b16.d[r % inputs], b16.n, word);
    }, word_ok(b16), cub16);
    add("flipcheck fused amax + e8m0 scales /32 bfloat16", bytes16, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::mx_scales<fc::bfloat16, fc::float8_e4m3fn, P::propagate><<<blocks, threads>>>(b16.d[r % inputs], b16.n, scales, word);
    }, scales_ok(b16), cub16);

    // Every answer on every input first, then the timed repeats, round robin.
    for (auto& rw : rows) {
        rw.right = true;
        for (int r = 0; r < inputs; ++r) {
            rw.launch(r);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            rw.right = rw.right && rw.ok(r);
        }
    }
    time_round_robin(rows, repeats);

    std::printf("%s, %d SMs; median of %d runs per row, 3 rotating inputs of 1 GiB per format\n", prop.name,
                prop.multiProcessorCount, repeats);
    std::printf("%-52s %9s %9s %8s %s\n", "row", "ms", "GB/s", "vs CUB", "answer");
    bool all_right = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& rw = rows[i];
        auto gbs_of = [&](std::size_t k) { return bytes_of[k] / (double(rows[k].median()) * 1e6); };
        const double gbs = gbs_of(i), base = rw.baseline < 0 ? gbs : gbs_of(std::size_t(rw.baseline));
        std::printf("%-52s %9.3f %9.1f %7.3fx %s\n", rw.name.c_str(), double(rw.median()), gbs, gbs / base,
                    rw.right ? "right" : "WRONG");
        all_right = all_right && rw.right;
    }
    return all_right ? 0 : 1;
}
