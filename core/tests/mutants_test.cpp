// Every mutant in mutants.hpp must be killed by the mapping laws, by the law named here.
#include "flipcheck/catalog/mutants.hpp"

#include <gtest/gtest.h>

#include "flipcheck/law.hpp"

namespace fc = flipcheck;
using fc::law_id;

template <class M>
fc::law_set laws_failing_over_16_bits() {
    fc::law_set failed = 0;
    for (std::uint32_t k = 0; k <= 0xffff; ++k) failed |= fc::mapping_laws<M>::failures(std::uint16_t(k));
    return failed;
}

template <template <class> class M>
void expect_killed_by(fc::law_set must) {
    EXPECT_EQ(laws_failing_over_16_bits<M<fc::binary16>>() & must, must) << M<fc::binary16>::name;
    EXPECT_EQ(laws_failing_over_16_bits<M<fc::bfloat16>>() & must, must) << M<fc::bfloat16>::name;
}

TEST(mutants, sign_bit_only_is_killed_by_order) { expect_killed_by<fc::mutants::sign_bit_only>(fc::law_bit(law_id::successor_order)); }
TEST(mutants, no_invert_negatives_is_killed_by_round_trip) {
    expect_killed_by<fc::mutants::no_invert_negatives>(fc::law_bit(law_id::round_trip_key) | fc::law_bit(law_id::round_trip_bits));
}
TEST(mutants, wrong_inverse_branch_is_killed_by_round_trip) {
    expect_killed_by<fc::mutants::wrong_inverse_branch>(fc::law_bit(law_id::round_trip_key));
}
TEST(mutants, zeros_swapped_is_killed_by_zero_placement_and_order) {
    expect_killed_by<fc::mutants::zeros_swapped>(fc::law_bit(law_id::zero_placement) | fc::law_bit(law_id::successor_order));
}
TEST(mutants, wrong_at_neg_denorm_min_fails_at_exactly_one_key) {
    using M = fc::mutants::wrong_at_neg_denorm_min<fc::binary16>;
    int failing = 0;
    for (std::uint32_t k = 0; k <= 0xffff; ++k) failing += fc::mapping_laws<M>::failures(std::uint16_t(k)) != 0;
    // Keys 0x7ffd/0x7ffe now hold -denorm_min/-2*denorm_min: only that successor pair is out of order.
    EXPECT_EQ(failing, 1);
    EXPECT_FALSE(fc::mapping_laws<M>::holds(law_id::successor_order, 0x7ffd));
}
