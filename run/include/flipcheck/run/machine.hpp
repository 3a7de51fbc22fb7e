// Where a result was computed, which every report names (docs/environment.md): the CPU's model and
// the SIMD features code may dispatch to on it, the floating-point environment the process has and
// the one every check runs in (float_environment.hpp: IEEE's default, set for each check), and the
// GPU when the command used one.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace flipcheck::run {

// Says that this command runs on the GPU (its name goes into the environment).
void note_gpu_used();

// {"cpu": ..., "cpu_features": [...], "process": {"rounding", "ftz", "daz"}, "checks_run_in": ..., "gpu": ...}
nlohmann::json environment_json();
// One line for a text report: "environment: <cpu> (<features>); checks in IEEE's default (...); process: ...".
std::string environment_line();

}  // namespace flipcheck::run
