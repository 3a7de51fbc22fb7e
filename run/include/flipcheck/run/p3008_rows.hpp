// The audit's P3008 rows: flipcheck's p3008 operations and CCCL's cuda::atomic_ref fetch_max and
// fetch_min, on the host or in a kernel, judged by core's audit/p3008.hpp.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flipcheck/audit/p3008.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::run {

struct p3008_row {
    bool conforms = false;
    std::string verdict;
    std::vector<std::string> lines;  // the text under the heading
    std::vector<std::string> cells;  // the stored value on the telling pairs, in order
    nlohmann::json json;
};
// The subjects on the host (backend::cpu) or in a kernel (backend::gpu).
std::vector<audit::p3008_subject> p3008_subjects(backend b);
p3008_row run_p3008(const audit::p3008_subject& s, std::size_t randoms);
std::string replay_p3008(const audit::p3008_subject& s, audit::word old, audit::word operand);
std::string p3008_std_note();

}  // namespace flipcheck::run
