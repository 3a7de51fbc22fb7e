// The main job's third part: the FP8/MX scaling path (amax, scales, decoders, block pipelines,
// quantizers: registry::scaling) and the canonical keys (registry::keys) against the oracle, on the CPU always and, with a GPU, gpu/amax.hpp's kernels
// too; and the scaling mutants for `flipcheck mutants`.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flipcheck/check/scaling.hpp"
#include "flipcheck/run/sweep_entries.hpp"

namespace flipcheck::run {

struct scaling_row {
    scaling_report report;
    std::string device;  // "cpu" or "gpu"
    bool mutant = false;
    double seconds = 0;
    bool as_expected() const { return report.passed() != mutant; }
};

// mutants = false: every built-in (registry::scaling and registry::keys on every format each has,
// then the GPU's own with a GPU); true: every scaling and key mutant (registry::scaling_mutants,
// registry::key_mutants, then the GPU twins).
// With a backend still being chosen, the CPU's rows start at once and the GPU's wait for it.
std::vector<scaling_row> verify_scaling(const pending_backend& b, bool mutants);
nlohmann::json to_json(const scaling_row& r);

}  // namespace flipcheck::run
