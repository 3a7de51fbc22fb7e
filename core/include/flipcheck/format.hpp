// IEEE-style binary formats: storage, field layout, classification and exact decoding to a
// value type that the oracle compares with ordinary float operations.
#pragma once
#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "flipcheck/hd.hpp"

namespace flipcheck {

enum class fp_class : std::uint8_t { signaling_nan, quiet_nan, infinite, zero, subnormal, normal };

struct classification {
    fp_class kind;
    bool negative;
    FLIPCHECK_HD constexpr bool is_nan() const noexcept {
        return kind == fp_class::signaling_nan || kind == fp_class::quiet_nan;
    }
    friend constexpr bool operator==(classification, classification) = default;
};

// How a format encodes NaN, so that the laws know which NaN patterns exist (law.hpp).
enum class nan_encoding : std::uint8_t {
    ieee,            // exponent all ones, mantissa nonzero: both signs, quiet and signalling, payloads
    all_ones_only,   // only S.1111.111 (float8_e4m3fn): one NaN of each sign
    single_pattern,  // one code, e.g. 0x80 of the fnuz formats (which then have no -0)
    none,            // every pattern is a number
};

constexpr std::string_view to_string(nan_encoding n) noexcept {
    switch (n) {
        case nan_encoding::ieee: return "ieee";
        case nan_encoding::all_ones_only: return "all_ones_only";
        case nan_encoding::single_pattern: return "single_pattern";
        case nan_encoding::none: return "none";
    }
    return "?";
}

constexpr std::string_view to_string(fp_class c) noexcept {
    switch (c) {
        case fp_class::signaling_nan: return "snan";
        case fp_class::quiet_nan: return "qnan";
        case fp_class::infinite: return "inf";
        case fp_class::zero: return "zero";
        case fp_class::subnormal: return "subnormal";
        case fp_class::normal: return "normal";
    }
    return "?";
}

// Shared layout arithmetic. Value is the type the oracle works in: every pattern of the format
// (NaN payloads and signalling-ness included) is represented exactly in it.
template <class Storage, int ExponentBits, int MantissaBits, class Value>
struct ieee_layout {
    using storage = Storage;
    using value_type = Value;
    static constexpr int width = int(sizeof(Storage) * 8);
    static constexpr int exponent_bits = ExponentBits;
    static constexpr int mantissa_bits = MantissaBits;
    static_assert(1 + ExponentBits + MantissaBits == width);
    static constexpr int bias = (1 << (ExponentBits - 1)) - 1;

    // What the format has, as data: the laws read these instead of assuming IEEE (law.hpp). These
    // are IEEE's; a format that differs (no infinity, fewer NaNs, no -0) redeclares them, along with
    // the named patterns, classify and to_value that differ with them.
    static constexpr bool has_infinity = true;
    static constexpr nan_encoding nans = nan_encoding::ieee;
    static constexpr bool has_negative_zero = true;
    static constexpr bool is_signed = true;
    // Every bit of the storage is the value's (minifloat.hpp's fp6/fp4 leave the top bits unused).
    static constexpr int value_bits = width;

    static constexpr storage sign_mask = storage(storage(1) << (width - 1));
    static constexpr storage exponent_mask = storage(((storage(1) << ExponentBits) - 1) << MantissaBits);
    static constexpr storage mantissa_mask = storage((storage(1) << MantissaBits) - 1);
    static constexpr storage quiet_bit = storage(storage(1) << (MantissaBits - 1));
    static constexpr storage all_ones = storage(~storage(0));
    static constexpr storage value_mask = all_ones;  // the bits a code may use
    static constexpr storage unused_mask = 0;        // container bits outside the value

    // Named patterns (positive; OR in sign_mask for the negative twin).
    static constexpr storage zero = 0;
    static constexpr storage denorm_min = 1;
    static constexpr storage max_subnormal = mantissa_mask;
    static constexpr storage min_normal = storage(storage(1) << MantissaBits);
    static constexpr storage one = storage(storage(bias) << MantissaBits);
    static constexpr storage max_finite = storage(exponent_mask - 1);
    static constexpr storage infinity = exponent_mask;
    static constexpr storage quiet_nan = storage(exponent_mask | quiet_bit);  // canonical qNaN
    static constexpr storage signaling_nan = storage(exponent_mask | 1);
    // The greatest and least numbers: the bounds a NaN-skipping max/min starts from.
    static constexpr storage highest = infinity;
    static constexpr storage lowest = storage(infinity | sign_mask);

    FLIPCHECK_HD static constexpr bool negative(storage b) noexcept { return (b & sign_mask) != 0; }
    FLIPCHECK_HD static constexpr storage exponent_field(storage b) noexcept {
        return storage((b & exponent_mask) >> MantissaBits);
    }
    FLIPCHECK_HD static constexpr storage mantissa_field(storage b) noexcept { return storage(b & mantissa_mask); }
    FLIPCHECK_HD static constexpr bool is_nan_bits(storage b) noexcept {
        return (b & exponent_mask) == exponent_mask && (b & mantissa_mask) != 0;
    }

    FLIPCHECK_HD static constexpr classification classify(storage b) noexcept {
        const storage e = storage(b & exponent_mask), m = storage(b & mantissa_mask);
        fp_class k;
        if (e == exponent_mask)
            k = m == 0 ? fp_class::infinite : ((m & quiet_bit) ? fp_class::quiet_nan : fp_class::signaling_nan);
        else if (e == 0)
            k = m == 0 ? fp_class::zero : fp_class::subnormal;
        else
            k = fp_class::normal;
        return {k, negative(b)};
    }
};

struct binary32 : ieee_layout<std::uint32_t, 8, 23, float> {
    static constexpr std::string_view name = "binary32";
    FLIPCHECK_HD static float to_value(storage b) noexcept { return bit_cast<float>(b); }
};

struct binary64 : ieee_layout<std::uint64_t, 11, 52, double> {
    static constexpr std::string_view name = "binary64";
    FLIPCHECK_HD static double to_value(storage b) noexcept { return bit_cast<double>(b); }
};

// bfloat16 is the top half of a binary32, so widening is a shift: exact for every pattern.
struct bfloat16 : ieee_layout<std::uint16_t, 8, 7, float> {
    static constexpr std::string_view name = "bfloat16";
    FLIPCHECK_HD static float to_value(storage b) noexcept { return bit_cast<float>(std::uint32_t(b) << 16); }
};

// binary16 is widened by rebuilding the binary32 fields, without __half, so the host needs no
// CUDA headers. The NaN payload moves up 13 bits, which keeps quiet/signalling and payload order.
struct binary16 : ieee_layout<std::uint16_t, 5, 10, float> {
    static constexpr std::string_view name = "binary16";
    FLIPCHECK_HD static float to_value(storage b) noexcept {
        const std::uint32_t sign = std::uint32_t(b & sign_mask) << 16;
        const std::uint32_t e = exponent_field(b), m = mantissa_field(b);
        std::uint32_t out;
        if (e == 0x1f) {
            out = sign | 0x7f800000u | (m << 13);
        } else if (e == 0) {
            // m * 2^-24 is exact in binary32 (a normal number there), so plain arithmetic is safe.
            out = sign | bit_cast<std::uint32_t>(float(m) * 5.9604644775390625e-08f);
        } else {
            out = sign | ((e - 15 + 127) << 23) | (m << 13);
        }
        return bit_cast<float>(out);
    }
};

template <class F>
concept format = requires(typename F::storage b) {
    typename F::storage;
    typename F::value_type;
    { F::name } -> std::convertible_to<std::string_view>;
    { F::classify(b) } -> std::same_as<classification>;
    { F::to_value(b) } -> std::same_as<typename F::value_type>;
    { F::has_infinity } -> std::convertible_to<bool>;
    { F::nans } -> std::convertible_to<nan_encoding>;
    { F::has_negative_zero } -> std::convertible_to<bool>;
    { F::is_signed } -> std::convertible_to<bool>;
    { F::value_bits } -> std::convertible_to<int>;
    { F::unused_mask } -> std::convertible_to<typename F::storage>;
    { F::highest } -> std::convertible_to<typename F::storage>;
    { F::lowest } -> std::convertible_to<typename F::storage>;
};

// A code with no unused container bit set: one of the format's own codes.
template <format F>
FLIPCHECK_HD constexpr bool canonical(typename F::storage b) noexcept { return (b & F::unused_mask) == 0; }


}  // namespace flipcheck
