// The formats of FP8 training, MX block scaling and NVFP4: 8-bit and smaller floats held in a
// byte, described as data (the names and encodings follow ml_dtypes and LLVM's APFloat):
//
//   format            layout  bias  infinity  NaN                          -0   signed
//   float8_e4m3fn     1-4-3     7   none      S.1111.111 only (0x7f, 0xff)  yes  yes
//   float8_e5m2       1-5-2    15   yes       IEEE                          yes  yes
//   float8_e4m3fnuz   1-4-3     8   none      0x80 only                     no   yes
//   float8_e5m2fnuz   1-5-2    16   none      0x80 only                     no   yes
//   float8_e8m0fnu    0-8-0   127   none      0xff only                     no   no (2^(e-127), no zero)
//   float6_e2m3fn     1-2-3     1   none      none                          yes  yes  (top 2 bits unused)
//   float6_e3m2fn     1-3-2     3   none      none                          yes  yes  (top 2 bits unused)
//   float4_e2m1fn     1-2-1     1   none      none                          yes  yes  (top 4 bits unused,
//                                                                                     or two per byte)
//
// Every code decodes exactly to a binary32 (the widest of these has 8 exponent bits and 3 mantissa
// bits). The decoding is checked for every code against CUDA's cuda_fp8.h/cuda_fp6.h/cuda_fp4.h
// conversions (core/tests/minifloat_test.cpp) and, on the lent GPU, against PyTorch and ml_dtypes.
//
// Choices the encodings leave open, made here once (docs/formats.md):
//   - The fnuz formats' one NaN is 0x80, the pattern IEEE would read as -0: its sign bit is set,
//     so it decodes to a negative NaN and IEEE totalOrder (defined on the sign bit for NaNs)
//     places it below every number. A key may place it at the top instead (format_key's
//     nan_end::top): what a propagating max needs.
//   - e8m0 has no sign: every code is positive, its NaN 0xff included, so totalOrder is the
//     codes' own order with the NaN on top. `sign_mask` names its top bit only because that is
//     the bit a sign-flip key treats as a sign (and why such a key reverses e8m0's order).
//   - `zero` of e8m0 names code 0x00, 2^-127, its least value: the format has no zero.
//   - Codes with unused container bits set are not the format's: to_value and classify read
//     them as the code with those bits cleared (what hardware that ignores them sees), and the
//     laws check that a mapping masks or rejects them (law.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flipcheck/format.hpp"

namespace flipcheck {

template <bool Signed, int ExponentBits, int MantissaBits, int Bias, bool Infinity, nan_encoding Nans>
struct minifloat {
    using storage = std::uint8_t;
    using value_type = float;
    static constexpr int width = 8;
    static constexpr int value_bits = int(Signed) + ExponentBits + MantissaBits;
    static_assert(value_bits <= width);
    static constexpr int exponent_bits = ExponentBits;
    static constexpr int mantissa_bits = MantissaBits;
    static constexpr int bias = Bias;

    static constexpr bool has_infinity = Infinity;
    static constexpr nan_encoding nans = Nans;
    static constexpr bool has_negative_zero = Signed && Nans != nan_encoding::single_pattern;
    static constexpr bool is_signed = Signed;

    static constexpr storage all_ones = 0xff;
    static constexpr storage value_mask = storage((1u << value_bits) - 1);
    static constexpr storage unused_mask = storage(~value_mask);
    static constexpr storage sign_mask = storage(1u << (value_bits - 1));
    static constexpr storage exponent_mask = storage(((1u << ExponentBits) - 1) << MantissaBits);
    static constexpr storage mantissa_mask = storage((1u << MantissaBits) - 1);
    static constexpr storage quiet_bit = storage(MantissaBits > 0 ? 1u << (MantissaBits - 1) : 0u);

    // The one NaN code of a single-pattern format: -0's pattern if signed, all ones if not.
    static constexpr storage single_nan = Signed ? sign_mask : value_mask;
    static constexpr storage positive_top = Signed ? storage(sign_mask - 1) : value_mask;  // largest positive code
    static constexpr storage max_finite = storage(
        Nans == nan_encoding::ieee ? positive_top - mantissa_mask - 1                        // below inf and the NaNs
        : Nans == nan_encoding::all_ones_only || (Nans == nan_encoding::single_pattern && !Signed) ? positive_top - 1
                                                                                                    : positive_top);

    // Named patterns (positive; OR in sign_mask for the negative twin, where there is one).
    static constexpr storage zero = 0;
    static constexpr storage denorm_min = 1;
    static constexpr storage max_subnormal = mantissa_mask;
    static constexpr storage min_normal = storage(1u << MantissaBits);
    static constexpr storage one = storage(unsigned(Bias) << MantissaBits);
    static constexpr storage infinity = Infinity ? exponent_mask : max_finite;  // no infinity: the largest finite
    static constexpr storage quiet_nan = Nans == nan_encoding::ieee ? storage(exponent_mask | quiet_bit)
                                         : Nans == nan_encoding::all_ones_only ? storage(exponent_mask | mantissa_mask)
                                         : Nans == nan_encoding::single_pattern ? single_nan
                                                                                : storage(0);  // none: never read
    static constexpr storage signaling_nan = Nans == nan_encoding::ieee ? storage(exponent_mask | 1) : quiet_nan;
    static constexpr storage highest = Infinity ? infinity : max_finite;
    static constexpr storage lowest = Signed ? storage(highest | sign_mask) : storage(0);

    FLIPCHECK_HD static constexpr bool negative(storage b) noexcept { return Signed && (b & sign_mask) != 0; }
    FLIPCHECK_HD static constexpr storage exponent_field(storage b) noexcept {
        return storage((b & exponent_mask) >> MantissaBits);
    }
    FLIPCHECK_HD static constexpr storage mantissa_field(storage b) noexcept { return storage(b & mantissa_mask); }
    FLIPCHECK_HD static constexpr bool is_nan_bits(storage b) noexcept {
        b = storage(b & value_mask);
        if constexpr (Nans == nan_encoding::ieee)
            return (b & exponent_mask) == exponent_mask && (b & mantissa_mask) != 0;
        else if constexpr (Nans == nan_encoding::all_ones_only)
            return storage(b & ~sign_mask) == storage(exponent_mask | mantissa_mask);
        else if constexpr (Nans == nan_encoding::single_pattern)
            return b == single_nan;
        else
            return false;
    }
    FLIPCHECK_HD static constexpr bool is_infinite_bits(storage b) noexcept {
        return Infinity && storage(b & value_mask & ~sign_mask) == exponent_mask;
    }

    FLIPCHECK_HD static constexpr classification classify(storage b) noexcept {
        b = storage(b & value_mask);
        fp_class k;
        if (is_nan_bits(b))  // only e5m2 has IEEE's quiet bit; the others' NaNs count as quiet
            k = Nans == nan_encoding::ieee && !(b & quiet_bit) ? fp_class::signaling_nan : fp_class::quiet_nan;
        else if (is_infinite_bits(b)) k = fp_class::infinite;
        else if (!Signed) k = fp_class::normal;       // e8m0: every code is 2^(e - bias)
        else if (exponent_field(b) == 0) k = mantissa_field(b) == 0 ? fp_class::zero : fp_class::subnormal;
        else k = fp_class::normal;
        return {k, negative(b)};
    }

    // Exact: the magnitude is a small integer times a power of two, both exact in binary32.
    FLIPCHECK_HD static float to_value(storage b) noexcept {
        b = storage(b & value_mask);
        const std::uint32_t sign = negative(b) ? 0x80000000u : 0u;
        // A NaN keeps its mantissa as its payload (moved up like binary16's), which keeps quiet/
        // signalling and payload order for totalOrder; a single-pattern NaN has none: a quiet NaN.
        if (is_nan_bits(b)) {
            const bool payload = Nans == nan_encoding::ieee || Nans == nan_encoding::all_ones_only;
            return bit_cast<float>(sign | 0x7f800000u |
                                   (payload ? std::uint32_t(mantissa_field(b)) << (23 - MantissaBits) : 0x00400000u));
        }
        if (is_infinite_bits(b)) return bit_cast<float>(sign | 0x7f800000u);
        const int e = exponent_field(b), m = mantissa_field(b);
        if constexpr (!Signed) {  // 2^(e - 127): binary32's own exponent field, or 2^-127 (a subnormal there)
            return bit_cast<float>(e == 0 ? 0x00400000u : std::uint32_t(e) << 23);
        } else {
            const int scale = (e == 0 ? 1 : e) - Bias - MantissaBits;  // value = integer * 2^scale
            const int integer = e == 0 ? m : (1 << MantissaBits) + m;
            const float magnitude = float(integer) * bit_cast<float>(std::uint32_t(127 + scale) << 23);
            return bit_cast<float>(sign | bit_cast<std::uint32_t>(magnitude));
        }
    }
};

struct float8_e4m3fn : minifloat<true, 4, 3, 7, false, nan_encoding::all_ones_only> {
    static constexpr std::string_view name = "float8_e4m3fn";
};
struct float8_e5m2 : minifloat<true, 5, 2, 15, true, nan_encoding::ieee> {
    static constexpr std::string_view name = "float8_e5m2";
};
struct float8_e4m3fnuz : minifloat<true, 4, 3, 8, false, nan_encoding::single_pattern> {
    static constexpr std::string_view name = "float8_e4m3fnuz";
};
struct float8_e5m2fnuz : minifloat<true, 5, 2, 16, false, nan_encoding::single_pattern> {
    static constexpr std::string_view name = "float8_e5m2fnuz";
};
struct float8_e8m0fnu : minifloat<false, 8, 0, 127, false, nan_encoding::single_pattern> {
    static constexpr std::string_view name = "float8_e8m0fnu";
};
struct float6_e2m3fn : minifloat<true, 2, 3, 1, false, nan_encoding::none> {
    static constexpr std::string_view name = "float6_e2m3fn";
};
struct float6_e3m2fn : minifloat<true, 3, 2, 3, false, nan_encoding::none> {
    static constexpr std::string_view name = "float6_e3m2fn";
};
struct float4_e2m1fn : minifloat<true, 2, 1, 1, false, nan_encoding::none> {
    static constexpr std::string_view name = "float4_e2m1fn";
    static constexpr bool packs_in_pairs = true;  // NVFP4 and MXFP4 store two per byte: packed_pair
};

// Two 4-bit values in one byte, as CUDA's __nv_fp4x2_storage_t holds them: element 0 in the low
// nibble, element 1 in the high one. Each lane is its own value, so a key, a max or a min of a
// packed byte is two of them side by side, never one over the whole byte.
template <format F>
    requires(F::value_bits * 2 == 8)
struct packed_pair {
    using element = F;
    using storage = std::uint8_t;
    static constexpr int lanes = 2;
    // What a case's text needs (describe.hpp's case_format): "float4_e2m1fnx2: 0x21", bytes in hex.
    static constexpr auto name_text = [] {
        std::array<char, F::name.size() + 2> a{};
        for (std::size_t i = 0; i < F::name.size(); ++i) a[i] = F::name[i];
        a[F::name.size()] = 'x';
        a[F::name.size() + 1] = '2';
        return a;
    }();
    static constexpr std::string_view name{name_text.data(), name_text.size()};
    static constexpr int width = 8;
    static constexpr storage all_ones = 0xff;
    FLIPCHECK_HD static constexpr storage lane(storage pair, int i) noexcept {
        return storage((pair >> (4 * i)) & F::value_mask);
    }
    FLIPCHECK_HD static constexpr storage pack(storage lane0, storage lane1) noexcept {
        return storage((lane0 & F::value_mask) | (lane1 & F::value_mask) << 4);
    }
    static constexpr storage one = pack(F::one, F::one);
};

}  // namespace flipcheck
