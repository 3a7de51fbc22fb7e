// The amax benchmark: flipcheck's amax (gpu/amax.cuh's amax_grid, the kernel gpu_amax_test
// verifies), the fused amax + MX e8m0 scales kernel and the fused NVFP4 scales kernel, against
// CUB's DeviceReduce::Max over an absolute-value transform iterator of the same data and against
// the practical read ceiling (a hand-written kernel of 16-byte loads that only ORs the words it
// reads), in one run. 2^28 binary32 values (1 GiB) and 2^29 bfloat16 (1 GiB); three inputs of
// each, rotated, so that nothing stays in the 50 MiB L2. The median of --repeats cudaEvent timings
// per row (default 30), round robin; GB/s counts the input bytes read once (the two-pass NVFP4 row
// reads them twice); each row's ratios are its bandwidth over its format's CUB and ceiling rows.
// A row that writes (the fused kernels: one scale byte per 32 or 16 inputs) cannot reach the read
// ceiling: its bound, the ceiling's time for the bytes it reads and writes, is its own column
// ("r+w bound", a share of the read ceiling), and "vs bound" is its bandwidth against it.
// --fused-blocks-per-sm B: the fused kernels' grid, B blocks per SM (default 128).
// Every answer is checked against the host's (the amax bits, every e8m0 and e4m3fn code); exit 1
// if any differs.
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

// The practical read ceiling: every 16-byte vector of x read once, 8 loads in flight per lane,
// each word ORed into one register and nothing else done. The answer is written only if it
// equals a value no input here has, so no load can be dropped and nothing is stored.
__global__ void __launch_bounds__(256) read_ceiling(const uint4* __restrict__ x, std::size_t vectors, std::uint32_t* out) {
    constexpr int unroll = 8;
    const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, threads = std::size_t(gridDim.x) * blockDim.x;
    std::uint32_t acc = 0;
    std::size_t i = tid;
    for (; i + (unroll - 1) * threads < vectors; i += unroll * threads) {
        uint4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) v[u] = __ldg(x + i + u * threads);
#pragma unroll
        for (int u = 0; u < unroll; ++u) acc |= v[u].x | v[u].y | v[u].z | v[u].w;
    }
    for (; i < vectors; i += threads) {
        const uint4 v = __ldg(x + i);
        acc |= v.x | v.y | v.z | v.w;
    }
    acc = __reduce_or_sync(0xffffffffu, acc);
    if (acc == 0x00c0ffeeu) *out = acc;  // the inputs' random signs and exponents make it 0xffff.... never this
}

// Three device inputs of random values of every sign and of magnitudes 2^-27 .. 2^24, their
// amax bits and their MX e8m0 codes for e4m3fn (the host's answers).
template <class F>
struct data {
    using format = F;
    using S = typename F::storage;
    std::size_t n;
    S* d[inputs];
    S amax[inputs];
    std::vector<std::uint8_t> codes[inputs], nvfp4[inputs];  // e8m0 per 32; e4m3fn per 16 under the input's own amax
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
            const float global = fc::tensor_scale(fc::nvfp4_max, float(F::to_value(amax[i])));
            nvfp4[i].resize((n + fc::nvfp4_block - 1) / fc::nvfp4_block);
            for (std::size_t b = 0; b < nvfp4[i].size(); ++b) {
                const std::span<const S> block(host.data() + b * fc::nvfp4_block, std::min<std::size_t>(fc::nvfp4_block, n - b * fc::nvfp4_block));
                nvfp4[i][b] = fc::nvfp4_block_scale::block_scale(float(F::to_value(fc::keyed_amax<F, fc::nan_policy::propagate>::amax(block))), global);
            }
            CHECK(cudaMalloc(&d[i], n * sizeof(S)));
            CHECK(cudaMemcpy(d[i], host.data(), n * sizeof(S), cudaMemcpyHostToDevice));
        }
    }
};

int main(int argc, char** argv) {
    int repeats = 30, fused_per_sm = 128;
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        const int value = i + 1 < argc ? std::atoi(argv[i + 1]) : 0;
        if (flag == "--repeats") repeats = value;
        else if (flag == "--fused-blocks-per-sm") fused_per_sm = value;
        else repeats = 0;
    }
    if (repeats < 1 || fused_per_sm < 1)
        return std::fprintf(stderr, "usage: gpu_amax_bench [--repeats N >= 1] [--fused-blocks-per-sm B >= 1]\n"), 2;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return std::printf("SKIPPED: no CUDA device\n"), 0;
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount) * 8, threads = 256;
    // The fused scale kernels in 16 times as many blocks: their registers fit fewer blocks per SM
    // than amax_grid's (6 of 256 threads for mx_scales on an H100), so SMs x 8 blocks left a
    // second, partial wave; 16 waves measured 0.973x the ceiling against 0.906x for exactly the
    // blocks that fit at once and 0.779x for SMs x 8 (H100, bench/RESULTS.md, issue 31).
    const unsigned fused_blocks = unsigned(prop.multiProcessorCount) * unsigned(fused_per_sm);

    data<fc::binary32> f32(std::size_t(1) << 28, 11);
    data<fc::bfloat16> b16(std::size_t(1) << 29, 13);

    float* cub_out;
    std::uint32_t* word;
    std::uint8_t* scales;
    CHECK(cudaMalloc(&cub_out, 4));
    CHECK(cudaMalloc(&word, 4));
    CHECK(cudaMalloc(&scales, b16.n / fc::nvfp4_block));
    // The NVFP4 kernel's given tensor amax: keys[i] is input i's amax key (the f32 inputs' at
    // keys, the bf16 inputs' at keys + 3); keys[6] is the two-pass row's, made by its amax pass.
    std::uint32_t* keys;
    CHECK(cudaMalloc(&keys, 7 * 4));
    for (int i = 0; i < inputs; ++i) {
        const std::uint32_t k32 = f32.amax[i], k16 = b16.amax[i];
        CHECK(cudaMemcpy(keys + i, &k32, 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(keys + 3 + i, &k16, 4, cudaMemcpyHostToDevice));
    }
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
    // The scales written (codes: the e8m0 ones, else the NVFP4 ones) and the tensor amax.
    auto scales_of = [&](auto& in, bool codes) {
        return [&, codes](int r) {
            const std::vector<std::uint8_t>& want = codes ? in.codes[r % inputs] : in.nvfp4[r % inputs];
            std::vector<std::uint8_t> got(want.size());
            CHECK(cudaMemcpy(got.data(), scales, got.size(), cudaMemcpyDeviceToHost));
            return got == want && word_ok(in)(r);
        };
    };
    auto scales_ok = [&](auto& in) { return scales_of(in, true); };
    auto nvfp4_ok = [&](auto& in) { return scales_of(in, false); };
    auto never_written = [&](int) {
        std::uint32_t w = 0;
        CHECK(cudaMemcpy(&w, word, 4, cudaMemcpyDeviceToHost));
        return w == 0;
    };

    std::vector<row> rows;
    std::vector<int> ceiling_of;  // per row: its format's ceiling row
    std::vector<double> bytes_of;    // per row: the input bytes one launch reads
    std::vector<double> written_of;  // per row: the bytes it must write (scales), beside its word
    int ceiling = -1;  // the ceiling row of the format being added
    auto add = [&](std::string name, double bytes, std::function<void(int)> launch, std::function<bool(int)> ok, int baseline,
                   double written = 0) {
        rows.push_back({std::move(name), std::move(launch), std::move(ok), baseline});
        bytes_of.push_back(bytes);
        written_of.push_back(written);
        ceiling_of.push_back(ceiling < 0 ? int(rows.size() - 1) : ceiling);
        return int(rows.size() - 1);
    };
    using P = fc::nan_policy;
    // binary32
    const double bytes32 = double(f32.n) * 4;
    ceiling = -1;
    ceiling = add("read ceiling binary32 (16-byte loads, OR)", bytes32, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        read_ceiling<<<blocks, threads>>>(reinterpret_cast<const uint4*>(f32.d[r % inputs]), f32.n / 4, word);
    }, never_written, -1);
    const int cub32 = add("cub::DeviceReduce::Max(|x|) binary32", bytes32, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, abs32(r), cub_out, ::cuda::std::int64_t(f32.n));
    }, cub_ok(f32), -1);
    rows[std::size_t(ceiling)].baseline = cub32;
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
        k::mx_scales<fc::binary32, fc::float8_e4m3fn, P::propagate><<<fused_blocks, threads>>>(f32.d[r % inputs], f32.n, scales, word);
    }, scales_ok(f32), cub32, double(f32.n) / fc::mx_block);
    add("flipcheck fused NVFP4 e4m3fn scales /16 binary32", bytes32, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::nvfp4_scales<fc::binary32, P::propagate><<<fused_blocks, threads>>>(f32.d[r % inputs], f32.n, keys + r % inputs, scales, word);
    }, nvfp4_ok(f32), cub32, double(f32.n) / fc::nvfp4_block);
    add("NVFP4 two passes (amax_grid, then scales) binary32", bytes32, [&](int r) {
        cudaMemsetAsync(keys + 6, 0, 4);
        k::amax_grid<fc::binary32, P::propagate><<<blocks, threads>>>(f32.d[r % inputs], f32.n, keys + 6);
        cudaMemsetAsync(word, 0, 4);
        k::nvfp4_scales<fc::binary32, P::propagate><<<fused_blocks, threads>>>(f32.d[r % inputs], f32.n, keys + 6, scales, word);
    }, nvfp4_ok(f32), cub32, double(f32.n) / fc::nvfp4_block);
    // bfloat16
    const double bytes16 = double(b16.n) * 2;
    ceiling = -1;
    ceiling = add("read ceiling bfloat16 (16-byte loads, OR)", bytes16, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        read_ceiling<<<blocks, threads>>>(reinterpret_cast<const uint4*>(b16.d[r % inputs]), b16.n / 8, word);
    }, never_written, -1);
    const int cub16 = add("cub::DeviceReduce::Max(|x|) bfloat16", bytes16, [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, abs16(r), cub_out, ::cuda::std::int64_t(b16.n));
    }, cub_ok(b16), -1);
    rows[std::size_t(ceiling)].baseline = cub16;
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
        k::mx_scales<fc::bfloat16, fc::float8_e4m3fn, P::propagate><<<fused_blocks, threads>>>(b16.d[r % inputs], b16.n, scales, word);
    }, scales_ok(b16), cub16, double(b16.n) / fc::mx_block);
    add("flipcheck fused NVFP4 e4m3fn scales /16 bfloat16", bytes16, [&](int r) {
        cudaMemsetAsync(word, 0, 4);
        k::nvfp4_scales<fc::bfloat16, P::propagate><<<fused_blocks, threads>>>(b16.d[r % inputs], b16.n, keys + 3 + r % inputs, scales, word);
    }, nvfp4_ok(b16), cub16, double(b16.n) / fc::nvfp4_block);
    add("NVFP4 two passes (amax_grid, then scales) bfloat16", bytes16, [&](int r) {
        cudaMemsetAsync(keys + 6, 0, 4);
        k::amax_grid<fc::bfloat16, P::propagate><<<blocks, threads>>>(b16.d[r % inputs], b16.n, keys + 6);
        cudaMemsetAsync(word, 0, 4);
        k::nvfp4_scales<fc::bfloat16, P::propagate><<<fused_blocks, threads>>>(b16.d[r % inputs], b16.n, keys + 6, scales, word);
    }, nvfp4_ok(b16), cub16, double(b16.n) / fc::nvfp4_block);

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

    std::printf("%s, %d SMs; median of %d runs per row, 3 rotating inputs of 1 GiB per format; fused kernels on %d blocks per SM\n",
                prop.name, prop.multiProcessorCount, repeats, fused_per_sm);
    std::printf("%-52s %9s %9s %8s %11s %10s %9s %s\n", "row", "ms", "GB/s", "vs CUB", "vs ceiling", "r+w bound", "vs bound", "answer");
    bool all_right = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& rw = rows[i];
        auto gbs_of = [&](std::size_t k) { return bytes_of[k] / (double(rows[k].median()) * 1e6); };
        const double gbs = gbs_of(i), base = rw.baseline < 0 ? gbs : gbs_of(std::size_t(rw.baseline));
        const double vs_ceiling = gbs / gbs_of(std::size_t(ceiling_of[i]));
        // The ceiling moves read bytes only: at its rate, reading and writing takes (read + written)
        // / read of its time, so the bound, as a share of the ceiling, is read / (read + written).
        const double bound = bytes_of[i] / (bytes_of[i] + written_of[i]);
        std::printf("%-52s %9.3f %9.1f %7.3fx %10.3fx %10.3f %8.3fx %s\n", rw.name.c_str(), double(rw.median()), gbs, gbs / base,
                    vs_ceiling, bound, vs_ceiling / bound, rw.right ? "right" : "WRONG");
        all_right = all_right && rw.right;
    }
    return all_right ? 0 : 1;
}
