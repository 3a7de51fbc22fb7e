// check/shrink.hpp: the one shrinker. It must end at a case that still fails, as small as the
// greedy steps can make it, keep the kept elements' order, make elements simpler, and stay within
// its limits.
#include "flipcheck/check/shrink.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace fc = flipcheck;
using F = fc::binary32;
using S = F::storage;

namespace {
constexpr S one = 0x3f800000u, two = 0x40000000u, a_nan = 0x7fc00001u;
bool has_nan(const std::vector<S>& xs) { return std::any_of(xs.begin(), xs.end(), [](S x) { return F::is_nan_bits(x); }); }
}  // namespace

TEST(shrink, a_long_array_ends_at_the_one_element_that_fails_it) {
    std::vector<S> xs(1000, two);
    xs[617] = a_nan;
    const auto small = fc::shrink<F>(xs, has_nan);
    ASSERT_EQ(small.size(), 1u);
    EXPECT_TRUE(F::is_nan_bits(small[0]));
    EXPECT_EQ(small[0], F::quiet_nan) << "a NaN's payload is simplified to the canonical quiet NaN";
}

TEST(shrink, elements_are_made_simpler_while_it_still_fails) {
    // Fails while some element is at least 1: the others become +0 and are then dropped; the one
    // that stays is made as simple as still fails (1 itself: fewer mantissa bits, smaller exponent).
    auto fails = [](const std::vector<S>& xs) { return std::any_of(xs.begin(), xs.end(), [](S x) { return x < 0x80000000u && x >= one; }); };
    const auto small = fc::shrink<F>(std::vector<S>{0x4049'0fdbu /* pi */, two, 0x42f6'e979u}, fails);
    ASSERT_EQ(small.size(), 1u);
    EXPECT_EQ(small[0], one);
}

TEST(shrink, the_order_keeps_the_kept_elements_relative_order) {
    // Fails when the NaN is applied before the 2 (index order 3, 0, ...); the other elements go.
    fc::shrink_case<S> c{{two, one, one, a_nan, one}, {3, 4, 0, 1, 2}};
    auto fails = [](const fc::shrink_case<S>& y) {
        std::size_t at_nan = y.order.size(), at_two = y.order.size();
        for (std::size_t k = 0; k < y.order.size(); ++k) {
            if (F::is_nan_bits(y.xs[y.order[k]])) at_nan = std::min(at_nan, k);
            if (y.xs[y.order[k]] == two) at_two = std::min(at_two, k);
        }
        return at_nan < at_two && at_two < y.order.size();
    };
    const auto small = fc::shrink<F>(c, fails);
    ASSERT_EQ(small.xs.size(), 2u);
    EXPECT_TRUE(fails(small));
    // The order is a permutation of the kept indices, the NaN's first.
    ASSERT_EQ(small.order.size(), 2u);
    EXPECT_TRUE(F::is_nan_bits(small.xs[small.order[0]]));
    EXPECT_EQ(small.xs[small.order[1]], two);
}

TEST(shrink, it_stays_within_its_limits) {
    std::vector<S> xs(1 << 16, two);
    xs.back() = a_nan;
    std::size_t calls = 0;
    fc::shrink_limits lim;
    lim.tries = 5;
    const auto small = fc::shrink<F>(xs, [&](const std::vector<S>& ys) { ++calls; return has_nan(ys); }, lim);
    EXPECT_LE(calls, 5u);
    EXPECT_TRUE(has_nan(small)) << "what it returns still fails";
    EXPECT_LT(small.size(), xs.size()) << "five tries still halve it";
}

TEST(shrink, it_never_offers_an_empty_array) {
    bool saw_empty = false;
    fc::shrink<F>(std::vector<S>{one, two}, [&](const std::vector<S>& ys) { saw_empty |= ys.empty(); return true; });
    EXPECT_FALSE(saw_empty);
}

TEST(shrink, in_batches_it_takes_the_path_one_at_a_time_takes) {
    // The first failing step of each round, as shrink_toward takes it: the same arrays at the end.
    std::mt19937 rng(7);
    std::vector<std::vector<std::uint32_t>> cases;
    for (int k = 0; k < 12; ++k) {
        std::vector<std::uint32_t> xs(5 + rng() % 30);
        for (auto& x : xs) x = rng() % 10;
        cases.push_back(xs);
    }
    const auto fails = [](const std::vector<std::uint32_t>& xs) {
        std::uint32_t sum = 0;
        for (auto x : xs) sum += x;
        return xs.size() >= 3 && sum >= 20 && xs.front() >= xs.back();
    };
    const auto simpler = [](std::uint32_t x) {
        std::vector<std::uint32_t> out;
        for (std::uint32_t y = 0; y < x; ++y) out.push_back(y);
        return out;
    };
    std::vector<std::vector<std::uint32_t>> failing;
    for (const auto& c : cases)
        if (fails(c)) failing.push_back(c);
    ASSERT_GE(failing.size(), 4u);
    std::size_t calls = 0;
    const auto batched = fc::shrink_together(
        failing,
        [&](const std::vector<std::pair<std::size_t, std::vector<std::uint32_t>>>& steps) {
            ++calls;
            std::vector<bool> out;
            for (const auto& s : steps) out.push_back(fails(s.second));
            return out;
        },
        [&](std::size_t, std::uint32_t x) { return simpler(x); }, 1000);
    for (std::size_t k = 0; k < failing.size(); ++k) {
        const auto one = fc::shrink_toward(fc::shrink_case<std::uint32_t>{failing[k], {}}, [&](const auto& c) { return fails(c.xs); }, simpler).xs;
        EXPECT_EQ(batched[k], one) << "case " << k;
    }
    EXPECT_LT(calls, 1000u);
}
