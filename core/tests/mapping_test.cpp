#include "flipcheck/mapping.hpp"

#include <gtest/gtest.h>

#include "known_values.hpp"

namespace fc = flipcheck;

// A user's mapping, as a user would write it: it only has to fit the concept.
struct users_mapping {
    using format = fc::binary32;
    static constexpr std::string_view name = "users";
    static constexpr std::uint32_t encode(std::uint32_t b) { return b; }
    static constexpr std::uint32_t decode(std::uint32_t k) { return k; }
};
static_assert(fc::mapping<users_mapping>);
static_assert(fc::mapping<fc::sign_flip<fc::binary16>>);
static_assert(fc::mapping<fc::sign_flip_branchless<fc::bfloat16>>);
static_assert(fc::mapping<fc::signed_key<fc::binary64>>);
struct not_a_mapping { using format = fc::binary32; };
static_assert(!fc::mapping<not_a_mapping>);

template <template <class> class M, class F, class Rows>
void expect_known_keys(const Rows& rows) {
    using S = typename F::storage;
    S previous = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        EXPECT_EQ(M<F>::encode(r.bits), r.key) << M<F>::name << " " << F::name << " " << r.what;
        EXPECT_EQ(M<F>::decode(r.key), r.bits) << M<F>::name << " " << F::name << " " << r.what;
        if (i > 0) {
            EXPECT_LT(previous, r.key) << "keys must ascend with totalOrder at " << r.what;
        }
        previous = r.key;
    }
}

template <template <class> class M>
void expect_all_formats() {
    expect_known_keys<M, fc::binary16>(fc::test::binary16_keys);
    expect_known_keys<M, fc::bfloat16>(fc::test::bfloat16_keys);
    expect_known_keys<M, fc::binary32>(fc::test::binary32_keys);
    expect_known_keys<M, fc::binary64>(fc::test::binary64_keys);
}

TEST(mapping, sign_flip_gives_the_hand_written_keys) { expect_all_formats<fc::sign_flip>(); }
TEST(mapping, sign_flip_branchless_gives_the_hand_written_keys) { expect_all_formats<fc::sign_flip_branchless>(); }
TEST(mapping, signed_key_unsigned_view_gives_the_hand_written_keys) { expect_all_formats<fc::signed_key>(); }

TEST(mapping, signed_key_matches_rust_total_cmp_keys) {
    using K = fc::signed_key<fc::binary32>;
    // Rust: left ^ (((left >> 31) as u32) >> 1) as i32, written out by hand.
    EXPECT_EQ(K::signed_encode(0x00000000u), 0);
    EXPECT_EQ(K::signed_encode(0x80000000u), -1);                   // -0 -> 0xffffffff
    EXPECT_EQ(K::signed_encode(0x3f800000u), 0x3f800000);           // +1
    EXPECT_EQ(K::signed_encode(0xbf800000u), std::int32_t(0xc07fffffu));  // -1
    EXPECT_EQ(K::signed_encode(0xffc00000u), std::int32_t(0x803fffffu));  // -qNaN is near INT_MIN
    EXPECT_EQ(K::signed_encode(0x7fc00000u), 0x7fc00000);           // +qNaN
    EXPECT_EQ(K::signed_decode(-1), 0x80000000u);
    using K16 = fc::signed_key<fc::binary16>;
    EXPECT_EQ(K16::signed_encode(0xbc00), std::int16_t(0xc3ff));
    EXPECT_EQ(K16::signed_encode(0x8000), -1);
}

TEST(mapping, built_ins_are_usable_in_constant_expressions) {
    static_assert(fc::sign_flip_branchless<fc::binary32>::encode(0x80000000u) == 0x7fffffffu);
    static_assert(fc::sign_flip<fc::binary16>::decode(0x8000) == 0x0000);
    SUCCEED();
}
