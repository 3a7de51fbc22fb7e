// The audit's own CPU subjects and what it needs to judge any subject: the NaNs each backend
// makes, and the formats it takes. `flipcheck audit` (cli/audit.cpp) adds the GPU's, the shaders'
// and the frameworks' subjects and shows the verdicts.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/audit/shrink_witnesses.hpp"
#include "flipcheck/audit/sort.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/format.hpp"

namespace flipcheck::run {

// The standard library's folds and max_element, flipcheck's keyed max and min, Eigen's maxCoeff and
// minCoeff under each NaN propagation option, and Thrust's host backend where it was found at build
// time.
std::vector<audit::subject> cpu_subjects();
// std::sort, std::stable_sort and std::ranges::sort with strong_order, Boost.Sort's float_sort, and
// Thrust's host sort.
std::vector<audit::sort_subject> cpu_sort_subjects();
// "Thrust: 2.x.y (host backend)", or that it was not found at build time.
std::string thrust_version();
// Eigen's version, for the audit's environment lines.
std::string eigen_version();
// Boost's version, likewise.
std::string boost_version();

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

// A subject's answers to the audit's questions, on NaNs made as `device` makes them; the witnesses
// of one that answers any input are shrunk (an adapter's: run/adapter.hpp's shrink_witnesses).
audit::report classify(const audit::subject& s, std::size_t randoms, bool device);
audit::sort_report classify(const audit::sort_subject& s, bool device, std::size_t randoms,
                            std::size_t largest = audit::largest_sort_input);
// A sort's answer on xs: nothing where a NaN makes its comparison undefined behaviour (not run).
std::optional<audit::input> sort_answer(const audit::sort_subject& s, const audit::input& xs);

}  // namespace flipcheck::run
