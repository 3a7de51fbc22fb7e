// canonical_key.hpp and check/canonical_keys.hpp: the built-in keys pass under their declared
// equivalence on every 16-bit code and a binary32 and binary64 sample, each mutant fails its law with the
// public bug's symptom, and the laws see what they must (a key right everywhere but at one pair).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "flipcheck/canonical_key.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"

namespace fc = flipcheck;
using fc::law_id;

TEST(canonical_keys, every_built_in_passes) {
    int n = 0;
    fc::registry::for_each<fc::registry::key_instances>([&]<class I>() {
        const auto r = fc::check_scaling<typename I::type>();
        EXPECT_TRUE(r.passed()) << I::entry::name << " on " << I::format::name << ": " << r.counterexample.value_or("");
        EXPECT_GE(r.checks, 65536u);
        ++n;
    });
    EXPECT_EQ(n, 13);  // 3 keys on binary16, bfloat16, binary32 and binary64, sql_key_widened on binary32
}

TEST(canonical_keys, every_mutant_is_killed_by_its_law) {
    int n = 0;
    fc::registry::for_each<fc::registry::key_mutant_instances>([&]<class I>() {
        const auto r = fc::check_scaling<typename I::type>();
        EXPECT_TRUE(r.failed & fc::law_bit(I::entry::killed_by)) << I::entry::name << " on " << I::format::name << ": "
                                                                  << r.counterexample.value_or("(passed)");
        ++n;
    });
    EXPECT_EQ(n, 9);  // 2 mutants on the four formats, the little-endian one on binary32
}

TEST(canonical_keys, the_counterexamples_are_the_bugs) {
    // rad#2 / doradb#1108: -0 and +0, two keys.
    const auto zeros = fc::check_scaling<fc::mutants::sql_key_signed_zeros<fc::binary32>>();
    EXPECT_EQ(zeros.counterexample.value_or(""),
              "key_equivalence: 0x80000000 (-0 zero) and 0x00000000 (0 zero) are equal under sql, but their keys are 0x7fffffff and 0x80000000");
    EXPECT_EQ(zeros.replay, "binary32: 0x80000000,0x00000000");
    const auto bytes = fc::check_scaling<fc::mutants::sql_key_little_endian<fc::binary32>>();
    EXPECT_NE(bytes.counterexample.value_or("").find("key_order: 0xff800000 (-inf inf) and 0xff7fffff"), std::string::npos)
        << bytes.counterexample.value_or("");
}

// The same key under total_order fails: -0 and +0 are two classes there, and NaNs are many.
struct sql_key_declared_total_order : fc::sql_key<fc::binary16> {
    static constexpr fc::equivalence declared = fc::equivalence::total_order;
};
TEST(canonical_keys, a_key_is_judged_by_the_equivalence_it_declares) {
    const auto r = fc::check_scaling<sql_key_declared_total_order>();
    ASSERT_FALSE(r.passed());
    EXPECT_TRUE(r.failed & fc::law_bit(law_id::key_order)) << *r.counterexample;
}

// Under numeric, NaNs are not judged: a key that keys NaNs anywhere passes.
struct numeric_key_nans_anywhere {
    using format = fc::binary16;
    static constexpr fc::equivalence declared = fc::equivalence::numeric;
    static std::uint16_t key(std::uint16_t x) { return fc::binary16::is_nan_bits(x) ? 0 : fc::sql_key<fc::binary16>::key(x); }
};
TEST(canonical_keys, numeric_leaves_nans_out) {
    const auto r = fc::check_scaling<numeric_key_nans_anywhere>();
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_NE(r.domain.find("NaNs not judged"), std::string::npos);
}

// Right everywhere but one pair of neighbours far from any edge: the exhaustive walk finds it.
struct wrong_at_one_code {
    using format = fc::binary16;
    static constexpr fc::equivalence declared = fc::equivalence::sql;
    static std::uint16_t key(std::uint16_t x) {
        const std::uint16_t k = fc::sql_key<fc::binary16>::key(x);
        return x == 0x3c01 ? std::uint16_t(k + 1) : k;  // 1 + 2^-10 takes its successor's key
    }
};
TEST(canonical_keys, a_one_code_bug_is_found) {
    const auto r = fc::check_scaling<wrong_at_one_code>();
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("0x3c01"), std::string::npos) << *r.counterexample;
}
