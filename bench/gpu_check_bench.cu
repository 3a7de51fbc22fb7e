// The plug-in checks' speed on the GPU: a user's atomic strategy (flipcheck's own mapped keys and
// packed argmax stand in) through every stage of check/reducers.hpp on real atomics, in each launch shape,
// against the same check replayed on the CPU in the same run. Prints cases/s (median of
// --repeats runs) and the ratio. The issue's floor: 2000 cases/s on the GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "flipcheck/gpu/check.cuh"
#include "flipcheck/catalog/registry.hpp"

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;

namespace {

template <class S>
double cases_per_second(const S& subject, std::uint64_t& cases, bool& passed) {
    const auto t0 = std::chrono::steady_clock::now();
    const fc::check_report r = fc::check(subject);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cases = r.cases();
    passed = r.passed();
    return double(r.cases()) / s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class R>
bool bench(const char* label, int repeats) {
    bool ok = true;
    std::vector<double> cpu;
    std::uint64_t cases = 0;
    bool passed = true;
    for (int i = 0; i < repeats; ++i) cpu.push_back(cases_per_second(fc::subject_of<R>(), cases, passed));
    ok = ok && passed;
    std::printf("%-28s %-13s %9llu cases  %12.0f cases/s  (baseline)\n", label, "cpu replay", (unsigned long long)cases, median(cpu));
    for (auto form : gpu::atomic_forms) {
        std::vector<double> g;
        for (int i = 0; i < repeats; ++i) g.push_back(cases_per_second(gpu::subject_of<R>(form), cases, passed));
        ok = ok && passed;
        std::printf("%-28s gpu %-9s %9llu cases  %12.0f cases/s  %.2fx the CPU replay%s\n", label,
                    std::string(gpu::to_string(form)).c_str(), (unsigned long long)cases, median(g), median(g) / median(cpu),
                    passed ? "" : "  FAILED");
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 3;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--repeats N]\n", argv[0]);
            return 2;
        }
    }
    try {
        if (!gpu::detail::device_present()) {
            std::printf("SKIPPED: no CUDA device\n");
            return gpu::detail::device_required() ? 1 : 0;
        }
        std::printf("every stage of check.hpp at its defaults (battery, 2000 random arrays, reorderings, 15 large arrays); median of %d\n", repeats);
        using value = fc::atomic::mapped<fc::key_mapping<fc::binary32>, fc::nan_policy::propagate, fc::reduce_op::max>;
        using arg = fc::atomic::packed_arg<fc::key_mapping<fc::binary32>, fc::reduce_op::max>;
        const bool ok = bench<value>("mapped_propagate binary32", repeats) & bench<arg>("packed_arg binary32", repeats);
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpu_check_bench: %s\n", e.what());
        return 3;
    }
}
