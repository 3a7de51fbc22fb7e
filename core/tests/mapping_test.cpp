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

// ---- the format-aware key and the low-precision formats ------------------------------------------
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/sweep.hpp"

namespace {
template <class M>
fc::sweep_report sweep_one(fc::law_set laws = fc::all_mapping_laws) {
    fc::sweep_options o;
    o.threads = 1;
    o.laws = laws;
    o.limit = 1000;
    return fc::sweep<M>(o);
}
}  // namespace

// The format-aware key is seed 000's mask routine on the IEEE formats: the same keys, so the GPU
// reductions keyed with it are the ones measured before it existed.
TEST(format_key, is_the_mask_routine_on_ieee_formats) {
    for (std::uint32_t b : {0u, 1u, 0x80000000u, 0x7f800000u, 0xffc00000u, 0x40490fdbu, 0xc0490fdbu, 0xffffffffu}) {
        EXPECT_EQ(fc::format_key<fc::binary32>::encode(b), fc::sign_flip_branchless<fc::binary32>::encode(b));
        EXPECT_EQ(fc::format_key<fc::binary32>::decode(b), fc::sign_flip_branchless<fc::binary32>::decode(b));
    }
    for (unsigned b = 0; b <= 0xffff; ++b)
        ASSERT_EQ(fc::format_key<fc::binary16>::encode(std::uint16_t(b)), fc::sign_flip_branchless<fc::binary16>::encode(std::uint16_t(b)));
    static_assert(fc::format_key<fc::float8_e8m0fnu>::encode(0x80) > fc::format_key<fc::float8_e8m0fnu>::encode(0x7f));  // 2 > 1
    static_assert(fc::sign_flip<fc::float8_e8m0fnu>::encode(0x80) < fc::sign_flip<fc::float8_e8m0fnu>::encode(0x7f));   // the finding
}

// Every built-in on every low-precision format: the verdict the registry records (right where the
// format is IEEE-shaped, wrong elsewhere; the format-aware key right everywhere), by the sweep.
TEST(format_key, verdicts_of_the_built_ins_on_the_low_precision_formats) {
    int right = 0, wrong = 0;
    fc::registry::for_each<fc::registry::low_precision_sweepable>([&]<class I>() {
        if constexpr (I::entry::what == fc::registry::kind::mapping) {
            const fc::sweep_report r = sweep_one<typename I::type>();
            EXPECT_EQ(r.passed(), fc::registry::expected_right<I>()) << I::format::name << " " << I::type::name;
            (r.passed() ? right : wrong) += 1;
            EXPECT_EQ(r.keys_checked, 256u);
        }
    });
    EXPECT_EQ(right, 8 + 2 * 3);  // format_key on all 8; the seeds' three on e4m3fn and e5m2
    EXPECT_EQ(wrong, 6 * 3);
}

TEST(format_key, masks_unused_bits_and_places_the_lone_nan) {
    EXPECT_EQ(fc::unused_bits_handling<fc::format_key<fc::float6_e2m3fn>>(), fc::unused_bits::masks);
    EXPECT_EQ(fc::unused_bits_handling<fc::format_key<fc::float4_e2m1fn>>(), fc::unused_bits::masks);
    EXPECT_EQ(fc::unused_bits_handling<fc::format_key<fc::float8_e4m3fn>>(), fc::unused_bits::not_applicable);
    EXPECT_EQ(fc::unused_bits_handling<fc::signed_key<fc::float6_e2m3fn>>(), fc::unused_bits::rejects);
    EXPECT_EQ(sweep_one<fc::format_key<fc::float4_e2m1fn>>().unused_bits, "masks");
    using fnuz = fc::float8_e4m3fnuz;
    using e8m0 = fc::float8_e8m0fnu;
    // totalOrder: fnuz's NaN (sign bit set) at the bottom, e8m0's at the top; End moves it.
    EXPECT_EQ(fc::format_key<fnuz>::encode(0x80), 0x00);
    EXPECT_EQ((fc::format_key<fnuz, fc::nan_end::top>::encode(0x80)), 0xff);
    EXPECT_EQ((fc::format_key<fnuz, fc::nan_end::bottom>::encode(0x80)), 0x00);
    EXPECT_EQ(fc::format_key<e8m0>::encode(0xff), 0xff);
    EXPECT_EQ((fc::format_key<e8m0, fc::nan_end::bottom>::encode(0xff)), 0x00);
    // Moved, the key still orders the numbers and round-trips: only the NaN laws see the move.
    constexpr fc::law_set order = fc::law_bit(fc::law_id::round_trip_key) | fc::law_bit(fc::law_id::round_trip_bits);
    EXPECT_TRUE((sweep_one<fc::format_key<fnuz, fc::nan_end::top>>(order).passed()));
    EXPECT_TRUE((sweep_one<fc::format_key<e8m0, fc::nan_end::bottom>>(order).passed()));
    EXPECT_FALSE((sweep_one<fc::format_key<fnuz, fc::nan_end::top>>().passed()));
    for (unsigned a = 0; a < 256; ++a)
        for (unsigned b = 0; b < 256; ++b) {
            if (a == 0x80 || b == 0x80) continue;
            const float x = fnuz::to_value(std::uint8_t(a)), y = fnuz::to_value(std::uint8_t(b));
            using top = fc::format_key<fnuz, fc::nan_end::top>;
            ASSERT_EQ(x < y, top::encode(std::uint8_t(a)) < top::encode(std::uint8_t(b)));
        }
}

// The low-precision mutants each fail the law their registry line names.
TEST(format_key, low_precision_mutants_are_killed_by_their_law) {
    int killed = 0;
    fc::registry::for_each<fc::registry::instances<fc::registry::low_precision_mapping_mutants>>([&]<class I>() {
        const fc::sweep_report r = sweep_one<typename I::type>();
        EXPECT_GT(r.failures_by_law[std::size_t(I::entry::killed_by)], 0u) << I::format::name << " " << I::type::name;
        killed += !r.passed();
    });
    EXPECT_EQ(killed, 6);
}

// seed 000's key on e8m0 reverses its upper half: 4.0 (0x81) sorts right below 2.0 (0x80), and
// 2.0's key is below 1.0's (0x7f), which the key sends to the top.
TEST(format_key, sign_flip_reverses_e8m0) {
    using M = fc::sign_flip<fc::float8_e8m0fnu>;
    const fc::sweep_report r = sweep_one<M>(fc::law_bit(fc::law_id::successor_order));
    ASSERT_FALSE(r.passed());
    bool reversed = false;
    for (const auto& c : r.counterexamples)
        reversed |= c.bits == 0x81 && c.other == 0x80;  // decode(k) = 4.0, decode(k+1) = 2.0
    EXPECT_TRUE(reversed);
}
