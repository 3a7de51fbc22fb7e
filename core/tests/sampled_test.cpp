// The sampled domain (binary64): its patterns and keys are what sampled.hpp says, its sweep finds
// a wrong mapping, runs on every thread with the same result, cuts shards without loss, and says
// it is a sample.
#include "flipcheck/check/sampled.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "flipcheck/catalog/mutants.hpp"

namespace fc = flipcheck;
using fc::binary64;

TEST(sampled, patterns_ascend_and_cover_every_sign_exponent_and_edge) {
    const auto p = fc::sample_patterns<binary64>({});
    EXPECT_TRUE(std::adjacent_find(p.begin(), p.end(), std::greater_equal<>()) == p.end()) << "not strictly ascending";
    // 2 signs x 2048 exponents x (8 edges + 1024 randoms), less randoms that hit an edge.
    EXPECT_LE(p.size(), 2u * 2048 * 1032);
    EXPECT_GE(p.size(), 2u * 2048 * 1030);
    for (std::uint64_t b : {binary64::infinity, binary64::quiet_nan, std::uint64_t(0), binary64::sign_mask,
                            std::uint64_t(1), binary64::all_ones, std::uint64_t(0x7fefffffffffffff)})
        EXPECT_TRUE(std::binary_search(p.begin(), p.end(), b)) << std::hex << b;
    // One random mantissa per slice of 2^42: the first exponent block's randoms ascend slice by slice.
    std::set<std::uint64_t> slices;
    for (std::size_t i = 0; i < 1032 && p[i] < (std::uint64_t(1) << 52); ++i) slices.insert(p[i] >> 42);
    EXPECT_EQ(slices.size(), 1024u);
    EXPECT_EQ(fc::sample_patterns<binary64>({}), p) << "not the same list twice";
    EXPECT_NE(fc::sample_patterns<binary64>({2, 1024}), p) << "the seed changes nothing";
    EXPECT_THROW(fc::sample_patterns<binary64>({1, 1000}), fc::input_error);
}

TEST(sampled, sort_distinct_equals_sort_and_unique_on_any_order) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 20; ++round) {
        std::vector<std::uint64_t> v(1000 + rng() % 5000);
        const int runs = 1 + int(rng() % 100);  // few runs (merged) or many (std::sort)
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = rng() % 4096;
        for (int r = 0; r < runs; ++r) {
            const std::size_t a = rng() % v.size(), b = a + rng() % (v.size() - a);
            if (rng() % 2) std::sort(v.begin() + std::ptrdiff_t(a), v.begin() + std::ptrdiff_t(b));
            else std::sort(v.begin() + std::ptrdiff_t(a), v.begin() + std::ptrdiff_t(b), std::greater<>());
        }
        std::vector<std::uint64_t> want = v;
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        fc::sort_distinct(v);
        EXPECT_EQ(v, want) << "round " << round;
    }
}

TEST(sampled, keys_are_patterns_their_keys_and_the_keys_below) {
    using M = fc::sign_flip_branchless<binary64>;
    const auto keys = fc::sample_keys<M>({});
    const auto p = fc::sample_patterns<binary64>({});
    EXPECT_TRUE(std::adjacent_find(keys.begin(), keys.end(), std::greater_equal<>()) == keys.end());
    for (std::size_t i = 0; i < p.size(); i += 997)
        for (std::uint64_t k : {p[i], M::encode(p[i]), M::encode(p[i]) - 1})
            EXPECT_TRUE(std::binary_search(keys.begin(), keys.end(), k)) << std::hex << k;
    EXPECT_LE(keys.size(), 3 * p.size());
}

// sample_keys' merge against the plain definition: the three lists, sorted, repeats dropped. The
// built-ins take the merge (key 0 and its wrapped key below included: sign_flip keys the all-ones
// pattern 0); the mutants take both paths (zeros_swapped has a few runs, wrong_inverse_branch many).
template <class M>
void expect_keys_by_definition() {
    const fc::sample_params few{1, 16};  // 98 K patterns: the same runs as the default's 4.2 M
    const auto p = fc::sample_patterns<typename M::format>(few);
    std::vector<std::uint64_t> want;
    for (std::uint64_t x : p) want.insert(want.end(), {x, M::encode(x), M::encode(x) - 1});
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    EXPECT_EQ(fc::sample_keys<M>(few), want) << M::name;
}
struct scrambled {  // a bijection whose keys of ascending patterns are millions of runs
    using format = binary64;
    static constexpr std::string_view name = "scrambled";
    static constexpr std::uint64_t odd = 0x9e3779b97f4a7c15ull;
    static std::uint64_t encode(std::uint64_t b) { return b * odd; }
    static std::uint64_t decode(std::uint64_t k) {
        std::uint64_t inv = odd;  // Newton's iteration for the inverse of an odd number mod 2^64
        for (int i = 0; i < 5; ++i) inv *= 2 - odd * inv;
        return k * inv;
    }
};
TEST(sampled, keys_are_the_three_lists_sorted_for_any_mapping) {
    expect_keys_by_definition<scrambled>();
    expect_keys_by_definition<fc::sign_flip<binary64>>();
    expect_keys_by_definition<fc::sign_flip_branchless<binary64>>();
    expect_keys_by_definition<fc::signed_key<binary64>>();
    expect_keys_by_definition<fc::format_key<binary64>>();
    expect_keys_by_definition<fc::mutants::zeros_swapped<binary64>>();
    expect_keys_by_definition<fc::mutants::sign_bit_only<binary64>>();
    expect_keys_by_definition<fc::mutants::no_invert_negatives<binary64>>();
    expect_keys_by_definition<fc::mutants::wrong_inverse_branch<binary64>>();
}

TEST(sampled, sweep_passes_builtins_and_says_it_is_a_sample) {
    const fc::sweep_report r = fc::sampled_sweep<fc::sign_flip<binary64>>({});
    EXPECT_TRUE(r.passed());
    EXPECT_EQ(r.domain, "sampled");
    EXPECT_EQ(r.key_bits, 64);
    EXPECT_GT(r.coverage(), 1e-13);
    EXPECT_LT(r.coverage(), 1e-12);
    EXPECT_EQ(r.keys_checked, fc::sample_keys<fc::sign_flip<binary64>>({}).size());
    EXPECT_TRUE(fc::sampled_sweep<fc::signed_key<binary64>>({}).passed());
}

TEST(sampled, sweep_finds_mutants_the_same_on_any_number_of_threads) {
    using M = fc::mutants::zeros_swapped<binary64>;
    fc::sweep_options one, many;
    one.threads = 1;
    many.threads = 4;
    one.all = many.all = true;
    const fc::sweep_report a = fc::sampled_sweep<M>(one), b = fc::sampled_sweep<M>(many);
    EXPECT_FALSE(a.passed());
    EXPECT_GT(a.failures_by_law[std::size_t(fc::law_id::zero_placement)], 0u);
    EXPECT_EQ(a.failing_keys, b.failing_keys);
    EXPECT_EQ(a.counterexamples, b.counterexamples);
    EXPECT_FALSE(fc::sampled_sweep<fc::mutants::sign_bit_only<binary64>>({}).passed());
}

TEST(sampled, shards_cut_the_list_without_loss_and_checkpoints_are_refused) {
    using M = fc::sign_flip<binary64>;
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < 3; ++i) {
        fc::sweep_options o;
        o.part = {i, 3};
        total += fc::sampled_sweep<M>(o).keys_checked;
    }
    EXPECT_EQ(total, fc::sample_keys<M>({}).size());
    fc::sweep_options o;
    o.checkpoint = "unused.ckpt";
    EXPECT_THROW(fc::sampled_sweep<M>(o), fc::input_error);
}
