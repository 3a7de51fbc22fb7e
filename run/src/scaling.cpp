#include "flipcheck/run/scaling.hpp"

#include <chrono>
#include <functional>
#include <future>
#include <thread>
#include <algorithm>

#include "flipcheck/run/every_core.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::run {

std::vector<scaling_row> verify_scaling(const pending_backend& b, bool mutants) {
    scaling_options o;
    o.every_triple = true;  // every triple of a byte format's codes: seconds, not minutes
    o.threads = 1;          // the rows already run on every core at once: a row's own threads (a scaled
                            // quantizer's scales) would only crowd the GPU rows' launching threads
    // Each CPU subject is one independent host-only check, the byte formats' amax ones 16.8M arrays
    // each: they run on every core at once, each into its own row (the registry's order is kept),
    // and the GPU's rows beside them. One after another they were 4.2 s of the GPU main job's 5.4.
    std::vector<std::function<scaling_row()>> cpu;
    auto add = [&]<class I>() {
        cpu.push_back([o, mutants] {
            const auto t0 = std::chrono::steady_clock::now();
            scaling_row r{check_scaling<typename I::type>(o), "cpu", mutants, 0};
            r.report.subject = std::string(I::entry::name);
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return r;
        });
    };
    if (mutants) registry::for_each<registry::concat<registry::scaling_mutant_instances, registry::key_mutant_instances>>(add);
    else registry::for_each<registry::concat<registry::scaling_instances, registry::key_instances>>(add);
    // The GPU's rows wait for the backend (a backend still being chosen: the CPU rows start now).
    const bool may_be_gpu = !known_cpu(b);
    std::future<std::vector<scaling_row>> gpu;
    if (may_be_gpu)
        gpu = std::async(std::launch::async, [b, mutants] {
            return b.get() == backend::gpu ? gpu_backend::verify_scaling(mutants) : std::vector<scaling_row>{};
        });

    // With a GPU the mapping rows are the main job's critical path, and each needs a host thread
    // to launch and wait: the CPU rows leave two cores to them (measured: issue 33 in RESULTS).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::vector<scaling_row> rows = on_every_core(cpu, may_be_gpu && cores > 4 ? cores - 2 : 0);
    std::vector<scaling_row> on_gpu = gpu.valid() ? gpu.get() : std::vector<scaling_row>{};  // rethrows a device_error
    rows.insert(rows.end(), std::make_move_iterator(on_gpu.begin()), std::make_move_iterator(on_gpu.end()));
    return rows;
}

nlohmann::json to_json(const scaling_row& r) {
    return {{"subject", r.report.subject}, {"shape", r.report.shape},   {"claim", r.report.claim},
            {"device", r.device},          {"domain", r.report.domain}, {"exhaustive", r.report.exhaustive},
            {"checks", r.report.checks},   {"mutant", r.mutant},        {"verdict", r.report.passed() ? "pass" : "fail"},
            {"counterexample", r.report.counterexample.value_or("")},   {"seconds", r.seconds},
            {"rounding", r.device == "gpu" ? "per instruction (the device has no rounding mode)" : r.report.rounding}};
}

}  // namespace flipcheck::run
