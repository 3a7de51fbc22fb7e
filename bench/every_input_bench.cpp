// Every binary32 input through the built-in quantizers, scales and canonical keys on every core
// (scaling_options::every_binary32), against a baseline in the same run: one binary32 sweep of
// sign_flip_branchless (all 2^32 keys, every law, every core). Prints, per subject, the median of
// --repeats runs and its ratio to the baseline. By default the cvt.rn.satfinite quantizer of each
// element, the RCEIL scale of each MX element and the SQL keys; --all adds the other quantizers
// (toward zero, up, non-saturating: 19 more, about 15 s each on two cores).
#include <cstdio>
#include <string>
#include <vector>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/check/sweep.hpp"
#include "bench_options.hpp"

namespace fc = flipcheck;

int main(int argc, char** argv) {
    const bench_options o = read_bench_options(argc, argv, "every_input_bench [--repeats N] [--all]", 1, false, {"--all"});
    std::vector<double> base;
    for (int i = 0; i < o.repeats; ++i)
        base.push_back(seconds_of([] { (void)fc::sweep<fc::sign_flip_branchless<fc::binary32>>(fc::sweep_options{}); }));
    const double b = median(base);
    std::printf("%-24s %-16s %-9s %10s %8s %s\n", "subject", "format", "verdict", "seconds", "ratio", "domain");
    std::printf("%-24s %-16s %-9s %10.3f %8.2f %s\n", "sweep (baseline)", "binary32", "-", b, 1.0, "every key, sign_flip_branchless");
    auto time = [&]<class I>() {
        const std::string name(I::entry::name);
        const bool main_set = name == "quantize" || name == "mx_scale_rceil" || name == "sql_key" || name == "sql_key_bytes";
        if (!main_set && !o.has("--all")) return;
        if constexpr (requires { typename I::type::format; }) {
            if constexpr (!std::is_same_v<typename I::type::format, fc::binary32>) return;
        }
        fc::scaling_options so;
        so.every_binary32 = true;
        std::vector<double> t;
        fc::scaling_report r;
        for (int i = 0; i < o.repeats; ++i) t.push_back(seconds_of([&] { r = fc::check_scaling<typename I::type>(so); }));
        std::printf("%-24s %-16s %-9s %10.3f %8.2f %s\n", name.c_str(), std::string(I::format::name).c_str(), r.passed() ? "pass" : "FAIL",
                    median(t), median(t) / b, r.domain.c_str());
    };
    fc::registry::for_each<fc::registry::scaling_instances>(time);
    fc::registry::for_each<fc::registry::key_instances>(time);
}
