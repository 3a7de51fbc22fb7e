// Scaled quantizers (scaled_quantize.hpp, check/scaled_quantizers.hpp): the built-ins pass under
// what they declare, each mutant dies by its law with its bug's symptom, round to odd is what
// makes one rounding of two, and a replayed pair fails again.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"

namespace fc = flipcheck;
namespace reg = fc::registry;

namespace {
// The (x, s) pair of a replay line "binary32: 0x...,0x...".
std::pair<float, float> pair_of(const std::string& replay) {
    const auto comma = replay.find(',');
    return {fc::bit_cast<float>(std::uint32_t(std::stoul(replay.substr(replay.find("0x"), comma), nullptr, 16))),
            fc::bit_cast<float>(std::uint32_t(std::stoul(replay.substr(comma + 1), nullptr, 16)))};
}
}  // namespace

TEST(scaled_quantizers, every_built_in_passes) {
    int n = 0;
    reg::for_each<reg::scaling_instances>([&]<class I>() {
        if constexpr (fc::scaled_quantizer_subject<typename I::type>) {
            const auto r = fc::check_scaled_quantizer<typename I::type>();
            EXPECT_TRUE(r.passed()) << I::entry::name << " " << r.claim << ": " << r.counterexample.value_or("");
            EXPECT_FALSE(r.exhaustive);
            EXPECT_GT(r.checks, 250000u) << I::entry::name;
            ++n;
        }
    });
    EXPECT_EQ(n, 7 + 7 + 5 + 5);
}

TEST(scaled_quantizers, every_mutant_is_killed_by_its_law) {
    int n = 0;
    reg::for_each<reg::scaling_mutant_instances>([&]<class I>() {
        if constexpr (fc::scaled_quantizer_subject<typename I::type>) {
            const auto r = fc::check_scaled_quantizer<typename I::type>();
            EXPECT_FALSE(r.passed()) << I::entry::name;
            EXPECT_TRUE(r.failed & fc::law_bit(I::entry::killed_by))
                << I::entry::name << " on " << I::format::name << ": " << r.counterexample.value_or("");
            ++n;
        }
    });
    EXPECT_EQ(n, 2 + 1 + 1);
}

// The double-rounding mutant's counterexample is double rounding: x * s rounded to binary32 is a
// midpoint between two codes, the exact product is not, and the two sides of the tie differ.
TEST(scaled_quantizers, double_rounding_is_the_counterexample) {
    const auto r = fc::check_scaled_quantizer<reg::scaled_double_rounding<fc::float8_e4m3fn>>();
    ASSERT_FALSE(r.passed());
    const auto [x, s] = pair_of(r.replay);
    const double exact = double(x) * double(s);
    EXPECT_NE(double(x * s), exact) << r.replay;
    const fc::quantize_policy p{};
    EXPECT_NE(fc::oracle::quantize<fc::float8_e4m3fn>(p, exact), fc::oracle::quantize<fc::float8_e4m3fn>(p, double(x * s)))
        << r.replay << ": " << *r.counterexample;
    EXPECT_NE(r.counterexample->find("quantize_rounding: quantize(0x"), std::string::npos) << *r.counterexample;
    EXPECT_NE(r.counterexample->find(" * 0x"), std::string::npos) << *r.counterexample;
    // Replayed alone, the pair fails again; the right fused built-in passes it.
    std::vector<std::uint32_t> only{fc::bit_cast<std::uint32_t>(x), fc::bit_cast<std::uint32_t>(s)};
    using bad = reg::scaled_double_rounding<fc::float8_e4m3fn>;
    using good = reg::quantize_scaled_exact<fc::float8_e4m3fn>;
    EXPECT_FALSE((fc::check_scaled_quantizer_of<fc::binary32, fc::float8_e4m3fn>(bad::declared, &bad::quantize_scaled, {}, only).passed()));
    EXPECT_TRUE((fc::check_scaled_quantizer_of<fc::binary32, fc::float8_e4m3fn>(good::declared, &good::quantize_scaled, {}, only).passed()));
}

// The reciprocal mutant dies on a scale that is not a power of two (1 / s is exact for those).
TEST(scaled_quantizers, the_reciprocal_dies_on_a_scale_that_is_no_power_of_two) {
    const auto r = fc::check_scaled_quantizer<reg::scaled_reciprocal<fc::float8_e4m3fn>>();
    ASSERT_FALSE(r.passed());
    const auto [x, s] = pair_of(r.replay);
    int e = 0;
    EXPECT_NE(std::frexp(s, &e), 0.5f) << r.replay;
    EXPECT_NE(x / s, x * (1.0f / s)) << r.replay;
}

// An FTZ intermediate loses bfloat16's subnormals; the first failure is under the scale 1.
TEST(scaled_quantizers, a_flushed_product_loses_the_subnormal_codes) {
    const auto r = fc::check_scaled_quantizer<reg::scaled_flushed_intermediate<fc::bfloat16>>();
    ASSERT_FALSE(r.passed());
    const auto [x, s] = pair_of(r.replay);
    EXPECT_EQ(s, 1.0f) << r.replay;
    EXPECT_LT(std::fabs(x), 0x1p-126f) << r.replay;
    EXPECT_NE(x, 0.0f) << r.replay;
}

// Round to odd then quantizing is rounding once: products of random binary32 pairs (including
// ones far outside binary32's range) under every policy of e4m3fn and bfloat16.
TEST(scaled_quantizers, round_to_odd_makes_one_rounding_of_two) {
    std::mt19937_64 rng(7);
    int mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        const float x = fc::bit_cast<float>(std::uint32_t(rng())), s = fc::bit_cast<float>(std::uint32_t(rng()));
        const double y = double(x) * double(s);
        if (y != y) continue;
        const float odd = fc::round_to_odd(y);
        constexpr fc::quantize_policy up{fc::rounding::up, fc::saturation::finite}, bf{fc::rounding::nearest_even, fc::saturation::infinity};
        mismatches += fc::quantize_bits<fc::float8_e4m3fn, fc::quantize_policy{}>(odd) != fc::oracle::quantize<fc::float8_e4m3fn>({}, y);
        mismatches += fc::quantize_bits<fc::float8_e4m3fn, up>(odd) != fc::oracle::quantize<fc::float8_e4m3fn>(up, y);
        mismatches += fc::quantize_bits<fc::bfloat16, bf>(odd) != fc::oracle::quantize<fc::bfloat16>(bf, y);
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(fc::bit_cast<std::uint32_t>(fc::round_to_odd(1e-60)), 1u);               // below every binary32: the smallest, odd
    EXPECT_EQ(fc::bit_cast<std::uint32_t>(fc::round_to_odd(-1e60)), 0xff7fffffu);      // beyond: -FLT_MAX, not -inf
    EXPECT_EQ(fc::round_to_odd(1.5), 1.5f);                                            // exact stays
    EXPECT_EQ(fc::bit_cast<std::uint32_t>(fc::round_to_odd(1.0 + 0x1p-30)), 0x3f800001u);  // sticky: 1 + ulp
}

TEST(scaled_quantizers, a_declaration_the_element_cannot_encode_is_refused) {
    using q = reg::quantize_scaled<fc::float8_e4m3fn>;
    const fc::scaled_policy p{{fc::rounding::nearest_even, fc::saturation::infinity}, fc::scale_op::multiply, fc::intermediate::binary32};
    const auto r = fc::check_scaled_quantizer_of<fc::binary32, fc::float8_e4m3fn>(p, &q::quantize_scaled);
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("declares saturation=infinity"), std::string::npos) << *r.counterexample;
}
