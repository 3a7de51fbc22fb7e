// The mutant zoo: deliberately wrong subjects, each with the bug class it comes from, and the
// drivers that must kill it, cheapest first: random cases, then exhaustive (every key, or every
// pair and triple of edge values), then the GPU when one is present.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "flipcheck/run/sweep_entries.hpp"

namespace flipcheck::run {

struct kill_report {
    bool killed = false;
    std::string law, driver;  // what killed it, and how
    double seconds = 0;       // time to kill (or spent trying)
    std::uint64_t cases = 0;  // inputs tried
    std::string counterexample;  // the minimal counterexample found
};

struct mutant {
    std::string name, kind, origin, description;
    bool needs_gpu = false;
    std::function<kill_report(backend)> kill;
};

const std::vector<mutant>& mutant_zoo();

}  // namespace flipcheck::run
