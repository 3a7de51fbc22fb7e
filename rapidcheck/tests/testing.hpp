// The property suites' own helpers, on top of the installed flipcheck/rapidcheck.hpp: typed suites
// over the registry, and (harness/run_quietly.hpp) running a property quietly to assert that it
// FAILS on a mutant. These use RapidCheck's internal rc::detail API (checkGTest for typed tests),
// which is why they are never installed: users get the public macros of flipcheck/rapidcheck.hpp.
#pragma once
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "flipcheck/law.hpp"
#include "flipcheck/rapidcheck.hpp"
#include "run_quietly.hpp"

namespace flipcheck::props {

// The property of law l (flipcheck/rapidcheck.hpp's, for a typed suite).
template <mapping M>
auto law_property(law_id l) {
    return [l] {
        if (const std::string what_failed = rapidcheck::mapping_law<M>(l, "MappingLaws"); !what_failed.empty()) RC_FAIL(what_failed);
    };
}

template <mapping M>
void check_law(law_id l) {
    rc::detail::checkGTest(law_property<M>(l));
}

}  // namespace flipcheck::props
