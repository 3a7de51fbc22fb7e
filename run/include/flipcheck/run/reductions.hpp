// The main job's second half: every registered reducer against the oracle, under each policy it
// claims, for every format. On the GPU these are the GPU reducers (all arrays of a check in one
// launch); on the CPU, the same update code of core/atomic.hpp and core/p3008.hpp replayed one
// atomic step at a time in a shuffled order. On both, the keyed folds of reducer.hpp over every
// built-in mapping, under every policy. Inputs: every edge value alone, every ordered
// pair of edge values, all -inf / all NaN / both zeros, and `randoms` random arrays with ties.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flipcheck/run/sweep_entries.hpp"

namespace flipcheck::run {

struct reduction_row {
    std::string reducer, format, device;
    std::size_t checks = 0;  // (array, operation, policy) triples judged
    std::string failure;     // the first counterexample; empty when every check passed
    bool passed() const { return failure.empty(); }
};

// With a backend still being chosen, the host's checks start at once and the GPU's wait for it.
std::vector<reduction_row> verify_reductions(const pending_backend& b, std::size_t randoms);
nlohmann::json to_json(const reduction_row& r);

}  // namespace flipcheck::run
