#include "flipcheck/law.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "flipcheck/catalog/mutants.hpp"

namespace fc = flipcheck;
using fc::law_id;

template <class M>
std::uint64_t failing_keys_16() {
    std::uint64_t bad = 0;
    for (std::uint32_t k = 0; k <= 0xffff; ++k) bad += fc::mapping_laws<M>::failures(std::uint16_t(k)) != 0;
    return bad;
}

TEST(law, built_ins_hold_on_every_16_bit_key) {
    EXPECT_EQ(failing_keys_16<fc::sign_flip<fc::binary16>>(), 0u);
    EXPECT_EQ(failing_keys_16<fc::sign_flip_branchless<fc::binary16>>(), 0u);
    EXPECT_EQ(failing_keys_16<fc::signed_key<fc::binary16>>(), 0u);
    EXPECT_EQ(failing_keys_16<fc::sign_flip<fc::bfloat16>>(), 0u);
    EXPECT_EQ(failing_keys_16<fc::sign_flip_branchless<fc::bfloat16>>(), 0u);
    EXPECT_EQ(failing_keys_16<fc::signed_key<fc::bfloat16>>(), 0u);
}

TEST(law, built_ins_hold_at_binary32_and_binary64_boundaries) {
    using L32 = fc::mapping_laws<fc::sign_flip_branchless<fc::binary32>>;
    using L64 = fc::mapping_laws<fc::signed_key<fc::binary64>>;
    for (std::uint64_t k : {0x0ull, 0x1ull, 0x7fffffffull, 0x80000000ull, 0x007fffffull, 0xff800000ull, 0xffffffffull})
        EXPECT_EQ(L32::failures(std::uint32_t(k)), 0u) << std::hex << k;
    for (std::uint64_t k : {0x0ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xfff0000000000000ull, ~0ull})
        EXPECT_EQ(L64::failures(k), 0u) << std::hex << k;
}

TEST(law, sign_bit_only_breaks_successor_order_with_the_bits_named) {
    using L = fc::mapping_laws<fc::mutants::sign_bit_only<fc::binary32>>;
    // Key 0 decodes to -0 and key 1 to -denorm_min: -0 must not precede -denorm_min.
    EXPECT_FALSE(L::holds(law_id::successor_order, 0));
    const fc::counterexample c = L::explain(law_id::successor_order, 0);
    EXPECT_EQ(c.law, law_id::successor_order);
    EXPECT_EQ(c.bits, 0x80000000u);
    EXPECT_EQ(c.other, 0x80000001u);
    // It is still a bijection, so the round trips hold.
    EXPECT_TRUE(L::holds(law_id::round_trip_key, 0));
    EXPECT_TRUE(L::holds(law_id::round_trip_bits, 12345));
}

TEST(law, round_trip_counterexample_names_expected_and_actual) {
    using L = fc::mapping_laws<fc::mutants::no_invert_negatives<fc::binary16>>;
    // Key 0x0000 decodes to +0, which encodes to 0x8000: not back to 0.
    const fc::counterexample c = L::explain(law_id::round_trip_key, 0x0000);
    EXPECT_EQ(c.bits, 0x0000u);
    EXPECT_EQ(c.expected, 0x0000u);
    EXPECT_EQ(c.actual, 0x8000u);
    EXPECT_FALSE(L::holds(law_id::round_trip_key, 0x0000));
}

TEST(law, zero_placement_catches_swapped_zeros_at_exactly_one_key) {
    using L = fc::mapping_laws<fc::mutants::zeros_swapped<fc::binary32>>;
    // -0 now has +0's key 0x80000000; its successor decodes to +denorm_min, not +0.
    EXPECT_FALSE(L::holds(law_id::zero_placement, 0x80000000u));
    const fc::counterexample c = L::explain(law_id::zero_placement, 0x80000000u);
    EXPECT_EQ(c.bits, 0x80000000u);
    EXPECT_EQ(c.actual, 0x00000001u);
    EXPECT_TRUE(L::holds(law_id::zero_placement, 0x7fffffffu));
}

// A map that puts NaNs of both signs in the middle: keys grouped as numbers then NaNs.
struct nan_in_middle {
    using format = fc::binary16;
    using storage = std::uint16_t;
    static constexpr std::string_view name = "nan_in_middle";
    using good = fc::sign_flip_branchless<fc::binary16>;
    // Swap +inf and +qNaN: +qNaN gets +inf's key, so it sits below +inf.
    static constexpr storage swap(storage b) { return b == 0x7c00 ? 0x7e00 : (b == 0x7e00 ? 0x7c00 : b); }
    static constexpr storage encode(storage b) { return good::encode(swap(b)); }
    static constexpr storage decode(storage k) { return swap(good::decode(k)); }
};

TEST(law, nan_placement_laws_name_the_bound) {
    using L = fc::mapping_laws<nan_in_middle>;
    const std::uint16_t k = nan_in_middle::encode(0x7e00);  // the +qNaN key, = good key of +inf
    EXPECT_EQ(k, 0xfc00);
    EXPECT_FALSE(L::holds(law_id::nan_total_order, k));
    const auto c = L::explain(law_id::nan_total_order, k);
    EXPECT_EQ(c.expected, nan_in_middle::encode(0x7c00));
    EXPECT_EQ(c.actual, k);
    // +inf now has the canonical +qNaN's old key, above the new canonical key: propagate breaks.
    EXPECT_FALSE(L::holds(law_id::nan_propagate, 0xfe00));
    // The infinities still bound every number, so a NaN-skipping max seeded with -inf still works.
    for (std::uint32_t key = 0; key <= 0xffff; ++key) EXPECT_TRUE(L::holds(law_id::nan_ignore, std::uint16_t(key)));
}

TEST(law, nan_ignore_fails_when_numbers_escape_the_infinities) {
    using L = fc::mapping_laws<fc::mutants::sign_bit_only<fc::binary16>>;
    // -1 (0xbc00) gets key 0x3c00, below -inf's key 0x7c00.
    EXPECT_FALSE(L::holds(law_id::nan_ignore, 0x3c00));
    EXPECT_EQ(L::explain(law_id::nan_ignore, 0x3c00).expected, 0x7c00u);
}

TEST(law, reducer_agreement_accepts_the_oracle_and_rejects_others) {
    using R = fc::reducer_laws<fc::binary32>;
    const std::vector<std::uint32_t> xs{0x3f800000u, 0x7fc00000u, 0xc0000000u};
    const fc::policy prop{fc::nan_policy::propagate}, ign{fc::nan_policy::ignore};
    EXPECT_FALSE(R::agreement(prop, fc::reduce_op::max, xs, 0x7fc00001u));  // any NaN will do
    const auto bad = R::agreement(prop, fc::reduce_op::max, xs, 0x3f800000u);
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->law, law_id::reducer_agreement);
    EXPECT_EQ(bad->actual, 0x3f800000u);
    EXPECT_FALSE(R::agreement(ign, fc::reduce_op::min, xs, 0xc0000000u));
    EXPECT_TRUE(R::agreement(ign, fc::reduce_op::min, xs, 0x3f800000u));
    EXPECT_TRUE(R::agreement(ign, fc::reduce_op::min, {}, 0x3f800000u));  // n = 0 must be empty
    EXPECT_FALSE(R::agreement(ign, fc::reduce_op::min, {}, std::nullopt));
    // undefined: NaN inputs are outside the domain.
    EXPECT_FALSE(R::agreement(fc::policy{fc::nan_policy::undefined}, fc::reduce_op::max, xs, 0u));
}

TEST(law, arg_agreement_respects_the_tie_policy) {
    using R = fc::reducer_laws<fc::binary32>;
    const std::vector<std::uint32_t> xs{0x40000000u, 0x3f800000u, 0x40000000u};
    const fc::policy lo{fc::nan_policy::ignore, fc::zero_policy::ordered, fc::tie_policy::lowest_index};
    const fc::policy any{fc::nan_policy::ignore, fc::zero_policy::ordered, fc::tie_policy::any};
    EXPECT_FALSE(R::arg_agreement(lo, fc::reduce_op::max, xs, 0));
    const auto c = R::arg_agreement(lo, fc::reduce_op::max, xs, 2);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->expected, 0u);
    EXPECT_EQ(c->actual, 2u);
    EXPECT_FALSE(R::arg_agreement(any, fc::reduce_op::max, xs, 2));
    EXPECT_TRUE(R::arg_agreement(any, fc::reduce_op::max, xs, 1));
    EXPECT_TRUE(R::arg_agreement(any, fc::reduce_op::max, xs, 7));  // out of range is never right
}

// The sweeps' filter may reject good keys but must never pass a bad one: on every 16-bit key of
// every mapping and mutant, quick_ok(k) implies that no law fails at k.
template <class M>
void expect_quick_filter_sound() {
    for (std::uint32_t k = 0; k < 0xffff; ++k) {  // every key but the last, as its contract says
        if (fc::mapping_laws<M>::quick_ok(std::uint16_t(k))) {
            ASSERT_EQ(fc::mapping_laws<M>::failures(std::uint16_t(k)), 0u) << M::name << " key " << k;
        }
    }
}

TEST(law, quick_filter_never_misses_a_failure) {
    expect_quick_filter_sound<fc::sign_flip<fc::binary16>>();
    expect_quick_filter_sound<fc::signed_key<fc::bfloat16>>();
    expect_quick_filter_sound<fc::mutants::sign_bit_only<fc::binary16>>();
    expect_quick_filter_sound<fc::mutants::no_invert_negatives<fc::bfloat16>>();
    expect_quick_filter_sound<fc::mutants::wrong_inverse_branch<fc::binary16>>();
    expect_quick_filter_sound<fc::mutants::zeros_swapped<fc::binary16>>();
    expect_quick_filter_sound<nan_in_middle>();
    expect_quick_filter_sound<fc::mutants::signed_key_as_unsigned<fc::binary16>>();
    expect_quick_filter_sound<fc::mutants::wrong_at_neg_denorm_min<fc::bfloat16>>();
    // And it passes nearly every key of a correct mapping (else the sweep would crawl).
    int passed = 0;
    for (std::uint32_t k = 0; k <= 0xffff; ++k) passed += fc::mapping_laws<fc::sign_flip<fc::binary16>>::quick_ok(std::uint16_t(k));
    EXPECT_GT(passed, 60000);
}
