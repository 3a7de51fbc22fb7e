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
// Says that this command's subjects are a library's, at this version (an adapter's framework: NumPy
// 2.1.3): the verdict holds for that version, so the environment names it.
void note_library(const std::string& name, const std::string& version);

// {"cpu": ..., "cpu_features": [...], "process": {"rounding", "ftz", "daz"}, "checks_run_in": ..., "gpu": ...,
//  "libraries": [{"name", "version"}]}
nlohmann::json environment_json();
// One line for a text report: "environment: <cpu> (<features>); checks in IEEE's default (...); process: ...".
std::string environment_line();

}  // namespace flipcheck::run
