// audit/shrink_witnesses.hpp: an audit witness shrinks to the fewest elements that still show its
// disagreement (and to the battery's values), one subject at a time or in batches as an adapter's;
// a battery input of a few elements stays as named.
#include "flipcheck/audit/shrink_witnesses.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace fc = flipcheck;
namespace fa = flipcheck::audit;
using F = fc::binary32;

namespace {
constexpr std::uint64_t neg_nan = 0xffc00000u;

float value(std::uint64_t x) { return fc::bit_cast<float>(std::uint32_t(x)); }

// A max that loses the last element of arrays longer than 8: wrong without NaN, and only on long
// arrays, so a shrunk witness has exactly 9 elements with the maximum last.
std::optional<std::uint64_t> max_but_the_last(const fa::input& xs) {
    if (xs.empty()) return std::nullopt;
    const std::size_t n = xs.size() > 8 ? xs.size() - 1 : xs.size();
    std::uint64_t best = xs[0];
    for (std::size_t i = 1; i < n; ++i)
        if (value(xs[i]) > value(best)) best = xs[i];
    return best;
}

// A sort that puts NaN last, except that arrays longer than 30 put a negative NaN first (the shape
// of a library that switches algorithms with the length).
std::optional<fa::input> sort_with_a_long_array_path(const fa::input& xs) {
    fa::input nans, numbers;
    for (auto x : xs) (F::is_nan_bits(std::uint32_t(x)) ? nans : numbers).push_back(x);
    std::stable_sort(numbers.begin(), numbers.end(), [](auto a, auto b) { return value(a) < value(b); });
    fa::input out;
    if (xs.size() > 30)
        for (auto x : nans)
            if (x >> 31) out.push_back(x);
    out.insert(out.end(), numbers.begin(), numbers.end());
    for (auto x : nans)
        if (xs.size() <= 30 || !(x >> 31)) out.push_back(x);
    return out;
}

bool in_battery(std::uint64_t x) {
    const auto v = fa::battery_values<F>();
    return std::find(v.begin(), v.end(), x) != v.end();
}
}  // namespace

TEST(audit_shrink, a_long_witness_shrinks_to_the_shortest_array_that_still_fails) {
    auto v = fa::classify<F>(fc::reduce_op::max, false, max_but_the_last, 300);
    ASSERT_FALSE(v.without_nan);
    const auto before = v.without_nan_witness->xs.size();
    ASSERT_GT(before, 9u);
    auto ws = fa::witnesses<F>(v, fc::reduce_op::max, false);
    fa::shrink_witnesses(ws, max_but_the_last);
    const auto& w = *v.without_nan_witness;
    EXPECT_EQ(w.xs.size(), 9u) << "8 elements are answered right";
    EXPECT_EQ(w.shrunk_from, before);
    EXPECT_EQ(w.got, max_but_the_last(w.xs)) << "the witness carries its own answer";
    EXPECT_TRUE(std::all_of(w.xs.begin(), w.xs.end(), in_battery)) << "elements are made the battery's values";
    const fa::judge<F> j{fc::reduce_op::max, false};
    EXPECT_TRUE(j.wrong(fa::without_nan_policy(), w)) << "and it still fails";
}

TEST(audit_shrink, a_sort_witness_keeps_what_its_question_needs) {
    auto v = fa::classify_sort<F>(sort_with_a_long_array_path, false, {}, 300);
    const auto last = std::find_if(v.nan.rejected.begin(), v.nan.rejected.end(), [](const auto& r) { return r.first == "NaN last"; });
    ASSERT_NE(last, v.nan.rejected.end());
    const auto before = last->second.xs.size();
    ASSERT_GE(before, 31u) << "the battery's witness is a long random array";
    auto ws = fa::witnesses<F>(v);
    fa::shrink_witnesses(ws, sort_with_a_long_array_path);
    const auto& w = last->second;
    EXPECT_EQ(w.xs.size(), 31u);
    EXPECT_EQ(w.shrunk_from, before);
    EXPECT_TRUE(std::all_of(w.xs.begin(), w.xs.end(), in_battery));
    EXPECT_EQ(std::count(w.xs.begin(), w.xs.end(), neg_nan), 1) << "one negative NaN, the rest the simplest values";
    EXPECT_FALSE(fa::sort_judge<F>::fits(w.xs, *w.got, fa::nan_place::last, fa::zero_rule::equal));
}

TEST(audit_shrink, batches_take_the_same_path_and_stop_when_told) {
    auto v = fa::classify<F>(fc::reduce_op::max, false, max_but_the_last, 300);
    auto one_by_one = v, batched = v, stopped = v;
    auto a = fa::witnesses<F>(one_by_one, fc::reduce_op::max, false);
    fa::shrink_witnesses(a, max_but_the_last);
    std::size_t calls = 0;
    const auto run_many = [&](const std::vector<std::pair<std::size_t, fa::input>>& steps) {
        ++calls;
        std::vector<fa::answer> got;
        for (const auto& s : steps) got.push_back(max_but_the_last(s.second));
        return got;
    };
    auto b = fa::witnesses<F>(batched, fc::reduce_op::max, false);
    fa::shrink_witnesses_together(b, run_many, 100, [] { return true; });
    EXPECT_EQ(batched.without_nan_witness->xs, one_by_one.without_nan_witness->xs);
    EXPECT_EQ(batched.without_nan_witness->got, one_by_one.without_nan_witness->got);
    EXPECT_LT(calls, 100u);
    calls = 0;
    auto c = fa::witnesses<F>(stopped, fc::reduce_op::max, false);
    fa::shrink_witnesses_together(c, run_many, 100, [] { return false; });
    EXPECT_EQ(calls, 0u);
    EXPECT_EQ(stopped.without_nan_witness->xs, v.without_nan_witness->xs);
    EXPECT_EQ(stopped.without_nan_witness->shrunk_from, 0u);
}

TEST(audit_shrink, a_witness_is_not_rewritten_with_an_answer_that_no_longer_shows_it) {
    // A framework that answers the rounds, then nothing when asked for the shrunk witnesses' own
    // answers (it failed, or answers differently now): the witness stays as the audit found it.
    auto v = fa::classify<F>(fc::reduce_op::max, false, max_but_the_last, 300);
    const auto before = v.without_nan_witness->xs;
    bool in_a_round = false;  // go_on() is asked before each round's call, not before the last one
    auto ws = fa::witnesses<F>(v, fc::reduce_op::max, false);
    fa::shrink_witnesses_together(
        ws,
        [&](const std::vector<std::pair<std::size_t, fa::input>>& steps) {
            std::vector<fa::answer> got;
            for (const auto& s : steps) got.push_back(in_a_round ? max_but_the_last(s.second) : std::nullopt);
            in_a_round = false;
            return got;
        },
        100, [&] { return in_a_round = true; });
    EXPECT_EQ(v.without_nan_witness->xs, before);
    EXPECT_EQ(v.without_nan_witness->shrunk_from, 0u);
}

TEST(audit_shrink, a_short_named_battery_input_stays_as_named) {
    // std::max's fold answers the first NaN or drops it, by position: its NaN witnesses are the
    // battery's named three-element inputs, already readable.
    const auto fold = [](const fa::input& xs) -> fa::answer {
        if (xs.empty()) return std::nullopt;
        float acc = value(xs[0]);
        for (auto x : xs) acc = std::max(acc, value(x));
        return fc::bit_cast<std::uint32_t>(acc);
    };
    auto v = fa::classify<F>(fc::reduce_op::max, false, fold, 300);
    ASSERT_FALSE(v.nan.rejected.empty());
    const auto named = v.nan.rejected;
    auto ws = fa::witnesses<F>(v, fc::reduce_op::max, false);
    fa::shrink_witnesses(ws, fold);
    for (std::size_t i = 0; i < named.size(); ++i)
        if (named[i].second.what.rfind("random", 0) != 0 && named[i].second.xs.size() <= 4) {
            EXPECT_EQ(v.nan.rejected[i].second.xs, named[i].second.xs);
            EXPECT_EQ(v.nan.rejected[i].second.shrunk_from, 0u);
        }
}
