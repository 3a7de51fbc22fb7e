#include "flipcheck/run/machine.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::run {

namespace {

bool gpu_used = false;
std::vector<std::pair<std::string, std::string>> libraries;  // name, version

// The SIMD features a library may pick its code path by, as /proc/cpuinfo names them (x86's
// "flags", Arm's "Features"); the rest of the list says nothing about float results.
const std::set<std::string>& dispatch_features() {
    static const std::set<std::string> f{"sse4_1",      "sse4_2",      "avx",         "avx2",        "fma",       "f16c",
                                         "avx512f",     "avx512bw",    "avx512vl",    "avx512dq",    "avx512cd",  "avx512_bf16",
                                         "avx512_fp16", "avx512_vnni", "avx512vbmi",  "avx512_vbmi2", "gfni",     "vaes",
                                         "amx_tile",    "asimd",       "asimdhp",     "sve",         "sve2",      "bf16",
                                         "fphp",        "i8mm"};
    return f;
}

struct cpu_facts {
    std::string model = "unknown CPU";
    std::vector<std::string> features;
};

cpu_facts read_cpu() {
    cpu_facts c;
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    bool have_model = false, have_flags = false;
    while (std::getline(in, line) && !(have_model && have_flags)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        if (!have_model && (key == "model name" || key == "CPU part")) c.model = value, have_model = key == "model name";
        if (!have_flags && (key == "flags" || key == "Features")) {
            std::istringstream words(value);
            for (std::string w; words >> w;)
                if (dispatch_features().count(w)) c.features.push_back(w);
            have_flags = true;
        }
    }
    return c;
}

const cpu_facts& cpu() {
    static const cpu_facts c = read_cpu();
    return c;
}

std::string gpu_text() {
    if (!gpu_used) return "";
    try {
        return gpu_backend::device_name();
    } catch (const std::exception&) {
        return "";  // the command already said why the device failed
    }
}

}  // namespace

void note_gpu_used() { gpu_used = true; }

void note_library(const std::string& name, const std::string& version) {
    for (const auto& l : libraries)
        if (l.first == name && l.second == version) return;
    libraries.emplace_back(name, version);
}

nlohmann::json environment_json() {
    const float_environment e = current_float_environment();
    nlohmann::json j{{"cpu", cpu().model},
                     {"cpu_features", cpu().features},
                     {"process", {{"rounding", e.known_rounding ? to_string(e.rounding) : "unknown"}, {"ftz", e.ftz}, {"daz", e.daz}}},
                     {"checks_run_in", "IEEE 754 default: rounding to_nearest, subnormals kept (set for every check)"}};
    if (const std::string g = gpu_text(); !g.empty()) j["gpu"] = g;
    if (!libraries.empty()) {
        j["libraries"] = nlohmann::json::array();
        for (const auto& [name, version] : libraries) j["libraries"].push_back({{"name", name}, {"version", version}});
    }
    return j;
}

std::string environment_line() {
    const float_environment e = current_float_environment();
    std::string features;
    for (const auto& f : cpu().features) features += (features.empty() ? "" : " ") + f;
    std::string line = fmt::format("environment: {}{}; checks in IEEE's default floating-point environment (rounding to_nearest, "
                                   "subnormals kept)",
                                   cpu().model, features.empty() ? "" : " (" + features + ")");
    if (!e.ieee_default())
        line += fmt::format("; this process has {}: flipcheck set the default for each check and restored it after", environment_words(e));
    if (const std::string g = gpu_text(); !g.empty()) line += "; GPU " + g + " (each instruction rounds as it names, -ftz=false)";
    for (const auto& [name, version] : libraries) line += fmt::format("; {} {}", name, version);
    return line;
}

}  // namespace flipcheck::run
