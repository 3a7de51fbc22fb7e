#include "flipcheck/format.hpp"
#include "flipcheck/catalog/registry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "known_values.hpp"

namespace fc = flipcheck;
using fc::fp_class;

TEST(format, layouts_match_ieee) {
    EXPECT_EQ(fc::binary16::sign_mask, 0x8000);
    EXPECT_EQ(fc::binary16::exponent_mask, 0x7c00);
    EXPECT_EQ(fc::binary16::mantissa_mask, 0x03ff);
    EXPECT_EQ(fc::bfloat16::exponent_mask, 0x7f80);
    EXPECT_EQ(fc::bfloat16::mantissa_mask, 0x007f);
    EXPECT_EQ(fc::binary32::exponent_mask, 0x7f800000u);
    EXPECT_EQ(fc::binary32::quiet_bit, 0x00400000u);
    EXPECT_EQ(fc::binary64::exponent_mask, 0x7ff0000000000000u);
    EXPECT_EQ(fc::binary64::mantissa_bits, 52);
    EXPECT_EQ(fc::binary16::bias, 15);
    EXPECT_EQ(fc::binary64::bias, 1023);
}

template <class F, class Rows>
void expect_classes(const Rows& rows) {
    for (const auto& r : rows) {
        const std::string w = r.what;
        const bool negative = w[0] == '-';
        const std::string base = w.substr(1);
        fp_class want = fp_class::normal;
        if (base == "qnan") want = fp_class::quiet_nan;
        else if (base == "snan") want = fp_class::signaling_nan;
        else if (base == "inf") want = fp_class::infinite;
        else if (base == "0") want = fp_class::zero;
        else if (base == "denorm_min" || base == "max_sub") want = fp_class::subnormal;
        const fc::classification c = F::classify(r.bits);
        EXPECT_EQ(c.kind, want) << F::name << " " << w;
        EXPECT_EQ(c.negative, negative) << F::name << " " << w;
    }
}

TEST(format, classify_every_special_class_of_every_format) {
    expect_classes<fc::binary16>(fc::test::binary16_keys);
    expect_classes<fc::bfloat16>(fc::test::bfloat16_keys);
    expect_classes<fc::binary32>(fc::test::binary32_keys);
    expect_classes<fc::binary64>(fc::test::binary64_keys);
}

static std::uint32_t bits_of(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }

TEST(format, binary16_decodes_exactly) {
    EXPECT_EQ(fc::binary16::to_value(0x3c00), 1.0f);
    EXPECT_EQ(fc::binary16::to_value(0xbc00), -1.0f);
    EXPECT_EQ(fc::binary16::to_value(0x7bff), 65504.0f);
    EXPECT_EQ(fc::binary16::to_value(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(fc::binary16::to_value(0x83ff), -1023 * std::ldexp(1.0f, -24));
    EXPECT_EQ(fc::binary16::to_value(0x0400), std::ldexp(1.0f, -14));
    EXPECT_EQ(fc::binary16::to_value(0x3555), 0x1.554p-2f);
    EXPECT_EQ(bits_of(fc::binary16::to_value(0x8000)), 0x80000000u);
    EXPECT_EQ(bits_of(fc::binary16::to_value(0xfc00)), 0xff800000u);
    // NaNs keep sign, quietness and payload (shifted into the top of the binary32 mantissa).
    EXPECT_EQ(bits_of(fc::binary16::to_value(0x7e01)), 0x7fc02000u);
    EXPECT_EQ(bits_of(fc::binary16::to_value(0xfc01)), 0xff802000u);
}

TEST(format, binary16_decode_is_monotone_over_positive_finite_patterns) {
    // Every finite positive pattern must decode to a strictly larger float than its predecessor.
    for (std::uint32_t b = 1; b < 0x7c00; ++b)
        ASSERT_LT(fc::binary16::to_value(std::uint16_t(b - 1)), fc::binary16::to_value(std::uint16_t(b))) << b;
}

TEST(format, bfloat16_decodes_as_the_top_half_of_binary32) {
    EXPECT_EQ(fc::bfloat16::to_value(0x3f80), 1.0f);
    EXPECT_EQ(fc::bfloat16::to_value(0x4049), 3.140625f);
    EXPECT_EQ(bits_of(fc::bfloat16::to_value(0xff81)), 0xff810000u);
}

// Formats are named at run time by their registry ids (stable: fuzz inputs decode them).
TEST(format, registry_ids_name_each_built_in) {
    namespace reg = flipcheck::registry;
    static_assert(reg::format_id<flipcheck::binary16> == 0x01);
    static_assert(reg::format_id<flipcheck::bfloat16> == 0x02);
    static_assert(reg::format_id<flipcheck::binary32> == 0x03);
    EXPECT_EQ(reg::format_id<flipcheck::binary64>, 0x04);
}
