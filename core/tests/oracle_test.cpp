#include "flipcheck/oracle.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace fc = flipcheck;
namespace o = flipcheck::oracle;

static float f(std::uint32_t b) { return fc::bit_cast<float>(b); }
static std::uint32_t u(float x) { return fc::bit_cast<std::uint32_t>(x); }

// Every special class of binary32 in ascending IEEE totalOrder, written by hand, with NaNs of
// both signs ordered by quietness and payload.
static const std::vector<std::uint32_t> ascending{
    0xffc00002u, 0xffc00001u, 0xffc00000u,  // -qNaN, larger payload first
    0xff800002u, 0xff800001u,               // -sNaN
    0xff800000u,                            // -inf
    0xff7fffffu, 0xbf800000u, 0x80800000u,  // -max, -1, -min_normal
    0x807fffffu, 0x80000001u,               // -max_sub, -denorm_min
    0x80000000u, 0x00000000u,               // -0, +0
    0x00000001u, 0x007fffffu,               // +denorm_min, +max_sub
    0x00800000u, 0x3f800000u, 0x7f7fffffu,  // +min_normal, +1, +max
    0x7f800000u,                            // +inf
    0x7f800001u, 0x7f800002u,               // +sNaN
    0x7fc00000u, 0x7fc00001u, 0x7fc00002u,  // +qNaN
};

TEST(oracle, total_less_agrees_with_the_hand_written_order_for_every_pair) {
    for (std::size_t i = 0; i < ascending.size(); ++i)
        for (std::size_t j = 0; j < ascending.size(); ++j) {
            EXPECT_EQ(o::total_less(f(ascending[i]), f(ascending[j])), i < j)
                << std::hex << ascending[i] << " vs " << ascending[j];
            EXPECT_EQ(o::total_order(f(ascending[i]), f(ascending[j])), i <= j);
        }
}

TEST(oracle, total_less_for_double_nan_payloads_and_zeros) {
    const double nq = fc::bit_cast<double>(0x7ff8000000000000u), ns = fc::bit_cast<double>(0x7ff0000000000001u);
    EXPECT_TRUE(o::total_less(ns, nq));
    EXPECT_TRUE(o::total_less(-nq, -ns));
    EXPECT_TRUE(o::total_less(-0.0, 0.0));
    EXPECT_FALSE(o::total_less(0.0, -0.0));
    EXPECT_TRUE(o::total_less(std::numeric_limits<double>::infinity(), ns));
}

constexpr float inf = std::numeric_limits<float>::infinity();
static const float qnan = f(0x7fc00000u), nqnan = f(0xffc00000u);

TEST(oracle, ieee_maximum_minimum_propagate_nan_and_order_zeros) {
    EXPECT_TRUE(std::isnan(o::maximum(qnan, 1.0f)));
    EXPECT_TRUE(std::isnan(o::maximum(1.0f, nqnan)));
    EXPECT_TRUE(std::isnan(o::minimum(-inf, qnan)));
    EXPECT_EQ(u(o::maximum(-0.0f, 0.0f)), 0x00000000u);
    EXPECT_EQ(u(o::maximum(0.0f, -0.0f)), 0x00000000u);
    EXPECT_EQ(u(o::minimum(0.0f, -0.0f)), 0x80000000u);
    EXPECT_EQ(u(o::minimum(-0.0f, 0.0f)), 0x80000000u);
    EXPECT_EQ(o::maximum(-inf, 3.0f), 3.0f);
    EXPECT_EQ(o::minimum(inf, f(0x80000001u)), f(0x80000001u));
}

TEST(oracle, ieee_maximum_number_skips_nan) {
    EXPECT_EQ(o::maximum_number(qnan, 1.0f), 1.0f);
    EXPECT_EQ(o::maximum_number(-inf, nqnan), -inf);
    EXPECT_EQ(o::minimum_number(f(0x7f800001u), 2.0f), 2.0f);
    EXPECT_TRUE(std::isnan(o::maximum_number(qnan, nqnan)));
    EXPECT_EQ(u(o::maximum_number(-0.0f, 0.0f)), 0u);
    EXPECT_EQ(u(o::minimum_number(0.0f, -0.0f)), 0x80000000u);
}

TEST(oracle, c_fmax_fmin_skip_nan_and_keep_the_first_equal_operand) {
    EXPECT_EQ(o::fmax(qnan, -1.0f), -1.0f);
    EXPECT_EQ(o::fmin(2.0f, qnan), 2.0f);
    EXPECT_EQ(u(o::fmax(-0.0f, 0.0f)), 0x80000000u);  // C leaves this sign unspecified
    EXPECT_EQ(u(o::fmax(0.0f, -0.0f)), 0x00000000u);
}

TEST(oracle, std_max_is_position_dependent_with_nan) {
    EXPECT_TRUE(std::isnan(o::std_max(qnan, 1.0f)));
    EXPECT_EQ(o::std_max(1.0f, qnan), 1.0f);
    EXPECT_EQ(u(o::std_max(-0.0f, 0.0f)), 0x80000000u);
    EXPECT_EQ(o::std_min(1.0f, qnan), 1.0f);
    EXPECT_TRUE(std::isnan(o::std_min(qnan, 1.0f)));
}

TEST(oracle, numpy_argmax_first_nan_wins_and_ties_go_low) {
    const std::vector<float> a{1.0f, 3.0f, qnan, 3.0f, nqnan};
    EXPECT_EQ(o::numpy_argmax<float>(a), 2u);
    EXPECT_EQ(o::numpy_argmin<float>(a), 2u);
    const std::vector<float> b{1.0f, 3.0f, -2.0f, 3.0f, -2.0f};
    EXPECT_EQ(o::numpy_argmax<float>(b), 1u);
    EXPECT_EQ(o::numpy_argmin<float>(b), 2u);
    const std::vector<float> z{-0.0f, 0.0f};
    EXPECT_EQ(o::numpy_argmax<float>(z), 0u);  // numpy: -0 == +0
    EXPECT_EQ(o::numpy_argmax<float>(std::vector<float>{}), std::nullopt);
}

TEST(oracle, same_result_is_exact_except_where_the_policy_frees_it) {
    using F = fc::binary32;
    const fc::policy total{}, prop{fc::nan_policy::propagate}, eq{fc::nan_policy::total_order, fc::zero_policy::equal};
    EXPECT_TRUE(o::same_result<F>(total, 0x3f800000u, 0x3f800000u));
    EXPECT_FALSE(o::same_result<F>(total, 0x7fc00000u, 0x7fc00001u));
    EXPECT_TRUE(o::same_result<F>(prop, 0x7fc00000u, 0xff800001u));
    EXPECT_FALSE(o::same_result<F>(prop, 0x00000000u, 0x80000000u));
    EXPECT_TRUE(o::same_result<F>(eq, 0x00000000u, 0x80000000u));
}
