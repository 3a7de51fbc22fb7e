// The audit's classifier must be able to reach each verdict: reducers built from the oracle's own
// operations are classified as exactly those operations, and a std::max fold as position-dependent.
#include "flipcheck/audit/audit.hpp"

#include <gtest/gtest.h>

#include <map>

#include "flipcheck/atomic.hpp"

namespace fc = flipcheck;
namespace fa = flipcheck::audit;
using fc::reduce_op;

template <class Op>
static std::optional<std::uint64_t> fold(const fa::input& xs, Op op) {
    if (xs.empty()) return std::nullopt;
    float acc = fc::bit_cast<float>(std::uint32_t(xs[0]));
    for (std::size_t i = 1; i < xs.size(); ++i) acc = op(acc, fc::bit_cast<float>(std::uint32_t(xs[i])));
    return fc::bit_cast<std::uint32_t>(acc);
}

// flipcheck's own keyed max: sign_flip keys under totalOrder on the sequential word.
static std::optional<std::uint64_t> keyed_max(const fa::input& xs) {
    using S = fc::atomic::mapped<fc::sign_flip<fc::binary32>, fc::nan_policy::total_order, reduce_op::max>;
    if (xs.empty()) return std::nullopt;
    fc::atomic::sequential_word<std::uint32_t> w{S::init()};
    for (auto x : xs) S::update(w, std::uint32_t(x));
    return S::result(w.value);
}

TEST(audit, an_ieee_maximum_fold_is_classified_as_ieee_maximum) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::maximum<float>); }, 300);
    EXPECT_EQ(v.policy, "IEEE maximum/minimum");
    EXPECT_FALSE(v.position_dependent);
    ASSERT_FALSE(v.rejected.empty());
    EXPECT_EQ(v.rejected[0].first, "totalOrder");
}

TEST(audit, a_maximum_number_fold_is_classified_as_maximum_number) {
    const auto v = fa::classify<fc::binary32>(reduce_op::min, false, [](const fa::input& xs) { return fold(xs, fc::oracle::minimum_number<float>); }, 300);
    EXPECT_EQ(v.policy, "IEEE maximumNumber/minimumNumber");
}

TEST(audit, the_mapped_atomic_is_classified_as_total_order) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, false, keyed_max, 300);
    EXPECT_EQ(v.policy, "totalOrder");
}

TEST(audit, a_std_max_fold_is_position_dependent_with_the_proof) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::std_max<float>); }, 300);
    EXPECT_TRUE(v.position_dependent);
    EXPECT_EQ(v.policy, "none (position-dependent)");
    ASSERT_GE(v.proof.size(), 2u);
    EXPECT_NE(*v.proof[0].got, *v.proof[1].got);  // the same multiset, two answers
}

TEST(audit, numpy_argmax_is_classified_as_numpy) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, true, [](const fa::input& xs) -> std::optional<std::uint64_t> {
        std::vector<float> f;
        for (auto x : xs) f.push_back(fc::bit_cast<float>(std::uint32_t(x)));
        const auto i = fc::oracle::numpy_argmax<float>(f);
        return i ? std::optional<std::uint64_t>(*i) : std::nullopt;
    }, 300);
    EXPECT_EQ(v.policy, "numpy arg (first NaN wins, first of ties)");
}

// CUB's DeviceReduce::Max starts from the lowest finite value: all -inf gives -FLT_MAX, a value not
// in the input, with no NaN anywhere. The audit's first answer must say so with that input.
TEST(audit, a_max_seeded_with_lowest_finite_is_wrong_without_nan_and_says_where) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, false, [](const fa::input& xs) -> std::optional<std::uint64_t> {
        float acc = -3.40282347e+38f;
        for (auto x : xs) acc = acc < fc::bit_cast<float>(std::uint32_t(x)) ? fc::bit_cast<float>(std::uint32_t(x)) : acc;
        return fc::bit_cast<std::uint32_t>(acc);
    }, 300);
    EXPECT_FALSE(v.without_nan);
    ASSERT_TRUE(v.without_nan_witness);
    EXPECT_EQ(v.without_nan_witness->what, "all -inf");
    EXPECT_EQ(*v.without_nan_witness->got, 0xff7fffffu);
    ASSERT_TRUE(v.empty.got);  // n = 0 is reported, not judged
    EXPECT_EQ(*v.empty.got, 0xff7fffffu);
}

TEST(audit, each_question_gets_its_own_answer) {
    const auto ieee = fa::classify<fc::binary32>(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::maximum<float>); }, 300);
    EXPECT_TRUE(ieee.without_nan);
    EXPECT_EQ(ieee.nan.answer, "propagate");
    EXPECT_EQ(ieee.zero.answer, "ordered");
    EXPECT_EQ(ieee.ties.answer, "n/a");
    EXPECT_FALSE(ieee.empty.got);
    const auto number = fa::classify<fc::binary32>(reduce_op::min, false, [](const fa::input& xs) { return fold(xs, fc::oracle::minimum_number<float>); }, 300);
    EXPECT_EQ(number.nan.answer, "ignore");
    const auto std_max = fa::classify<fc::binary32>(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::std_max<float>); }, 300);
    EXPECT_TRUE(std_max.without_nan);
    EXPECT_EQ(std_max.nan.answer, "none");
    EXPECT_EQ(std_max.zero.answer, "equal");
    ASSERT_EQ(std_max.zero.rejected.size(), 1u);  // not ordered: the smallest input shows it
    EXPECT_EQ(std_max.zero.rejected[0].second.xs.size(), 2u);
}

TEST(audit, a_last_of_ties_argmax_is_told_apart_from_the_first) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, true, [](const fa::input& xs) -> std::optional<std::uint64_t> {
        if (xs.empty()) return std::nullopt;
        std::size_t best = 0;
        for (std::size_t i = 1; i < xs.size(); ++i)
            if (!(fc::bit_cast<float>(std::uint32_t(xs[i])) < fc::bit_cast<float>(std::uint32_t(xs[best])))) best = i;
        return best;
    }, 300);
    EXPECT_EQ(v.ties.answer, "highest_index");
    ASSERT_FALSE(v.ties.rejected.empty());
    EXPECT_EQ(v.ties.rejected[0].first, "lowest_index");
}

// Made NaNs: a key-based max keeps CUDA's (positive, the greatest key) and drops x86's (negative).
TEST(audit, the_made_nans_show_a_keyed_max_dropping_the_negative_one) {
    const auto v = fa::classify<fc::binary32>(reduce_op::max, false, keyed_max, 50, {{"x86", 0xffc00000u}, {"CUDA", 0x7fffffffu}});
    std::map<std::string, std::uint64_t> got;
    for (const auto& o : v.provenance) got[o.what] = *o.got;
    EXPECT_EQ(got.at("x86 NaN first"), 0x3f800000u);  // dropped: 1 wins
    EXPECT_EQ(got.at("CUDA NaN first"), 0x7fffffffu);  // kept
    EXPECT_EQ(got.at("x86 NaN then CUDA NaN"), 0x7fffffffu);
}
