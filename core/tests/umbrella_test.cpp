// flipcheck.hpp, the one include the README offers, declares every host API the README names: a
// header left out of it fails this file's build. The flat paths the headers had before the layers
// (docs/architecture.md) still work: each forwards to its new place, and this file includes every
// one of them after the umbrella (a forwarding header that names a wrong path fails the build).
#include "flipcheck/flipcheck.hpp"

#include "flipcheck/audit.hpp"
#include "flipcheck/audit_intrinsics.hpp"
#include "flipcheck/audit_p3008.hpp"
#include "flipcheck/audit_sort.hpp"
#include "flipcheck/check.hpp"
#include "flipcheck/checkpoint.hpp"
#include "flipcheck/describe.hpp"
#include "flipcheck/draw.hpp"
#include "flipcheck/equal_mappings.hpp"
#include "flipcheck/exhaustive.hpp"
#include "flipcheck/export.hpp"
#include "flipcheck/interleaving.hpp"
#include "flipcheck/mutants.hpp"
#include "flipcheck/plugin.hpp"
#include "flipcheck/plugin_abi.h"
#include "flipcheck/registry.hpp"
#include "flipcheck/report.hpp"
#include "flipcheck/sampled.hpp"
#include "flipcheck/scaling_check.hpp"
#include "flipcheck/scaling_mutants.hpp"
#include "flipcheck/subjects/seed002.hpp"
#include "flipcheck/subjects/yamr.hpp"
#include "flipcheck/sweep.hpp"

#include <gtest/gtest.h>

#include <type_traits>

TEST(umbrella, declares_the_checks_the_readme_names) {
    EXPECT_GT(sizeof(flipcheck::check_report), 0u);           // check/reducers.hpp
    EXPECT_GT(sizeof(flipcheck::atomic::step_plan), 0u);      // check/interleaving.hpp
    EXPECT_GT(sizeof(flipcheck::scaling_report), 0u);         // check/scaling.hpp
    EXPECT_GT(sizeof(flipcheck::sweep_report), 0u);           // check/sweep.hpp
    EXPECT_GT(sizeof(flipcheck::exhaustive_row), 0u);         // check/exhaustive.hpp (check_pair_reducer)
    EXPECT_EQ((flipcheck::agree_everywhere<flipcheck::sign_flip<flipcheck::binary16>, flipcheck::format_key<flipcheck::binary16>>()), true);  // check/equal_mappings.hpp
    EXPECT_EQ(flipcheck::to_string(flipcheck::check_stage::interleaved_steps), "interleaved_steps");
}

// A plug-in names its formats by formats.hpp's ids, which the catalogue shares (one list).
TEST(umbrella, format_ids_are_the_catalogues) {
    EXPECT_EQ(flipcheck::registry::format_id<flipcheck::binary32>, 0x03);
    EXPECT_EQ(flipcheck::registry::format_id<flipcheck::float4_e2m1fn>, 0x0c);
    EXPECT_EQ(flipcheck::registry::all_formats::size, 12u);
}

// The report types' earlier names (one word, "report", across the family) still name them.
static_assert(std::is_same_v<flipcheck::audit::verdict, flipcheck::audit::report>);
static_assert(std::is_same_v<flipcheck::audit::sort_verdict, flipcheck::audit::sort_report>);
static_assert(std::is_same_v<flipcheck::audit::p3008_verdict, flipcheck::audit::p3008_report>);
