// The exhaustive mapping sweep through Vulkan against the CUDA sweep of the same mapping, the same
// four laws and the same 2^32 keys, in the same run on the same machine: seed 001's branchless
// pair in HLSL (and its GLSL spelling, and the branchy listing) against flipcheck's CUDA sweep of
// sign_flip_branchless<binary32>. Times are GPU times: Vulkan timestamps around the dispatches,
// cudaEvents around the kernels. Median of --repeats runs after one warm-up, interleaved; every
// run's answer is checked (a pass with no failing key; the CUDA one with the CPU's counts).
//   shader_sweep_bench [--repeats N]   (exit 0 measured, 1 a wrong answer, 77 no device: SKIPPED)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "flipcheck/mapping.hpp"
#include "flipcheck/shader/subjects.hpp"
#include "flipcheck/shader/sweep.hpp"
#if FLIPCHECK_HAVE_GPU
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/sweep.hpp"
#include "bench_options.hpp"
#endif

namespace fs = flipcheck::shader;

int main(int argc, char** argv) {
    const int repeats = read_bench_options(argc, argv, "shader_sweep_bench [--repeats N]", 10).repeats;
    try {
        fs::vulkan::get();
    } catch (const fs::vulkan_unavailable& e) {
        std::printf("SKIPPED: %s\n", e.what());
        return 77;
    }
    const auto& info = fs::vulkan::get().info();
    std::printf("Vulkan device: %s\n", info.text().c_str());
    const flipcheck::key_range all{0, std::uint64_t(1) << 32};
    struct row {
        std::string what;
        std::vector<double> ms;
    };
    std::vector<row> rows;
    std::vector<fs::source> sources;
    for (const char* name : {"seed001_branchless_map", "glsl_branchless_map", "seed001_branchy_map"})
        for (const auto& m : fs::mapping_shaders())
            if (m.name == name) {
                sources.push_back({std::string(fs::shader_text(m.file)), std::string(m.name), m.lang});
                rows.push_back({"Vulkan " + std::string(m.name) + " (" + m.file.data() + ")", {}});
            }
#if FLIPCHECK_HAVE_GPU
    const bool cuda = flipcheck::gpu::available();
    if (cuda) rows.push_back({"CUDA sweep<sign_flip_branchless<binary32>>, same 4 laws", {}});
    flipcheck::sweep_options o;
    o.laws = fs::shader_sweep_law_set;
    o.range = all;
    o.all = true;
#else
    const bool cuda = false;
#endif
    bool wrong = false;
    for (int r = -1; r < repeats; ++r) {  // r = -1: the warm-up
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const auto rep = fs::sweep_mapping(sources[i], all);
            if (!rep.passed()) {
                std::printf("FAIL: %s\n", rep.text().c_str());
                wrong = true;
            }
            if (r >= 0) rows[i].ms.push_back(rep.gpu_ms);
        }
#if FLIPCHECK_HAVE_GPU
        if (cuda) {
            const auto rep = flipcheck::gpu::sweep<flipcheck::sign_flip_branchless<flipcheck::binary32>>(o);
            if (!rep.passed() || rep.keys_checked != all.size()) {
                std::printf("FAIL: the CUDA sweep: %llu failing keys of %llu\n", (unsigned long long)rep.failing_keys,
                            (unsigned long long)rep.keys_checked);
                wrong = true;
            }
            if (r >= 0) rows.back().ms.push_back(rep.seconds * 1e3);
        }
#endif
    }
    std::printf("median of %d runs after a warm-up, GPU time, all 2^32 binary32 keys, laws round_trip_key, round_trip_bits, "
                "successor_order, zero_placement\n\n%-72s %10s %10s %10s\n", repeats, "sweep", "median ms", "min ms", "vs CUDA");
    const double cuda_ms = cuda ? median(rows.back().ms) : 0;
    for (const auto& r : rows) {
        const double m = median(r.ms);
        std::printf("%-72s %10.3f %10.3f", r.what.c_str(), m, *std::min_element(r.ms.begin(), r.ms.end()));
        if (cuda) std::printf(" %9.2fx", m / cuda_ms);
        std::printf("\n");
    }
    if (!cuda) std::printf("(no CUDA device in this run: no ratio)\n");
    return wrong ? 1 : 0;
}
