// check/equal_mappings.hpp: two mappings agree on every key exactly when their encode and decode do;
// one that differs at a single key is told apart, and a stop leaves the answer open.
#include <gtest/gtest.h>

#include <atomic>

#include "flipcheck/check/equal_mappings.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"

namespace fc = flipcheck;

TEST(equal_mappings, the_built_ins_agree_with_each_other_and_a_one_key_mutant_does_not) {
    using H = fc::binary16;
    EXPECT_EQ((fc::agree_everywhere<fc::sign_flip<H>, fc::sign_flip_branchless<H>>()), true);
    EXPECT_EQ((fc::agree_everywhere<fc::sign_flip<H>, fc::format_key<H>>()), true);
    EXPECT_EQ((fc::agree_everywhere<fc::sign_flip<H>, fc::mutants::wrong_at_neg_denorm_min<H>>()), false);
    EXPECT_EQ((fc::agree_everywhere<fc::sign_flip<H>, fc::mutants::zeros_swapped<H>>(2)), false);
    // Agreeing is what the main job relies on: the same law failures at every key.
    for (std::uint32_t k = 0; k <= 0xffff; ++k)
        ASSERT_EQ(fc::mapping_laws<fc::sign_flip<H>>::failures(std::uint16_t(k)),
                  fc::mapping_laws<fc::sign_flip_branchless<H>>::failures(std::uint16_t(k)));
}

TEST(equal_mappings, a_stop_before_the_end_answers_nothing) {
    using H = fc::binary16;
    const std::atomic<bool> stop{true};
    EXPECT_FALSE((fc::agree_everywhere<fc::sign_flip<H>, fc::sign_flip_branchless<H>>(1, &stop)).has_value());
}
