// quantize.hpp and check/quantizers.hpp: the oracle against CUDA's host-callable conversions
// (an independent reference; SKIPPED without the toolkit's headers), the built-in quantizers
// against the oracle, and each quantizer mutant killed by the law it was written to break.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/quantize.hpp"

#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#endif

namespace fc = flipcheck;
using fc::law_id;

namespace {

template <class E>
void expect_oracle(fc::quantize_policy p, float x, fc::code_t<E> want) {
    const fc::code_t<E> got = fc::oracle::quantize<E>(p, double(x));
    if (E::is_nan_bits(want)) EXPECT_TRUE(E::is_nan_bits(got)) << E::name << " " << x;
    else EXPECT_EQ(int(got), int(want)) << E::name << " " << x;
}

}  // namespace

TEST(quantize_oracle, known_values) {
    using E = fc::float8_e4m3fn;
    constexpr fc::quantize_policy rn{};
    expect_oracle<E>(rn, 17.0f, 0x58);   // halfway between 16 (0x58) and 18 (0x59): the even code
    expect_oracle<E>(rn, 464.0f, 0x7e);  // halfway from 448 to 480 (past max): the even 448
    expect_oracle<E>(rn, 1e9f, 0x7e);
    expect_oracle<E>(rn, -0.0f, 0x80);
    expect_oracle<E>({fc::rounding::nearest_even, fc::saturation::nan}, 465.0f, 0x7f);
    expect_oracle<E>({fc::rounding::nearest_even, fc::saturation::nan}, 464.0f, 0x7e);
    expect_oracle<E>({fc::rounding::up, fc::saturation::finite}, 1.01f, 0x39);          // 1.125
    expect_oracle<E>({fc::rounding::up, fc::saturation::finite}, -1.01f, 0xb8);         // -1: toward +inf
    expect_oracle<E>({fc::rounding::toward_zero, fc::saturation::finite}, 1.99f, 0x3f);  // 1.875
    // fnuz: no -0, so a negative value that rounds to zero is +0 (0x80 is the NaN).
    expect_oracle<fc::float8_e4m3fnuz>(rn, -1e-30f, 0x00);
    expect_oracle<fc::float8_e4m3fnuz>(rn, -0.0f, 0x00);
    // e5m2 overflows to infinity when it may: 61440 is halfway from 57344 to 65536, the even one.
    expect_oracle<fc::float8_e5m2>({fc::rounding::nearest_even, fc::saturation::infinity}, 61440.0f, 0x7c);
    expect_oracle<fc::float8_e5m2>({fc::rounding::nearest_even, fc::saturation::infinity}, 61439.0f, 0x7b);
    expect_oracle<fc::float8_e5m2>({fc::rounding::toward_zero, fc::saturation::infinity}, 1e9f, 0x7b);
    // 16-bit elements: binary16's 65520 is halfway from its max 65504 (odd code 0x7bff) to 65536,
    // so nearest-even overflows to inf; bfloat16's max is 0x7f7f, the top of binary32's range.
    constexpr fc::quantize_policy to_inf{fc::rounding::nearest_even, fc::saturation::infinity};
    expect_oracle<fc::binary16>(to_inf, 65519.0f, 0x7bff);
    expect_oracle<fc::binary16>(to_inf, 65520.0f, 0x7c00);
    expect_oracle<fc::binary16>(to_inf, 1.0f + 0x1p-11f, 0x3c00);  // a tie: to the even 1.0
    expect_oracle<fc::binary16>(to_inf, 0x1p-25f, 0x0000);          // half of denorm_min: the even 0
    expect_oracle<fc::binary16>(to_inf, 0x1.000002p-25f, 0x0001);
    expect_oracle<fc::bfloat16>(to_inf, fc::bit_cast<float>(0x7f7f7fffu), 0x7f7f);
    expect_oracle<fc::bfloat16>(to_inf, fc::bit_cast<float>(0x7f7f8000u), 0x7f80);  // a tie past max: inf
    expect_oracle<fc::bfloat16>(to_inf, fc::bit_cast<float>(0x00018000u), 0x0002);  // a subnormal tie to even
}

// The built-in narrowing to bfloat16 against the textbook bit trick (round the low half to even
// by an add; independent of both the oracle and quantize_bits), on every binary32 pattern whose
// low half is one of the interesting ones, both signs.
TEST(quantize_built_in, narrowing_to_bfloat16_agrees_with_the_bit_trick) {
    using Q = fc::registry::narrow_binary32<fc::bfloat16>;
    for (std::uint32_t h = 0; h <= 0xffffu; ++h)
        for (std::uint32_t low : {0u, 1u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
            const std::uint32_t u = h << 16 | low;
            if ((u & 0x7fffffffu) > 0x7f800000u) continue;  // NaN: any NaN code, judged by the laws
            const std::uint16_t want = std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
            ASSERT_EQ(Q::quantize(u), want) << std::hex << u;
        }
}

#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
// Every bfloat16 pattern and the binary32 patterns just around it (midpoints sit there).
template <class Visit>
void around_bfloat16(Visit&& visit) {
    for (std::uint32_t h = 0; h <= 0xffffu; ++h)
        for (std::uint32_t low : {0u, 1u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) visit(fc::bit_cast<float>(h << 16 | low));
}
#endif

TEST(quantize_oracle, agrees_with_cudas_conversions) {
#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
    constexpr fc::quantize_policy rn{}, nosat_nan{fc::rounding::nearest_even, fc::saturation::nan},
        nosat_inf{fc::rounding::nearest_even, fc::saturation::infinity};
    around_bfloat16([&](float x) {
        expect_oracle<fc::float8_e4m3fn>(rn, x, __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
        expect_oracle<fc::float8_e5m2>(rn, x, __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2));
        expect_oracle<fc::float8_e4m3fn>(nosat_nan, x, __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3));
        expect_oracle<fc::float8_e5m2>(nosat_inf, x, __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2));
        if (x != x) return;  // the fp6 and fp4 elements have no NaN: nothing to compare
        expect_oracle<fc::float6_e2m3fn>(rn, x, __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest));
        expect_oracle<fc::float6_e3m2fn>(rn, x, __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest));
        expect_oracle<fc::float4_e2m1fn>(rn, x, __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest));
        if (x != x) return;
        const auto half_bits = [](__half h) { return __half_raw(h).x; };
        const auto bf16_bits = [](__nv_bfloat16 h) { return __nv_bfloat16_raw(h).x; };
        expect_oracle<fc::binary16>(nosat_inf, x, half_bits(__float2half_rn(x)));
        expect_oracle<fc::binary16>({fc::rounding::toward_zero, fc::saturation::infinity}, x, half_bits(__float2half_rz(x)));
        expect_oracle<fc::binary16>({fc::rounding::up, fc::saturation::infinity}, x, half_bits(__float2half_ru(x)));
        expect_oracle<fc::bfloat16>(nosat_inf, x, bf16_bits(__float2bfloat16_rn(x)));
        expect_oracle<fc::bfloat16>({fc::rounding::toward_zero, fc::saturation::infinity}, x, bf16_bits(__float2bfloat16_rz(x)));
        expect_oracle<fc::bfloat16>({fc::rounding::up, fc::saturation::infinity}, x, bf16_bits(__float2bfloat16_ru(x)));
    });
    if (HasFailure()) GTEST_FAIL() << "the oracle and CUDA disagree (first failures above)";
#else
    GTEST_SKIP() << "CUDA's cuda_fp8.h was not found at configure time";
#endif
}

// Every built-in quantizer of the registry passes its own declaration (16-bit inputs: every
// pattern; binary32: the sampled domain; the release suite's quantize_exhaustive_test does all).
TEST(quantizers, every_built_in_passes) {
    int n = 0;
    fc::registry::for_each<fc::registry::scaling_instances>([&]<class I>() {
        if constexpr (fc::quantizer_subject<typename I::type>) {
            const auto r = fc::check_quantizer<typename I::type>();
            EXPECT_TRUE(r.passed()) << I::entry::name << " " << r.claim << ": " << r.counterexample.value_or("");
            EXPECT_GT(r.checks, 60000u) << I::entry::name;
            ++n;
        }
    });
    EXPECT_EQ(n, 7 * 5 + 4 + 2);
}

// Each quantizer mutant fails, and among its failures is the law it was written to break (in the
// rounding mode that shows it, for quantize_nearbyint: check_scaling's dimension).
TEST(quantizers, every_mutant_is_killed_by_its_law) {
    int n = 0;
    fc::registry::for_each<fc::registry::scaling_mutant_instances>([&]<class I>() {
        if constexpr (fc::quantizer_subject<typename I::type>) {
            const auto r = fc::check_scaling<typename I::type>();
            EXPECT_FALSE(r.passed()) << I::entry::name;
            EXPECT_TRUE(r.failed & fc::law_bit(I::entry::killed_by))
                << I::entry::name << " on " << I::format::name << ": " << r.counterexample.value_or("");
            ++n;
        }
    });
    EXPECT_EQ(n, 3 + 2 + 2 + 2 + 1 + 2 + 1);
}

TEST(quantizers, a_counterexample_is_the_smallest_input) {
    const auto r = fc::check_quantizer<fc::registry::quantize_truncated<fc::float8_e4m3fn>>();
    ASSERT_FALSE(r.passed());
    // The first input truncation gets wrong: just above half the smallest subnormal, 2^-10.
    EXPECT_NE(r.counterexample->find("quantize_rounding: quantize(0x3a800001"), std::string::npos) << *r.counterexample;
    EXPECT_EQ(r.replay, "binary32: 0x3a800001");
}

TEST(quantizers, a_declaration_the_element_cannot_encode_is_refused) {
    using bad = fc::quantizer<fc::binary32, fc::float8_e5m2, fc::registry::rn_satfinite>;
    const auto r = fc::check_quantizer_of<fc::binary32, fc::float8_e4m3fn>({fc::rounding::nearest_even, fc::saturation::infinity},
                                                                           [](std::uint32_t x) { return bad::quantize(x); });
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("no infinity"), std::string::npos) << *r.counterexample;
}
