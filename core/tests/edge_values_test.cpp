#include "flipcheck/edge_values.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace fc = flipcheck;

TEST(edge_values, hold_every_special_of_both_signs) {
    const auto e = fc::edge_values<fc::binary32>();
    for (std::uint32_t b : {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x3f800000u,
                            0xbf800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u})
        EXPECT_NE(std::find(e.begin(), e.end(), b), e.end()) << std::hex << b;
}

TEST(edge_values, random_bits_reach_every_class_often) {
    std::mt19937_64 rng(5);
    std::map<std::pair<fc::fp_class, bool>, int> seen;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        const auto c = fc::binary16::classify(fc::random_bits<fc::binary16>(rng));
        ++seen[{c.kind == fc::fp_class::signaling_nan ? fc::fp_class::quiet_nan : c.kind, c.negative}];
    }
    for (auto k : {fc::fp_class::quiet_nan, fc::fp_class::infinite, fc::fp_class::zero, fc::fp_class::subnormal, fc::fp_class::normal})
        for (bool neg : {false, true}) EXPECT_GE((seen[{k, neg}]), n / 50) << fc::to_string(k) << (neg ? "-" : "+");
}
