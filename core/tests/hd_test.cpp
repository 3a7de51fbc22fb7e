#include "flipcheck/hd.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace fc = flipcheck;

TEST(hd, bit_cast_round_trips_every_special_pattern) {
    for (std::uint32_t b : {0x00000000u, 0x80000000u, 0x7f800000u, 0x7fc00001u, 0xff800001u, 0x00000001u}) {
        EXPECT_EQ(fc::bit_cast<std::uint32_t>(fc::bit_cast<float>(b)), b);
    }
    EXPECT_EQ(fc::bit_cast<std::uint64_t>(1.0), 0x3ff0000000000000u);
}

TEST(hd, signbit_and_isnan_see_zero_signs_and_nan_signs) {
    EXPECT_TRUE(fc::detail::signbit(-0.0f));
    EXPECT_FALSE(fc::detail::signbit(0.0f));
    EXPECT_TRUE(fc::detail::signbit(fc::bit_cast<float>(0xffc00000u)));
    EXPECT_TRUE(fc::detail::isnan(fc::bit_cast<float>(0x7f800001u)));
    EXPECT_FALSE(fc::detail::isnan(std::numeric_limits<float>::infinity()));
}
