// The audit's classifier must be able to reach each verdict: reducers built from the oracle's own
// operations are classified as exactly those operations, and a std::max fold as position-dependent.
#include "flipcheck/audit.hpp"

#include <gtest/gtest.h>

#include "flipcheck/atomic.hpp"

namespace fc = flipcheck;
namespace fa = flipcheck::audit;
using fc::reduce_op;

template <class Op>
static std::optional<std::uint64_t> fold(const fa::input& xs, Op op) {
    if (xs.empty()) return std::nullopt;
    float acc = fc::bit_cast<float>(xs[0]);
    for (std::size_t i = 1; i < xs.size(); ++i) acc = op(acc, fc::bit_cast<float>(xs[i]));
    return fc::bit_cast<std::uint32_t>(acc);
}

TEST(audit, an_ieee_maximum_fold_is_classified_as_ieee_maximum) {
    const auto v = fa::classify(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::maximum<float>); }, 300);
    EXPECT_EQ(v.policy, "IEEE maximum/minimum");
    EXPECT_FALSE(v.position_dependent);
    ASSERT_FALSE(v.rejected.empty());
    EXPECT_EQ(v.rejected[0].first, "totalOrder");
}

TEST(audit, a_maximum_number_fold_is_classified_as_maximum_number) {
    const auto v = fa::classify(reduce_op::min, false, [](const fa::input& xs) { return fold(xs, fc::oracle::minimum_number<float>); }, 300);
    EXPECT_EQ(v.policy, "IEEE maximumNumber/minimumNumber");
}

TEST(audit, the_mapped_atomic_is_classified_as_total_order) {
    using S = fc::atomic::mapped<fc::sign_flip<fc::binary32>, fc::nan_policy::total_order, reduce_op::max>;
    const auto v = fa::classify(reduce_op::max, false, [](const fa::input& xs) -> std::optional<std::uint64_t> {
        if (xs.empty()) return std::nullopt;
        fc::atomic::sequential_word<std::uint32_t> w{S::init()};
        for (auto x : xs) S::update(w, x);
        return S::result(w.value);
    }, 300);
    EXPECT_EQ(v.policy, "totalOrder");
}

TEST(audit, a_std_max_fold_is_position_dependent_with_the_proof) {
    const auto v = fa::classify(reduce_op::max, false, [](const fa::input& xs) { return fold(xs, fc::oracle::std_max<float>); }, 300);
    EXPECT_TRUE(v.position_dependent);
    EXPECT_EQ(v.policy, "none (position-dependent)");
    ASSERT_GE(v.proof.size(), 2u);
    EXPECT_NE(*v.proof[0].got, *v.proof[1].got);  // the same multiset, two answers
}

TEST(audit, numpy_argmax_is_classified_as_numpy) {
    const auto v = fa::classify(reduce_op::max, true, [](const fa::input& xs) -> std::optional<std::uint64_t> {
        std::vector<float> f;
        for (auto x : xs) f.push_back(fc::bit_cast<float>(x));
        const auto i = fc::oracle::numpy_argmax<float>(f);
        return i ? std::optional<std::uint64_t>(*i) : std::nullopt;
    }, 300);
    EXPECT_EQ(v.policy, "numpy arg (first NaN wins, first of ties)");
}
