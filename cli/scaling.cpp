#include "scaling.hpp"

#include <chrono>

#include "flipcheck/registry.hpp"
#if FLIPCHECK_HAVE_GPU
#include "flipcheck/gpu/amax.hpp"
#endif

namespace flipcheck::cli {

std::vector<scaling_row> verify_scaling(backend b, bool mutants) {
    std::vector<scaling_row> rows;
    scaling_options o;
    o.every_triple = true;  // every triple of a byte format's codes: seconds, not minutes
    auto cpu = [&]<class I>() {
        const auto t0 = std::chrono::steady_clock::now();
        scaling_row r{check_scaling<typename I::type>(o), "cpu", mutants, 0};
        r.report.subject = std::string(I::entry::name);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rows.push_back(std::move(r));
    };
    if (mutants) registry::for_each<registry::scaling_mutant_instances>(cpu);
    else registry::for_each<registry::scaling_instances>(cpu);
#if FLIPCHECK_HAVE_GPU
    if (b == backend::gpu)
        for (auto& g : gpu::verify_scaling(mutants)) rows.push_back({std::move(g.report), "gpu", g.mutant, g.ms / 1000});
#else
    (void)b;
#endif
    return rows;
}

nlohmann::json to_json(const scaling_row& r) {
    return {{"subject", r.report.subject}, {"shape", r.report.shape},   {"claim", r.report.claim},
            {"device", r.device},          {"domain", r.report.domain}, {"exhaustive", r.report.exhaustive},
            {"checks", r.report.checks},   {"mutant", r.mutant},        {"verdict", r.report.passed() ? "pass" : "fail"},
            {"counterexample", r.report.counterexample.value_or("")},   {"seconds", r.seconds}};
}

}  // namespace flipcheck::cli
