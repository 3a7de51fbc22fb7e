// scale.hpp: each formula's edge cases by hand, and the built-ins' rounding to e4m3fn against
// CUDA's own host conversion (cuda_fp8.h) on every bfloat16 magnitude, where the headers exist.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "flipcheck/scale.hpp"

#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
#include <cuda_fp8.h>
#endif

namespace fc = flipcheck;

TEST(mx_scale, the_spec_formula_and_its_clamps) {
    using fc::float8_e4m3fn;
    EXPECT_EQ(fc::emax_of<float8_e4m3fn>, 8);
    EXPECT_EQ(fc::emax_of<fc::float8_e5m2>, 15);
    EXPECT_EQ(fc::emax_of<fc::float6_e2m3fn>, 2);
    EXPECT_EQ(fc::emax_of<fc::float6_e3m2fn>, 4);
    EXPECT_EQ(fc::emax_of<fc::float4_e2m1fn>, 2);
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(448.0f), 127) << "amax = max_E: scale 2^0";
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(511.0f), 127) << "floor(log2(511)) = 8";
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(512.0f), 128);
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(NAN), 0xff);
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(0.0f), 0x00);
    EXPECT_EQ(fc::oracle::mx_scale<float8_e4m3fn>(INFINITY), 0xfe);
    EXPECT_EQ(fc::oracle::mx_scale<fc::float4_e2m1fn>(FLT_MAX), 252) << "2^127 / 2^2";
    EXPECT_EQ(fc::oracle::mx_scale<fc::float4_e2m1fn>(std::ldexp(1.0f, -125)), 0) << "-125 - 2 + 127 = 0";
    EXPECT_EQ(fc::oracle::mx_scale<fc::float4_e2m1fn>(std::ldexp(1.0f, -124)), 1);
    EXPECT_EQ(fc::mx_scale_bits<fc::float4_e2m1fn>(0xffc00000u), 0xff) << "a negative NaN is a NaN";
}

TEST(tensor_scale, transformer_engines_rules_with_nan_propagated) {
    EXPECT_EQ(fc::oracle::tensor_scale(448.0f, 2.0f), 224.0f);
    EXPECT_EQ(fc::oracle::tensor_scale(448.0f, 0.0f), 1.0f);
    EXPECT_EQ(fc::oracle::tensor_scale(448.0f, INFINITY), 1.0f);
    EXPECT_EQ(fc::oracle::tensor_scale(448.0f, 1e-45f), FLT_MAX) << "448 / denorm_min overflows";
    EXPECT_TRUE(std::isnan(fc::oracle::tensor_scale(448.0f, NAN)));
    EXPECT_EQ(fc::tensor_scale(448.0f, 3.0f), fc::oracle::tensor_scale(448.0f, 3.0f));
}

TEST(e8m0_decode, the_two_special_codes) {
    EXPECT_EQ(fc::bit_cast<std::uint32_t>(fc::e8m0_decode::decode(0x00)), 0x00400000u) << "2^-127, subnormal";
    EXPECT_TRUE(std::isnan(fc::e8m0_decode::decode(0xff)));
    EXPECT_EQ(fc::e8m0_decode::decode(127), 1.0f);
}

TEST(e4m3fn_rounding, search_and_bit_arithmetic_agree_on_every_bfloat16_magnitude) {
    for (std::uint32_t h = 0; h <= 0x7fc0u; ++h) {
        const float x = fc::bit_cast<float>(h << 16);
        ASSERT_EQ(fc::to_e4m3fn_satfinite(x), fc::oracle::e4m3fn_satfinite(x)) << x;
    }
    // Ties to even: 17 lies halfway between 16 (0x58) and 18 (0x59): the even code.
    EXPECT_EQ(fc::to_e4m3fn_satfinite(17.0f), 0x58);
    EXPECT_EQ(fc::to_e4m3fn_satfinite(464.0f), 0x7e) << "halfway to the NaN code: saturate";
}

TEST(e4m3fn_rounding, agrees_with_cudas_satfinite_conversion) {
#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
    for (std::uint32_t h = 0; h <= 0x7fc0u; ++h)
        for (std::uint32_t low : {0u, 0x7fffu, 0x8000u, 0x8001u}) {
            const float x = fc::bit_cast<float>(h << 16 | low);
            const auto cuda = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
            ASSERT_EQ(fc::to_e4m3fn_satfinite(x), std::uint8_t(cuda)) << x;
        }
#else
    GTEST_SKIP() << "CUDA's cuda_fp8.h was not found at configure time";
#endif
}
