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

namespace {

// judge_codes against the plain walk on the same stored codes: the same checks and, for each law,
// the same first finding (input, neighbour, codes, rank), on chunks at zero, around the largest
// finite values and infinity, and in the NaNs, with right codes and with codes changed at random
// (inside a stretch, at its ends, at a point of the step table, in the neighbour's slots).
template <class E>
void judge_codes_agrees_with_the_walk(fc::quantize_policy p, std::uint32_t seed) {
    namespace qc = fc::quantize_check;
    using C = fc::code_t<E>;
    const qc::oracle_steps<E> steps(p);
    const auto view = steps.view();
    const float* value = qc::element_values<E>().data();
    std::uint32_t state = seed;
    const auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    const std::uint64_t top = 0x7fffffffu, width = 3000;
    const std::uint64_t starts[] = {0, 1, 0x3c7fff00u, view.points[view.size / 2] - 700, view.points[view.size - 2] - 2000, 0x7f800000u - 1500,
                                    0x7fc00000u, top + 1 - width};
    for (std::uint64_t a : starts) {
        const std::uint64_t e = a + width - 1;
        std::vector<C> right(2 * width + 2);
        for (std::uint64_t m = (a == 0 ? 0 : a - 1); m <= e; ++m)
            for (std::uint32_t s = 0; s < 2; ++s)
                right[std::size_t(2 * (m - a + 1) + s)] = fc::oracle::quantize<E>(p, double(fc::bit_cast<float>(std::uint32_t(m) | s << 31)));
        std::vector<std::size_t> points;  // the slots of the table's points in the chunk
        for (std::size_t k = 0; k < view.size; ++k)
            if (view.points[k] >= a && view.points[k] <= e) points.push_back(std::size_t(2 * (view.points[k] - a + 1)));
        for (int trial = 0; trial < 80; ++trial) {
            std::vector<C> codes = right;
            if (trial == 1)  // every NaN to code 0: the table has no answer there, only the walk does
                for (std::uint64_t m = std::max<std::uint64_t>(a == 0 ? 0 : a - 1, 0x7f800001u); m <= e; ++m) codes[2 * (m - a + 1)] = codes[2 * (m - a + 1) + 1] = 0;
            for (int k = trial % 4; k > 0; --k) {  // trial 0 and every fourth: the right codes
                const std::size_t any = next() % codes.size();
                switch (next() % 5) {
                case 0:  // a point takes the code just below it (a tie broken the wrong way)
                    if (!points.empty()) {
                        const std::size_t at = points[next() % points.size()] + next() % 2;
                        if (at >= 2) codes[at] = codes[at - 2];
                    }
                    break;
                case 1: codes[any] = C(codes[any] + 1); break;
                case 2: codes[any] = C(codes[any] - 1); break;
                case 3: codes[any] = C(next() % (std::uint32_t(1) << E::width)); break;
                default: {  // the neighbour's slots (or, at zero, the first magnitudes')
                    const std::size_t at = a == 0 ? 2 + next() % 6 : next() % 4;
                    codes[at] = C(next() % (std::uint32_t(1) << E::width));
                }
                }
            }
            const auto q = [&](std::uint32_t x) { return codes[std::size_t((std::int64_t(x & 0x7fffffffu) - std::int64_t(a) + 1) * 2 + (x >> 31))]; };
            qc::findings<std::uint32_t, C> walked, judged;
            const std::uint64_t from = a == 0 ? 0 : a - 1;
            qc::walk<fc::binary32, E>(walked, value, q, qc::stepped_want<fc::binary32, C>{view, view.find(std::uint32_t(from))}, from, e, nullptr, 0,
                                      a != 0);
            qc::judge_codes<E>(judged, view, value, codes.data(), a, e);
            ASSERT_EQ(judged.checks, walked.checks) << E::name << " at " << a << ", trial " << trial;
            for (int l = 0; l < 4; ++l) {
                const auto &j = judged.first[l], &w = walked.first[l];
                ASSERT_EQ(j.rank, w.rank) << E::name << " law " << l << " at " << a << ", trial " << trial;
                EXPECT_EQ(j.x, w.x);
                EXPECT_EQ(j.previous, w.previous);
                EXPECT_EQ(int(j.got), int(w.got));
                EXPECT_EQ(int(j.want), int(w.want));
                EXPECT_EQ(int(j.previous_got), int(w.previous_got));
            }
        }
    }
}

}  // namespace

// The every-input judge skips what the step table proves right; it must find what the walk finds.
TEST(quantizers, judging_stored_codes_finds_what_the_walk_finds) {
    judge_codes_agrees_with_the_walk<fc::float8_e4m3fn>({fc::rounding::nearest_even, fc::saturation::finite}, 1);
    judge_codes_agrees_with_the_walk<fc::float8_e5m2>({fc::rounding::toward_zero, fc::saturation::infinity}, 2);
    judge_codes_agrees_with_the_walk<fc::float4_e2m1fn>({fc::rounding::up, fc::saturation::finite}, 3);
    judge_codes_agrees_with_the_walk<fc::bfloat16>({fc::rounding::nearest_even, fc::saturation::infinity}, 4);
    judge_codes_agrees_with_the_walk<fc::float8_e4m3fnuz>({fc::rounding::nearest_even, fc::saturation::nan}, 5);
}
