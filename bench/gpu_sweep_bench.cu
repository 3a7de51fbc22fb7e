// GPU sweep benchmark, a plain cudaEvent harness. It compares, over all 2^32 binary32 keys:
//   bare   a kernel doing only round trip both ways and successor order for sign_flip_branchless
//          with raw integer and float operations: no oracle, no NaN laws, no counterexamples;
//          the floor for any sweep of that mapping;
//   full   the library's sweep (every mapping law, through gpu::sweep) for each built-in;
// and reports binary64 rates (sampled + random keys, and a 2^34-key range). Every figure is
// the median of `runs` timed runs after one warm-up; times are kernel times from cudaEvents.
// Self-checking: exits 1 if a sweep fails or the bare kernel finds a bad key, 2 without a device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "flipcheck/gpu/sweep.cuh"
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/sweep.hpp"

namespace {

namespace fc = flipcheck;
using fc::binary32;
using fc::binary64;

constexpr int runs = 15;
constexpr double keys32 = 4294967296.0;
constexpr double full_target_ms = 6.0;  // H100 target for one binary32 mapping, all laws

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Every binary32 key, one per thread-iteration, 32-bit arithmetic only.
__global__ void __launch_bounds__(256) bare_kernel(unsigned long long* bad_out) {
    using M = fc::sign_flip_branchless<binary32>;
    const std::uint32_t stride = gridDim.x * blockDim.x;
    std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t iters = std::uint32_t(((std::uint64_t(1) << 32) - 1 - k) / stride + 1);
    std::uint32_t bad = 0;
    for (std::uint32_t it = 0; it < iters; ++it, k += stride) {
        const std::uint32_t b0 = M::decode(k), b1 = M::decode(k + 1);
        const bool round_trips = (M::encode(b0) == k) & (M::decode(M::encode(k)) == k);
        const float a = __uint_as_float(b0), c = __uint_as_float(b1);
        const bool nan = ((b0 & 0x7fffffffu) > 0x7f800000u) | ((b1 & 0x7fffffffu) > 0x7f800000u);
        // Equal values with successive keys can only be -0 (0x80000000) then +0 (0).
        const bool ordered = (k == 0xffffffffu) | nan | (a < c) | ((a == c) & (b0 > b1));
        bad += !(round_trips & ordered);
    }
    bad = __reduce_add_sync(0xffffffffu, bad);
    if ((threadIdx.x & 31u) == 0 && bad) atomicAdd(bad_out, (unsigned long long)bad);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct row {
    std::string what;
    double keys, median_ms, min_ms;
};

void print(const row& r, double bare_ms) {
    std::printf("%-46s %14.0f %10.3f %10.3f %10.1f", r.what.c_str(), r.keys, r.median_ms, r.min_ms,
                r.keys / (r.median_ms * 1e-3) / 1e9);
    if (bare_ms > 0) std::printf(" %9.2fx", r.median_ms / bare_ms);
    std::printf("\n");
}

bool ok = true;

row bench_bare() {
    int device = 0, sms = 0, per_sm = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bare_kernel, 256, 0), "occupancy");
    const unsigned grid = unsigned(sms * std::max(per_sm, 1));
    unsigned long long* bad = nullptr;
    check(cudaMalloc(&bad, sizeof *bad), "cudaMalloc");
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "event");
    check(cudaEventCreate(&b), "event");
    std::vector<double> ms;
    for (int i = 0; i <= runs; ++i) {
        check(cudaMemset(bad, 0, sizeof *bad), "cudaMemset");
        check(cudaEventRecord(a), "record");
        bare_kernel<<<grid, 256>>>(bad);
        check(cudaGetLastError(), "bare_kernel launch");
        check(cudaEventRecord(b), "record");
        check(cudaEventSynchronize(b), "synchronize");
        float t = 0;
        check(cudaEventElapsedTime(&t, a, b), "elapsed");
        unsigned long long n = 0;
        check(cudaMemcpy(&n, bad, sizeof n, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (n) {
            std::printf("FAIL: the bare kernel found %llu bad keys\n", n);
            ok = false;
        }
        if (i) ms.push_back(t);  // run 0 is the warm-up
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(bad);
    return {"bare sign_flip_branchless binary32 (grid " + std::to_string(grid) + ")", keys32, median(ms),
            *std::min_element(ms.begin(), ms.end())};
}

// The library's sweep; its report's seconds are the kernel's event time.
template <class M>
row bench_sweep(const fc::sweep_options& o, const std::string& what, int n_runs, double* wall_ms = nullptr) {
    std::vector<double> ms, wall;
    double keys = 0;
    for (int i = 0; i <= n_runs; ++i) {
        flipcheck::gpu::sweep_timing t;
        const fc::sweep_report r = flipcheck::gpu::sweep<M>(o, &t);
        if (!r.passed()) {
            std::printf("FAIL: %s: %llu failing keys of %llu checked\n", what.c_str(),
                        (unsigned long long)r.failing_keys, (unsigned long long)r.keys_checked);
            ok = false;
        }
        keys = double(r.keys_checked);
        if (i) {
            ms.push_back(r.seconds * 1e3);
            wall.push_back(t.wall_seconds * 1e3);
        }
    }
    if (wall_ms) *wall_ms = median(wall);
    return {what, keys, median(ms), *std::min_element(ms.begin(), ms.end())};
}

}  // namespace

int main() {
    if (const std::string why = flipcheck::gpu::skip_reason(); !why.empty()) {  // a broken device throws
        std::printf("SKIPPED: %s\n", why.c_str());
        return 2;
    }
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("device: %s, sm_%d%d, %d SMs, driver %d, runtime %d\n", p.name, p.major, p.minor,
                p.multiProcessorCount, driver, runtime);
    std::printf("median of %d timed runs after a warm-up; kernel time from cudaEvents\n\n", runs);
    std::printf("%-46s %14s %10s %10s %10s %10s\n", "kernel", "keys", "median ms", "min ms", "G keys/s", "vs bare");

    const row bare = bench_bare();
    print(bare, 0);
    const fc::sweep_options all_keys;
    const row full[] = {
        bench_sweep<fc::sign_flip<binary32>>(all_keys, "full sign_flip binary32", runs),
        bench_sweep<fc::sign_flip_branchless<binary32>>(all_keys, "full sign_flip_branchless binary32", runs),
        bench_sweep<fc::signed_key<binary32>>(all_keys, "full signed_key binary32", runs),
    };
    for (const row& r : full) print(r, bare.median_ms);

    std::printf("\n");
    double wall_ms = 0;
    const row sampled = bench_sweep<fc::sign_flip_branchless<binary64>>(
        {}, "binary64 sampled+random sign_flip_branchless", 10, &wall_ms);
    print(sampled, 0);
    std::printf("%-46s %14s %10.3f   (wall, with the host's sampled key list)\n", "", "", wall_ms);
    fc::sweep_options range;
    range.range = fc::key_range{(std::uint64_t(1) << 63) - (std::uint64_t(1) << 33),
                                (std::uint64_t(1) << 63) + (std::uint64_t(1) << 33)};
    print(bench_sweep<fc::sign_flip_branchless<binary64>>(range, "binary64 range of 2^34 keys around +-0", 10), 0);

    std::printf("\n");
    for (const row& r : full)
        std::printf("target %-40s full-law kernel %.3f ms <= %.1f ms: %s\n", r.what.c_str(), r.median_ms, full_target_ms,
                    r.median_ms <= full_target_ms ? "MET" : "MISSED");
    const double b64 = sampled.keys / (sampled.median_ms * 1e-3) / 1e9;
    std::printf("target binary64 sampled+random >= 100 G keys/s: %.1f G keys/s: %s\n", b64, b64 >= 100 ? "MET" : "MISSED");
    std::printf("%s\n", ok ? "all sweeps passed" : "FAILED: see above");
    return ok ? 0 : 1;
}
