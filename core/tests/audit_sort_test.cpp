// The sort classifier must reach each answer: totalOrder from std::strong_order, zeros kept in input
// order from a stable sort, and a wrong answer without NaN from a sort that changes an element.
#include "flipcheck/audit/sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <cstring>

namespace fc = flipcheck;
namespace fa = flipcheck::audit;

template <class Sort>
static std::function<std::optional<fa::input>(const fa::input&)> sorting(Sort sort) {
    return [sort](const fa::input& xs) -> std::optional<fa::input> {
        std::vector<float> v(xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) v[i] = fc::bit_cast<float>(std::uint32_t(xs[i]));
        sort(v);
        fa::input out(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) out[i] = fc::bit_cast<std::uint32_t>(v[i]);
        return out;
    };
}

TEST(audit_sort, strong_order_sorts_by_total_order) {
    const auto v = fa::classify_sort<fc::binary32>(
        sorting([](auto& v) { std::sort(v.begin(), v.end(), [](float a, float b) { return std::strong_order(a, b) < 0; }); }), false, {}, 50);
    EXPECT_TRUE(v.without_nan);
    EXPECT_EQ(v.order, "IEEE totalOrder");
    EXPECT_EQ(v.nan.answer, "totalOrder (-NaN first, +NaN last)");
    EXPECT_EQ(v.zero.answer, "-0 before +0");
}

TEST(audit_sort, a_stable_sort_with_less_keeps_the_zeros_in_order_and_is_not_run_on_nan) {
    const auto v = fa::classify_sort<fc::binary32>(sorting([](auto& v) { std::stable_sort(v.begin(), v.end()); }), true, {}, 50);
    EXPECT_TRUE(v.without_nan);
    EXPECT_EQ(v.zero.answer, "equal, kept in input order (stable)");
    ASSERT_FALSE(v.zero.rejected.empty());
    EXPECT_EQ(v.zero.rejected[0].second.what, "+0 then -0");
    EXPECT_NE(v.nan.answer.find("not run"), std::string::npos);
}

TEST(audit_sort, nans_sorted_last_by_a_partition_are_told_from_total_order) {
    const auto v = fa::classify_sort<fc::binary32>(sorting([](auto& v) {
                                                        const auto mid = std::stable_partition(v.begin(), v.end(), [](float x) { return x == x; });
                                                        std::stable_sort(v.begin(), mid);
                                                    }),
                                                    false, {}, 50);
    EXPECT_EQ(v.nan.answer, "NaN last");
    EXPECT_EQ(v.order, "ascending, zeros equal and stable, NaN last");
}

TEST(audit_sort, a_sort_that_changes_an_element_is_wrong_without_nan) {
    const auto v = fa::classify_sort<fc::binary32>(sorting([](auto& v) {
                                                        for (auto& x : v) x = x == 0 ? 0.0f : x;  // -0 becomes +0
                                                        std::sort(v.begin(), v.end());
                                                    }),
                                                    true, {}, 50);
    EXPECT_FALSE(v.without_nan);
    ASSERT_TRUE(v.without_nan_witness);
    EXPECT_EQ(v.without_nan_witness->xs.size(), 2u);
    EXPECT_EQ(v.order, "none");
}

// `flipcheck audit --quick` stops the random arrays at 5000 elements: the same battery less the
// 300000-element arrays, every other input drawn as in the whole battery (its witnesses and replay
// names stay those of a full audit).
TEST(audit_sort, a_smaller_largest_array_leaves_out_only_the_larger_inputs) {
    const auto whole = fa::sort_battery<fc::binary32>({}, 50);
    const auto quick = fa::sort_battery<fc::binary32>({}, 50, 5000);
    std::size_t large = 0;
    for (const auto& in : whole) large += in.xs.size() > 5000;
    EXPECT_EQ(large, 2u);
    ASSERT_EQ(quick.size(), whole.size() - large);
    std::size_t i = 0;
    for (const auto& in : whole) {
        if (in.xs.size() > 5000) continue;
        EXPECT_EQ(quick[i].what, in.what);
        EXPECT_EQ(quick[i].xs, in.xs) << in.what;
        ++i;
    }
    EXPECT_EQ(std::count_if(quick.begin(), quick.end(), [](const auto& in) { return in.xs.size() == 5000; }), 2);
}
