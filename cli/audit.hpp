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
std::string render_observation(const audit_subject& s, const audit::observation& o);

}  // namespace flipcheck::cli
