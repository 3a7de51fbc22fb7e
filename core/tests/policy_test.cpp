// The policy semantics documented in policy.hpp, as the oracle's reduce/arg_reduce implement them.
#include "flipcheck/policy.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "flipcheck/oracle.hpp"

namespace fc = flipcheck;
namespace o = flipcheck::oracle;
using F = fc::binary32;
using fc::nan_policy, fc::zero_policy, fc::tie_policy, fc::reduce_op;

// -1, +qNaN, -0, 2, -qNaN, +0, 2
static const std::vector<std::uint32_t> mixed{0xbf800000u, 0x7fc00000u, 0x80000000u, 0x40000000u,
                                             0xffc00000u, 0x00000000u, 0x40000000u};
static const std::vector<std::uint32_t> numbers{0xbf800000u, 0x80000000u, 0x40000000u, 0x00000000u, 0x40000000u};

TEST(policy, names_are_the_cli_names) {
    EXPECT_EQ(fc::to_string(nan_policy::total_order), "total_order");
    EXPECT_EQ(fc::to_string(nan_policy::undefined), "undefined");
    EXPECT_EQ(fc::to_string(zero_policy::equal), "equal");
    EXPECT_EQ(fc::to_string(tie_policy::highest_index), "highest_index");
}

TEST(policy, total_order_max_is_the_positive_nan_and_min_the_negative_one) {
    const fc::policy p{nan_policy::total_order};
    EXPECT_EQ(o::reduce<F>(p, reduce_op::max, mixed), 0x7fc00000u);
    EXPECT_EQ(o::reduce<F>(p, reduce_op::min, mixed), 0xffc00000u);
    EXPECT_EQ(o::arg_reduce<F>(p, reduce_op::max, mixed), 1u);
}

TEST(policy, propagate_returns_a_nan_and_argmax_the_first_nan) {
    const fc::policy p{nan_policy::propagate};
    const auto r = o::reduce<F>(p, reduce_op::min, mixed);
    ASSERT_TRUE(r);
    EXPECT_TRUE(F::is_nan_bits(*r));
    EXPECT_EQ(o::arg_reduce<F>(p, reduce_op::max, mixed), 1u);
    EXPECT_EQ(o::arg_reduce<F>(p, reduce_op::min, mixed), 1u);
    const fc::policy last{nan_policy::propagate, zero_policy::ordered, tie_policy::highest_index};
    EXPECT_EQ(o::arg_reduce<F>(last, reduce_op::max, mixed), 4u);
}

TEST(policy, ignore_skips_nans_and_orders_zeros) {
    const fc::policy p{nan_policy::ignore};
    EXPECT_EQ(o::reduce<F>(p, reduce_op::max, mixed), 0x40000000u);
    EXPECT_EQ(o::reduce<F>(p, reduce_op::min, mixed), 0xbf800000u);
    const std::vector<std::uint32_t> zeros{0x00000000u, 0x80000000u};
    EXPECT_EQ(o::reduce<F>(p, reduce_op::max, zeros), 0x00000000u);
    EXPECT_EQ(o::reduce<F>(p, reduce_op::min, zeros), 0x80000000u);
    const std::vector<std::uint32_t> all_nan{0x7fc00000u, 0xffc00000u};
    EXPECT_TRUE(F::is_nan_bits(*o::reduce<F>(p, reduce_op::max, all_nan)));
    EXPECT_EQ(o::arg_reduce<F>(p, reduce_op::max, all_nan), std::nullopt);
}

TEST(policy, ties_pick_lowest_or_highest_index) {
    const fc::policy lo{nan_policy::ignore, zero_policy::ordered, tie_policy::lowest_index};
    const fc::policy hi{nan_policy::ignore, zero_policy::ordered, tie_policy::highest_index};
    EXPECT_EQ(o::arg_reduce<F>(lo, reduce_op::max, numbers), 2u);
    EXPECT_EQ(o::arg_reduce<F>(hi, reduce_op::max, numbers), 4u);
}

TEST(policy, zero_equal_makes_signed_zeros_tie) {
    const std::vector<std::uint32_t> zeros{0x80000000u, 0x00000000u};
    const fc::policy ordered{nan_policy::ignore, zero_policy::ordered};
    const fc::policy equal{nan_policy::ignore, zero_policy::equal};
    EXPECT_EQ(o::arg_reduce<F>(ordered, reduce_op::max, zeros), 1u);
    EXPECT_EQ(o::arg_reduce<F>(equal, reduce_op::max, zeros), 0u);
    EXPECT_EQ(o::arg_reduce<F>(ordered, reduce_op::min, zeros), 0u);
}

TEST(policy, empty_input_has_no_result) {
    const std::vector<std::uint32_t> none;
    EXPECT_EQ(o::reduce<F>(fc::policy{}, reduce_op::max, none), std::nullopt);
    EXPECT_EQ(o::arg_reduce<F>(fc::policy{}, reduce_op::min, none), std::nullopt);
}
