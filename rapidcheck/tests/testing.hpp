// The property suites' own helpers, on top of the installed flipcheck/rapidcheck.hpp: typed suites
// over the registry and running a property quietly to assert that it FAILS on a mutant. These use
// RapidCheck's internal rc::detail API (checkGTest for typed tests, checkTestable for quiet runs),
// which is why they are never installed: users get the public macros of flipcheck/rapidcheck.hpp.
#pragma once
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <utility>

#include "flipcheck/law.hpp"
#include "flipcheck/rapidcheck.hpp"

namespace flipcheck::props {

// The property of law l (flipcheck/rapidcheck.hpp's, for a typed suite).
template <mapping M>
auto law_property(law_id l) {
    return [l] { rapidcheck::mapping_law<M>(l, "MappingLaws"); };
}

template <mapping M>
void check_law(law_id l) {
    rc::detail::checkGTest(law_property<M>(l));
}

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
