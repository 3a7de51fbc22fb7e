// Every binary32 input (2^32, every core) through the built-in quantizers of the FP8 pair and FP4
// under cvt.rn.satfinite's declaration, and through one mutant, whose failure the sampled domain
// also finds: the exhaustive walk's own chunking and order chain must find it too. The release
// suite's (about 15 s per quantizer on two cores); the other built-ins are sampled on the CPU;
// and the built-in RCEIL scale at every non-negative amax.
#include <gtest/gtest.h>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"

namespace fc = flipcheck;

namespace {
template <class X>
fc::scaling_report every_input() {
    fc::scaling_options o;
    o.every_binary32 = true;
    return fc::check_quantizer<X>(o);
}
}  // namespace

TEST(quantize_every_binary32, float8_e4m3fn) {
    const auto r = every_input<fc::registry::quantize_binary32<fc::float8_e4m3fn>>();
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_TRUE(r.exhaustive);
    EXPECT_EQ(r.checks, std::uint64_t(1) << 32);
}
TEST(quantize_every_binary32, float8_e5m2) {
    const auto r = every_input<fc::registry::quantize_binary32<fc::float8_e5m2>>();
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_EQ(r.checks, std::uint64_t(1) << 32);
}
TEST(quantize_every_binary32, float4_e2m1fn) {
    const auto r = every_input<fc::registry::quantize_binary32<fc::float4_e2m1fn>>();
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_EQ(r.checks, std::uint64_t(1) << 32);
}
TEST(quantize_every_binary32, the_carry_mutant_fails_its_order_law_at_the_first_pair) {
    const auto r = every_input<fc::registry::quantize_carry_dropped<fc::float8_e4m3fn>>();
    ASSERT_FALSE(r.passed());
    EXPECT_TRUE(r.failed & fc::law_bit(fc::law_id::quantize_order));
    // The smallest pair: just below and at 0.0302734375 (1.9375 * 2^-6 rounds up to 2^-5).
    EXPECT_NE(r.counterexample->find("quantize(0x3cf7ffff"), std::string::npos) << *r.counterexample;
}

// The built-in RCEIL scale at every non-negative binary32 amax, under its own recipe.
TEST(scale_every_amax, rceil_for_float8_e4m3fn) {
    fc::scaling_options o;
    o.every_binary32 = true;
    const auto r = fc::check_scaling<fc::mx_scale_rceil<fc::float8_e4m3fn>>(o);
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_TRUE(r.exhaustive);
    EXPECT_EQ(r.checks, std::uint64_t(1) << 31);
}

// The built-in SQL key as big-endian bytes, at every binary32 code in SQL's order.
TEST(canonical_key_every_binary32, sql_key_bytes) {
    fc::scaling_options o;
    o.every_binary32 = true;
    const auto r = fc::check_scaling<fc::sql_key_bytes<fc::binary32>>(o);
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_TRUE(r.exhaustive);
    EXPECT_EQ(r.checks, std::uint64_t(1) << 32);
}

// Every bfloat16 input under every e8m0 scale (256 x 2^16 pairs) through the built-in MX
// quantizer from bfloat16: exhaustive for MX scaling, where a block's amax acts only through its
// scale.
TEST(scaled_quantize_every_pair, bfloat16_under_every_e8m0_scale) {
    fc::scaling_options o;
    o.every_binary32 = true;
    const auto r = fc::check_scaling<fc::registry::quantize_scaled_bf16<fc::float8_e4m3fn>>(o);
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_TRUE(r.exhaustive);
    EXPECT_EQ(r.checks, std::uint64_t(256) << 16);
}
