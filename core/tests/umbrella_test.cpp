// flipcheck.hpp, the one include the README offers, declares every host API the README names: a
// header left out of it fails this file's build.
#include "flipcheck/flipcheck.hpp"

#include <gtest/gtest.h>

TEST(umbrella, declares_the_checks_the_readme_names) {
    EXPECT_GT(sizeof(flipcheck::check_report), 0u);           // check.hpp
    EXPECT_GT(sizeof(flipcheck::atomic::step_plan), 0u);      // interleaving.hpp
    EXPECT_GT(sizeof(flipcheck::scaling_report), 0u);         // scaling_check.hpp
    EXPECT_GT(sizeof(flipcheck::sweep_report), 0u);           // sweep.hpp
    EXPECT_GT(sizeof(flipcheck::exhaustive_row), 0u);         // exhaustive.hpp (check_pair_reducer)
    EXPECT_EQ((flipcheck::agree_everywhere<flipcheck::sign_flip<flipcheck::binary16>, flipcheck::format_key<flipcheck::binary16>>()), true);  // equal_mappings.hpp
    EXPECT_EQ(flipcheck::to_string(flipcheck::check_stage::interleaved_steps), "interleaved_steps");
}
