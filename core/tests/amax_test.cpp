// amax.hpp: the oracle's amax by hand on the cases its definition names, and flipcheck's keyed
// amax against it on every pair of binary16 patterns (and of every byte format's codes).
#include <gtest/gtest.h>

#include <vector>

#include "flipcheck/amax.hpp"

namespace fc = flipcheck;
using fc::nan_policy;

namespace {
std::uint32_t f32(float v) { return fc::bit_cast<std::uint32_t>(v); }
template <class F>
typename F::storage amax(nan_policy p, std::vector<typename F::storage> xs) {
    return fc::oracle::amax<F>(p, std::span<const typename F::storage>(xs));
}
}  // namespace

TEST(amax_oracle, magnitudes_and_the_sign_of_zero) {
    using fc::binary32;
    EXPECT_EQ(amax<binary32>(nan_policy::propagate, {}), 0u) << "+0 is amax's identity";
    EXPECT_EQ(amax<binary32>(nan_policy::propagate, {0x80000000u}), 0u) << "|-0| = +0";
    EXPECT_EQ(amax<binary32>(nan_policy::propagate, {f32(-3.0f), f32(2.0f)}), f32(3.0f));
    EXPECT_EQ(amax<binary32>(nan_policy::propagate, {f32(-INFINITY), f32(2.0f)}), f32(INFINITY));
    EXPECT_EQ(amax<binary32>(nan_policy::propagate, {0x80000001u}), 1u) << "-denorm_min's magnitude";
}

TEST(amax_oracle, nan_policies) {
    using fc::binary32;
    const std::uint32_t neg_nan = 0xffc00000u;  // x86's default NaN
    EXPECT_TRUE(binary32::is_nan_bits(amax<binary32>(nan_policy::propagate, {f32(1.0f), neg_nan})));
    EXPECT_EQ(amax<binary32>(nan_policy::ignore, {f32(1.0f), neg_nan}), f32(1.0f));
    EXPECT_EQ(amax<binary32>(nan_policy::ignore, {neg_nan}), 0u) << "no number: the identity";
    using fnuz = fc::float8_e4m3fnuz;
    EXPECT_TRUE(fnuz::is_nan_bits(amax<fnuz>(nan_policy::propagate, {0x01, 0x80})));
    EXPECT_EQ(amax<fnuz>(nan_policy::ignore, {0x81, 0x80}), 0x01) << "fnuz: |-denorm_min|, NaN skipped";
}

template <class F, nan_policy P>
void keyed_amax_on_every_pair() {
    using S = typename F::storage;
    const std::uint64_t count = std::uint64_t(F::value_mask) + 1;
    // A byte format: every pair. binary16: every 61st first element and each special one, against
    // every second one (every pair runs on the GPU: gpu_amax_test).
    std::vector<std::uint64_t> firsts;
    for (std::uint64_t a = 0; a < count; a += count > 256 ? 61 : 1) firsts.push_back(a);
    if (count > 256)
        for (std::uint64_t a : {0x8000u, 0x7c00u, 0xfc00u, 0x7e00u, 0xfe00u, 0x7c01u, 0xfc01u, 0x0001u, 0x8001u, 0x7bffu, 0xfbffu})
            firsts.push_back(a);
    for (std::uint64_t a : firsts)
        for (std::uint64_t b = 0; b < count; ++b) {
            const S xs[] = {S(a), S(b)};
            const S got = fc::keyed_amax<F, P>::amax(xs), want = fc::oracle::amax<F>(P, std::span<const S>(xs));
            ASSERT_TRUE(fc::oracle::same_amax<F>(P, got, want)) << F::name << " " << a << "," << b;
        }
}
TEST(keyed_amax, agrees_with_the_oracle_on_pairs) {
    keyed_amax_on_every_pair<fc::binary16, nan_policy::propagate>();
    keyed_amax_on_every_pair<fc::binary16, nan_policy::ignore>();
    keyed_amax_on_every_pair<fc::float8_e4m3fnuz, nan_policy::propagate>();
    keyed_amax_on_every_pair<fc::float8_e4m3fnuz, nan_policy::ignore>();
    keyed_amax_on_every_pair<fc::float8_e5m2, nan_policy::propagate>();
    keyed_amax_on_every_pair<fc::float4_e2m1fn, nan_policy::propagate>();
}

TEST(keyed_amax, a_cleared_sign_is_not_enough_on_fnuz) {
    // 0x80 & 0x7f would be +0: the key keeps fnuz's NaN above every magnitude instead.
    EXPECT_EQ(fc::amax_key<fc::float8_e4m3fnuz>(nan_policy::propagate, 0x80), 0x80);
    EXPECT_EQ(fc::amax_key<fc::float8_e4m3fnuz>(nan_policy::ignore, 0x80), 0x00);
    EXPECT_EQ(fc::amax_key<fc::binary32>(nan_policy::propagate, 0xffc00000u), 0x7fc00000u);
}

// oracle::byte_amax, the oracle's step memoized, is the oracle bit for bit: on every array of 0 to
// 2 codes of every signed byte format (the first element sets every state the step can be in, the
// second every element after it), both policies, and every triple where that is cheap (6 and 4
// bits). The exhaustive amax checks of check/scaling.hpp judge through it.
template <class F>
void byte_amax_is_the_oracle() {
    using S = typename F::storage;
    const unsigned count = unsigned(F::value_mask) + 1;
    const fc::oracle::byte_amax<F> memo;
    for (nan_policy p : {nan_policy::propagate, nan_policy::ignore, nan_policy::undefined}) {
        auto same = [&](std::vector<S> xs) {
            const std::span<const S> a(xs);
            ASSERT_EQ(memo.amax(p, a), fc::oracle::amax<F>(p, a)) << F::name << " n=" << xs.size();
        };
        same({});
        for (unsigned a = 0; a < count; ++a)
            for (unsigned b = 0; b < count; ++b) same({S(a), S(b)});
        if (count <= 64)
            for (unsigned a = 0; a < count; ++a)
                for (unsigned b = 0; b < count; ++b)
                    for (unsigned c = 0; c < count; ++c) same({S(a), S(b), S(c)});
    }
}
TEST(amax_oracle, memoized_for_byte_formats_is_the_oracle) {
    byte_amax_is_the_oracle<fc::float8_e4m3fn>();
    byte_amax_is_the_oracle<fc::float8_e5m2>();
    byte_amax_is_the_oracle<fc::float8_e4m3fnuz>();
    byte_amax_is_the_oracle<fc::float8_e5m2fnuz>();
    byte_amax_is_the_oracle<fc::float6_e2m3fn>();
    byte_amax_is_the_oracle<fc::float6_e3m2fn>();
    byte_amax_is_the_oracle<fc::float4_e2m1fn>();
}
