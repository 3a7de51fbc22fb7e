// The audit's subjects and rows; see audit.cpp and core's flipcheck/audit.hpp.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "flipcheck/audit.hpp"
#include "registry.hpp"

namespace flipcheck::cli {

using audit_subject = audit::subject;

struct audit_row {
    audit_subject subject;
    audit::verdict verdict;
};

std::vector<audit_subject> audit_subjects(backend b);
std::vector<std::string> audit_versions();
audit_row run_audit(const audit_subject& s, std::size_t randoms);
// The shader rows (shader.cpp), through Vulkan: the driver's own max() and min() on floats, and
// seed 001's listing; `versions` gets the device's line. Throws input_error where flipcheck was
// built without shaders, device_error where no Vulkan device runs them.
std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>& versions);
std::string render_observation(const audit_subject& s, const audit::observation& o);

}  // namespace flipcheck::cli
