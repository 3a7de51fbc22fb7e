// Runtime names for compile-time subjects: which (format, mapping) pairs the command can sweep.
// Built-ins are what the main job verifies; mutants are known-wrong mappings that must fail.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/sweep.hpp"

namespace flipcheck::cli {

enum class backend { cpu, gpu };

struct subject {
    std::string format, mapping;
    bool builtin;             // false: a mutant, kept out of the main job
    std::string description;  // one line
    std::function<sweep_report(const sweep_options&, backend)> run;
    // GPU and CPU on the same options; one line per difference (empty: they agree exactly).
    std::function<std::vector<std::string>(const sweep_options&)> cross_check;
};

const std::vector<subject>& subjects();
const subject* find_subject(std::string_view format, std::string_view mapping);
std::vector<std::string> format_names();
std::vector<std::string> mapping_names(bool builtin_only);
bool gpu_available();
double gpu_start_up();  // seconds to create the CUDA context (call only with a GPU)

}  // namespace flipcheck::cli
