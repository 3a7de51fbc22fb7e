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
#include "flipcheck/audit/p3008.hpp"
#include "flipcheck/audit/sort.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/format.hpp"
#include "registry.hpp"

namespace flipcheck::cli {

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
};

// The whole audit, or with `subject` set, one subject on one input (the replay every claim prints).
// Throws input_error for bad options, an unknown subject or case, or a broken adapter.
int run_audit_command(const audit_options& o, backend b, const json_file& json);

// NaNs as the backends make them, by 0/0 in the format: x86's here, CUDA's on the device (or, where
// `device` is false, what an H100 made: 0x7fffffff, 0x7fff for both 16-bit formats, and for double
// 0xfff8000000000000, negative like x86's).
std::vector<audit::made_nan> made_nans(const std::string& format, bool device);
// The formats the audit takes: binary16, bfloat16, binary32, binary64.
inline const std::vector<std::string>& audit_formats() {
    static const std::vector<std::string> f{"binary16", "bfloat16", "binary32", "binary64"};
    return f;
}
template <class Fn>
void with_audit_format(const std::string& format, Fn&& fn) {
    if (format == "binary32") fn.template operator()<binary32>();
    else if (format == "binary64") fn.template operator()<binary64>();
    else if (format == "binary16") fn.template operator()<binary16>();
    else if (format == "bfloat16") fn.template operator()<bfloat16>();
    else throw input_error("the audit does not take format '" + format + "' (it takes binary16, bfloat16, binary32, binary64)");
}

// The P3008 rows (audit_p3008.cpp): flipcheck's p3008 operations and CCCL's cuda::atomic_ref
// fetch_max/fetch_min, on the host (--device cpu) or in a kernel (--device gpu).
struct p3008_report {
    bool conforms = false;
    std::string verdict;
    std::vector<std::string> lines;  // the text under the heading
    std::vector<std::string> cells;  // the stored value on the telling pairs, in order
    nlohmann::json json;
};
std::vector<audit::p3008_subject> p3008_subjects(backend b);
p3008_report run_p3008(const audit::p3008_subject& s, std::size_t randoms);
std::string replay_p3008(const audit::p3008_subject& s, audit::word old, audit::word operand);
std::string p3008_std_note();

// The shader rows (shader.cpp), through Vulkan: the driver's own max() and min() on floats, and
// seed 001's listing; `versions` gets the device's line. Throws input_error where flipcheck was
// built without shaders, device_error where no Vulkan device runs them.
std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>& versions);

}  // namespace flipcheck::cli
