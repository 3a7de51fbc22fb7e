// The project's one harness for running a RapidCheck property with a chosen seed and no output,
// shared by the property suites (rapidcheck/tests/) and the kill-rate benchmark (bench/): a mutant's
// property must FAIL, and how often it does at a budget is what the benchmark measures. RapidCheck's
// public API takes its seed and budget from RC_PARAMS, once per process, so a run per seed needs its
// internal rc::detail::checkTestable; never installed (users get flipcheck/rapidcheck.hpp's macros).
#pragma once
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <cstdint>
#include <utility>

namespace flipcheck::props {

// Runs a property outside GoogleTest's reporting and returns RapidCheck's verdict, e.g. to assert
// that a law set FAILS on a mutant. A FailureResult holds the shrunk counterexample. Nothing is
// printed and nothing joins the reproduce line printed at exit.
template <class Testable>
rc::detail::TestResult run_quietly(Testable&& t, std::uint64_t seed = 1, int max_success = 100, bool shrink = true) {
    rc::detail::TestParams params;
    params.seed = seed;
    params.maxSuccess = max_success;
    params.disableShrinking = !shrink;
    rc::detail::TestListenerAdapter quiet;
    return rc::detail::checkTestable(std::forward<Testable>(t), rc::detail::TestMetadata{}, params, quiet);
}

}  // namespace flipcheck::props
