// `flipcheck audit`: the subjects (reducers and sorts, CPU and GPU, shaders, frameworks through an
// adapter process), the questions core's flipcheck/audit/audit.hpp and audit/sort.hpp ask of them, and
// the report in text, JSON and Markdown.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output.hpp"
#include "flipcheck/audit/audit.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::cli {

using run::backend;
using audit_subject = audit::subject;

struct audit_options {
    std::size_t randoms = 2000;
    bool shaders = false, shaders_only = false, markdown = false, quick = false;
    // Only the frameworks' rows (the adapters): what they do depends on the machine (NumPy 1.24 sorts
    // float32 with AVX-512 where the CPU has it, and writes every NaN back as 0x7fc00000), so
    // docs/audit.md keeps them in their own section, apart from the rows a test holds current.
    bool frameworks_only = false;
    std::string subject, case_name, input;  // replay one subject on one input
    std::vector<std::string> adapters;      // framework adapter commands (adapters/README.md)
    bool default_adapters = true;           // also the adapters kept in the repo
    bool conversions = false;               // the conversion table instead (conversions.cpp)
};

// The whole audit, or with `subject` set, one subject on one input (the replay every claim prints).
// Throws input_error for bad options, an unknown subject or case, or a broken adapter.
int run_audit_command(const audit_options& o, backend b, const json_file& json);

// `flipcheck audit --conversions` (conversions.cpp): what each float conversion does, on every
// binary32 input (--quick: the sampled domain).
int run_conversion_audit(const audit_options& o, backend b, const json_file& json);

// A Markdown table cell: "<double>" would read as an HTML tag and vanish.
std::string cell(std::string s);

// The host's CPU and SIMD level, and today's date (UTC): the head of every audit section.
std::string host_cpu();
std::string today();

// The shader rows (shader.cpp), through Vulkan: the driver's own max() and min() on floats, and
// seed 001's listing; `versions` gets the device's line. Throws input_error where flipcheck was
// built without shaders, device_error where no Vulkan device runs them.
std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>& versions);

}  // namespace flipcheck::cli
