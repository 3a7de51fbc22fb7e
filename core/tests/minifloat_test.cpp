// The low-precision formats (minifloat.hpp): their encodings as data, and their decoding checked
// for every code against an independent reference, CUDA's host-callable conversions in
// cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (SKIPPED where the toolkit's headers are absent). CUDA has
// no fnuz conversion: those are checked against CUDA's e4m3/e5m2 halved (one more bias step), which
// holds for every code that is a number in both.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "flipcheck/minifloat.hpp"
#include "flipcheck/catalog/registry.hpp"

#if FLIPCHECK_HAVE_CUDA_FP_HEADERS
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#endif

namespace fc = flipcheck;
using fc::fp_class;

namespace {

template <class F>
int count_class(bool (*pred)(fc::classification)) {
    int n = 0;
    for (unsigned b = 0; b <= F::value_mask; ++b) n += pred(F::classify(std::uint8_t(b)));
    return n;
}
bool is_nan(fc::classification c) { return c.is_nan(); }
bool is_zero(fc::classification c) { return c.kind == fp_class::zero; }
bool is_inf(fc::classification c) { return c.kind == fp_class::infinite; }

}  // namespace

TEST(minifloat, encodings_are_data) {
    static_assert(fc::float8_e4m3fn::value_bits == 8 && fc::float8_e4m3fn::unused_mask == 0);
    static_assert(fc::float6_e2m3fn::value_bits == 6 && fc::float6_e2m3fn::unused_mask == 0xc0 && fc::float6_e2m3fn::sign_mask == 0x20);
    static_assert(fc::float4_e2m1fn::value_bits == 4 && fc::float4_e2m1fn::unused_mask == 0xf0 && fc::float4_e2m1fn::sign_mask == 0x08);
    static_assert(!fc::float8_e8m0fnu::is_signed && !fc::float8_e8m0fnu::has_negative_zero);
    static_assert(!fc::float8_e4m3fnuz::has_negative_zero && fc::float8_e4m3fnuz::quiet_nan == 0x80);
    static_assert(fc::float8_e5m2::has_infinity && fc::float8_e5m2::highest == 0x7c && fc::float8_e5m2::lowest == 0xfc);
    static_assert(fc::float8_e4m3fn::highest == 0x7e && fc::float8_e4m3fn::lowest == 0xfe);
    static_assert(fc::float8_e8m0fnu::highest == 0xfe && fc::float8_e8m0fnu::lowest == 0x00);
    static_assert(fc::float4_e2m1fn::packs_in_pairs);
    static_assert(fc::format<fc::float8_e4m3fn> && fc::format<fc::float4_e2m1fn> && fc::format<fc::float8_e8m0fnu>);
    // The NaN codes each format has, and its zeros and infinities.
    EXPECT_EQ(count_class<fc::float8_e4m3fn>(is_nan), 2);
    EXPECT_EQ(count_class<fc::float8_e5m2>(is_nan), 6);
    EXPECT_EQ(count_class<fc::float8_e4m3fnuz>(is_nan), 1);
    EXPECT_EQ(count_class<fc::float8_e5m2fnuz>(is_nan), 1);
    EXPECT_EQ(count_class<fc::float8_e8m0fnu>(is_nan), 1);
    EXPECT_EQ(count_class<fc::float6_e2m3fn>(is_nan) + count_class<fc::float4_e2m1fn>(is_nan), 0);
    EXPECT_EQ(count_class<fc::float8_e5m2>(is_inf), 2);
    EXPECT_EQ(count_class<fc::float8_e4m3fn>(is_inf), 0);
    EXPECT_EQ(count_class<fc::float8_e4m3fnuz>(is_zero), 1);
    EXPECT_EQ(count_class<fc::float8_e8m0fnu>(is_zero), 0);
    EXPECT_EQ(count_class<fc::float6_e3m2fn>(is_zero), 2);
}

TEST(minifloat, known_values) {
    EXPECT_EQ(fc::float8_e4m3fn::to_value(fc::float8_e4m3fn::max_finite), 448.0f);
    EXPECT_EQ(fc::float8_e5m2::to_value(fc::float8_e5m2::max_finite), 57344.0f);
    EXPECT_EQ(fc::float8_e4m3fnuz::to_value(0x7f), 240.0f);
    EXPECT_EQ(fc::float8_e5m2fnuz::to_value(0x7f), 57344.0f);
    EXPECT_EQ(fc::float8_e4m3fnuz::to_value(0x81), -std::ldexp(1.0f, -10));
    EXPECT_TRUE(std::isnan(fc::float8_e4m3fnuz::to_value(0x80)));
    EXPECT_TRUE(std::signbit(fc::float8_e4m3fnuz::to_value(0x80)));  // its sign bit is set: below every number
    EXPECT_EQ(fc::float8_e8m0fnu::to_value(0x7f), 1.0f);
    EXPECT_EQ(fc::float8_e8m0fnu::to_value(0x80), 2.0f);
    EXPECT_EQ(fc::float8_e8m0fnu::to_value(0x00), std::ldexp(1.0f, -127));
    EXPECT_TRUE(std::isnan(fc::float8_e8m0fnu::to_value(0xff)) && !std::signbit(fc::float8_e8m0fnu::to_value(0xff)));
    EXPECT_EQ(fc::float6_e2m3fn::to_value(0x1f), 7.5f);
    EXPECT_EQ(fc::float6_e3m2fn::to_value(0x1f), 28.0f);
    EXPECT_EQ(fc::float4_e2m1fn::to_value(0x07), 6.0f);
    EXPECT_EQ(fc::float4_e2m1fn::to_value(0x09), -0.5f);
    // Unused container bits are read as if clear.
    EXPECT_EQ(fc::float4_e2m1fn::to_value(0xf7), 6.0f);
    EXPECT_EQ(fc::float6_e2m3fn::classify(0xe0).kind, fp_class::zero);
    // Packed pairs: element 0 in the low nibble.
    using P = fc::packed_pair<fc::float4_e2m1fn>;
    EXPECT_EQ(P::lane(0x9f, 0), 0xf);
    EXPECT_EQ(P::lane(0x9f, 1), 0x9);
    EXPECT_EQ(P::pack(0x2, 0xa), 0xa2);
}

// Every NaN, and nothing else, decodes to a NaN; every other code to a distinct value, except the
// zeros, which differ by sign.
TEST(minifloat, decoding_is_injective_on_numbers) {
    fc::registry::for_each<fc::registry::low_precision_formats>([]<class E>() {
        using F = typename E::type;
        for (unsigned a = 0; a <= F::value_mask; ++a)
            for (unsigned b = a + 1; b <= F::value_mask; ++b) {
                const float x = F::to_value(std::uint8_t(a)), y = F::to_value(std::uint8_t(b));
                if (std::isnan(x) || std::isnan(y)) continue;
                EXPECT_FALSE(x == y && std::signbit(x) == std::signbit(y)) << F::name << " " << a << " " << b;
            }
    });
}

#if FLIPCHECK_HAVE_CUDA_FP_HEADERS
namespace {
float from_half(__half_raw h) { return fc::binary16::to_value(h.x); }
float from_bf16(__nv_bfloat16_raw h) { return fc::bfloat16::to_value(h.x); }

// Same number, or both NaN (CUDA returns its canonical NaN whatever the sign: NaN-ness is compared).
void expect_same(float ours, float cuda, std::string_view format, unsigned code) {
    if (std::isnan(cuda)) {
        EXPECT_TRUE(std::isnan(ours)) << format << " code " << code;
        return;
    }
    EXPECT_EQ(fc::bit_cast<std::uint32_t>(ours), fc::bit_cast<std::uint32_t>(cuda))
        << format << " code 0x" << std::hex << code << ": ours " << ours << ", CUDA " << cuda;
}
}  // namespace

TEST(minifloat, decoding_matches_cuda_for_every_code) {
    for (unsigned b = 0; b < 256; ++b) {
        const auto x = __nv_fp8_storage_t(b);
        expect_same(fc::float8_e4m3fn::to_value(std::uint8_t(b)), from_half(__nv_cvt_fp8_to_halfraw(x, __NV_E4M3)), "e4m3fn", b);
        expect_same(fc::float8_e5m2::to_value(std::uint8_t(b)), from_half(__nv_cvt_fp8_to_halfraw(x, __NV_E5M2)), "e5m2", b);
        expect_same(fc::float8_e8m0fnu::to_value(std::uint8_t(b)), from_bf16(__nv_cvt_e8m0_to_bf16raw(x)), "e8m0", b);
    }
    for (unsigned b = 0; b < 64; ++b) {
        const auto x = __nv_fp6_storage_t(b);
        expect_same(fc::float6_e2m3fn::to_value(std::uint8_t(b)), from_half(__nv_cvt_fp6_to_halfraw(x, __NV_E2M3)), "e2m3", b);
        expect_same(fc::float6_e3m2fn::to_value(std::uint8_t(b)), from_half(__nv_cvt_fp6_to_halfraw(x, __NV_E3M2)), "e3m2", b);
    }
    for (unsigned b = 0; b < 16; ++b)
        expect_same(fc::float4_e2m1fn::to_value(std::uint8_t(b)), from_half(__nv_cvt_fp4_to_halfraw(__nv_fp4_storage_t(b), __NV_E2M1)), "e2m1", b);
    // The packed pair form against CUDA's fp4x2 conversion: lane 0 is its .x, lane 1 its .y.
    using P = fc::packed_pair<fc::float4_e2m1fn>;
    for (unsigned b = 0; b < 256; ++b) {
        const __half2_raw h = __nv_cvt_fp4x2_to_halfraw2(__nv_fp4x2_storage_t(b), __NV_E2M1);
        expect_same(fc::float4_e2m1fn::to_value(P::lane(std::uint8_t(b), 0)), fc::binary16::to_value(h.x), "e2m1x2 lane 0", b);
        expect_same(fc::float4_e2m1fn::to_value(P::lane(std::uint8_t(b), 1)), fc::binary16::to_value(h.y), "e2m1x2 lane 1", b);
    }
}

TEST(minifloat, fnuz_decoding_is_cuda_fn_halved) {
    for (unsigned b = 0; b < 256; ++b) {
        const auto x = __nv_fp8_storage_t(b);
        const float e4m3 = from_half(__nv_cvt_fp8_to_halfraw(x, __NV_E4M3)), e5m2 = from_half(__nv_cvt_fp8_to_halfraw(x, __NV_E5M2));
        if (b != 0x80 && !std::isnan(e4m3)) expect_same(fc::float8_e4m3fnuz::to_value(std::uint8_t(b)), e4m3 / 2, "e4m3fnuz", b);
        if (b != 0x80 && std::isfinite(e5m2)) expect_same(fc::float8_e5m2fnuz::to_value(std::uint8_t(b)), e5m2 / 2, "e5m2fnuz", b);
    }
    // Where CUDA's fn formats have a NaN or an infinity, fnuz has numbers: the top binade.
    EXPECT_EQ(fc::float8_e4m3fnuz::to_value(0x7f), 240.0f);
    EXPECT_EQ(fc::float8_e5m2fnuz::to_value(0x7c), 32768.0f);
    EXPECT_TRUE(std::isnan(fc::float8_e4m3fnuz::to_value(0x80)) && std::isnan(fc::float8_e5m2fnuz::to_value(0x80)));
}
#else
TEST(minifloat, decoding_matches_cuda_for_every_code) {
    GTEST_SKIP() << "CUDA's cuda_fp8.h/cuda_fp6.h/cuda_fp4.h not found at configure time: no reference to decode against";
}
TEST(minifloat, fnuz_decoding_is_cuda_fn_halved) { GTEST_SKIP() << "CUDA's cuda_fp8.h not found at configure time"; }
#endif
