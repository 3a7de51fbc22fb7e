// Every binary32 input through each quantizer on the GPU (gpu/every_input.hpp: flipcheck's
// built-ins and CUDA's conversions), every binary32 code through each canonical key, and every
// binary32 input under each of 16 scales through each scaled quantizer, against a baseline in the same run: one GPU sweep of
// sign_flip_branchless over all 2^32 binary32 keys, every law (gpu::sweep). Prints, per row, the
// median of --repeats runs of the walk kernel (cudaEvent) and of the whole row (oracle table,
// copies, kernel), and the row's ratio to the baseline's wall time. Exits 1 if a built-in fails
// or a CUDA conversion disagrees with what it declares, 2 without a device.
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/every_input.hpp"
#include "flipcheck/gpu/sweep.hpp"

namespace fc = flipcheck;

int main(int argc, char** argv) {
    const bench_options o = read_bench_options(argc, argv, "gpu_quantize_bench [--repeats N]", 5, false, {});
    if (const std::string why = fc::gpu::skip_reason(); !why.empty()) {
        std::fprintf(stderr, "gpu_quantize_bench: %s\n", why.c_str());
        return 2;
    }
    (void)fc::gpu::sweep<fc::sign_flip_branchless<fc::binary32>>(fc::sweep_options{});  // warm-up: context, pools
    std::vector<double> base;
    for (int i = 0; i < o.repeats; ++i)
        base.push_back(seconds_of([] { (void)fc::gpu::sweep<fc::sign_flip_branchless<fc::binary32>>(fc::sweep_options{}); }) * 1000);
    const double b = median(base);
    std::printf("%-54s %-44s %-5s %10s %10s %8s\n", "row", "claim", "ok", "kernel ms", "row ms", "ratio");
    std::printf("%-54s %-44s %-5s %10s %10.2f %8.2f\n", "gpu::sweep sign_flip_branchless (baseline)", "binary32, every key, every law", "-", "-", b, 1.0);
    int bad = 0;
    for (auto set : {fc::gpu::quantizer_set::built_ins, fc::gpu::quantizer_set::cuda_conversions}) {
        std::map<std::size_t, std::vector<double>> kernel, wall;
        std::vector<fc::gpu::quantizer_row> last;
        for (int i = 0; i < o.repeats; ++i) {
            last = fc::gpu::every_input(set);
            for (std::size_t k = 0; k < last.size(); ++k) kernel[k].push_back(last[k].kernel_ms), wall[k].push_back(last[k].wall_ms);
        }
        for (std::size_t k = 0; k < last.size(); ++k) {
            const auto& r = last[k];
            bad += !r.report.passed();
            std::printf("%-54s %-44s %-5s %10.2f %10.2f %8.2f\n", r.report.subject.c_str(), r.report.claim.c_str(), r.report.passed() ? "pass" : "FAIL",
                        median(kernel[k]), median(wall[k]), median(wall[k]) / b);
        }
    }
    // The registry's binary32 canonical keys over every code of their declared order.
    std::map<std::size_t, std::vector<double>> kernel, wall;
    std::vector<fc::gpu::walk_row> keys;
    for (int i = 0; i < o.repeats; ++i) {
        keys = fc::gpu::every_key_code(false);
        for (std::size_t k = 0; k < keys.size(); ++k) kernel[k].push_back(keys[k].kernel_ms), wall[k].push_back(keys[k].wall_ms);
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const auto& r = keys[k];
        bad += !r.report.passed();
        std::printf("%-54s %-44s %-5s %10.2f %10.2f %8.2f\n", r.report.subject.c_str(), r.report.claim.c_str(), r.report.passed() ? "pass" : "FAIL",
                    median(kernel[k]), median(wall[k]), median(wall[k]) / b);
    }
    // The registry's binary32 scaled quantizers, every binary32 input under the first 16 e8m0
    // scales (a whole row, 273 scales, is gpu_quantize_test's GpuScaled: about 17x this): the time
    // per scale is the row's over 16.
    constexpr std::size_t scales = 16;
    std::map<std::size_t, std::vector<double>> scaled_kernel, scaled_wall;
    std::vector<fc::gpu::walk_row> scaled;
    for (int i = 0; i < o.repeats; ++i) {
        scaled = fc::gpu::every_scaled_pair(false, scales);
        for (std::size_t k = 0; k < scaled.size(); ++k)
            scaled_kernel[k].push_back(scaled[k].kernel_ms / scales), scaled_wall[k].push_back(scaled[k].wall_ms / scales);
    }
    for (std::size_t k = 0; k < scaled.size(); ++k) {
        const auto& r = scaled[k];
        bad += !r.report.passed();
        std::printf("%-54s %-44s %-5s %10.2f %10.2f %8.2f\n", (r.report.subject + " (per scale)").c_str(), r.report.claim.c_str(),
                    r.report.passed() ? "pass" : "FAIL", median(scaled_kernel[k]), median(scaled_wall[k]), median(scaled_wall[k]) / b);
    }
    return bad ? 1 : 0;
}
