// Formats state their non-finite encodings as data (format.hpp), and the mapping laws read them
// (law.hpp). Two test-only 8-bit formats, 1-4-3 like float8_e4m3 (bias 7), make the point:
//   e4m3_finite  every pattern is a number (no infinity, no NaN; -0 kept), like OCP MX's FP6/FP4;
//   e4m3_fnuz    no infinity, one NaN at 0x80 where -0 would be, no -0, like float8_e4m3fnuz.
// A correct mapping passes every law on all 256 keys of each, where the same laws read as IEEE
// (as_ieee below: the same values, the IEEE flags) fail or say nothing; mutants still fail.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"

namespace fc = flipcheck;
using fc::law_id;
using fc::nan_encoding;

namespace {

// The numbers of the 1-4-3 layout, exactly: subnormals m * 2^-9, normals (8 + m) * 2^(e - 10).
float e4m3_number(std::uint8_t b) {
    const int e = (b >> 3) & 0xf, m = b & 7;
    const float magnitude = e == 0 ? std::ldexp(float(m), -9) : std::ldexp(float(8 + m), e - 10);
    return (b & 0x80) ? -magnitude : magnitude;
}

fc::classification e4m3_class(std::uint8_t b) {
    const int e = (b >> 3) & 0xf, m = b & 7;
    return {e == 0 ? (m == 0 ? fc::fp_class::zero : fc::fp_class::subnormal) : fc::fp_class::normal, (b & 0x80) != 0};
}

struct e4m3_finite : fc::ieee_layout<std::uint8_t, 4, 3, float> {
    static constexpr std::string_view name = "e4m3_finite";
    static constexpr bool has_infinity = false;
    static constexpr nan_encoding nans = nan_encoding::none;
    static constexpr storage max_finite = 0x7f;  // 480: exponent 1111 holds numbers
    static constexpr storage highest = 0x7f, lowest = 0xff;
    static fc::classification classify(storage b) noexcept { return e4m3_class(b); }
    static float to_value(storage b) noexcept { return e4m3_number(b); }
};

struct e4m3_fnuz : fc::ieee_layout<std::uint8_t, 4, 3, float> {
    static constexpr std::string_view name = "e4m3_fnuz";
    static constexpr bool has_infinity = false;
    static constexpr nan_encoding nans = nan_encoding::single_pattern;
    static constexpr bool has_negative_zero = false;
    static constexpr storage max_finite = 0x7f;
    static constexpr storage highest = 0x7f, lowest = 0xff;
    static constexpr storage quiet_nan = 0x80;  // the one NaN; it reads as negative (its sign bit)
    static fc::classification classify(storage b) noexcept {
        return b == 0x80 ? fc::classification{fc::fp_class::quiet_nan, true} : e4m3_class(b);
    }
    static float to_value(storage b) noexcept { return b == 0x80 ? fc::bit_cast<float>(0xffc00000u) : e4m3_number(b); }
};

// The same values with the IEEE flags and IEEE's named patterns: what the laws assumed before the
// flags existed.
template <class F>
struct as_ieee : F {
    static constexpr bool has_infinity = true;
    static constexpr nan_encoding nans = nan_encoding::ieee;
    static constexpr bool has_negative_zero = true;
    static constexpr typename F::storage max_finite = typename F::storage(F::exponent_mask - 1);
    static constexpr typename F::storage quiet_nan = typename F::storage(F::exponent_mask | F::quiet_bit);
    static constexpr typename F::storage highest = F::exponent_mask;
    static constexpr typename F::storage lowest = typename F::storage(F::exponent_mask | F::sign_mask);
};

// Sign-magnitude to two's complement, offset: the NaN 0x80 takes key 0, below every number,
// which is where totalOrder puts a negative NaN. Right for e4m3_fnuz, where sign_flip is not.
template <class F>
struct twos_complement_key {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "twos_complement_key";
    static constexpr storage encode(storage b) noexcept {
        return (b & 0x80) ? storage(storage(0u - b) & 0x7f) : storage(b | 0x80);
    }
    static constexpr storage decode(storage k) noexcept {
        return (k & 0x80) ? storage(k & 0x7f) : storage(storage(0u - k) | 0x80);
    }
};

// Mutant: the right keys rotated down by one, so the NaN (key 0) wraps to the top key 0xff.
template <class F>
struct nan_on_top {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "nan_on_top";
    using good = twos_complement_key<F>;
    static constexpr storage encode(storage b) noexcept { return storage(good::encode(b) - 1u); }
    static constexpr storage decode(storage k) noexcept { return good::decode(storage(k + 1u)); }
};

template <class M>
int failing_keys_8() {
    int bad = 0;
    for (unsigned k = 0; k <= 0xff; ++k) bad += fc::mapping_laws<M>::failures(std::uint8_t(k)) != 0;
    return bad;
}

template <class M>
int keys_failing_8(law_id l) {
    int bad = 0;
    for (unsigned k = 0; k <= 0xff; ++k) bad += !fc::mapping_laws<M>::holds(l, std::uint8_t(k));
    return bad;
}

// quick_ok(k) implies no failure at k, for every key but the last; returns how many it passed.
template <class M>
int quick_ok_sound_8() {
    int passed = 0;
    for (unsigned k = 0; k < 0xff; ++k) {
        if (!fc::mapping_laws<M>::quick_ok(std::uint8_t(k))) continue;
        ++passed;
        EXPECT_EQ(fc::mapping_laws<M>::failures(std::uint8_t(k)), 0u) << M::name << " key " << k;
    }
    return passed;
}

}  // namespace

TEST(format_flags, ieee_formats_state_ieee) {
    static_assert(fc::binary16::has_infinity && fc::binary16::nans == nan_encoding::ieee &&
                  fc::binary16::has_negative_zero && fc::binary16::is_signed);
    static_assert(fc::bfloat16::has_infinity && fc::bfloat16::nans == nan_encoding::ieee);
    static_assert(fc::binary32::has_negative_zero && fc::binary32::is_signed);
    static_assert(fc::binary64::has_infinity && fc::binary64::nans == nan_encoding::ieee);
    EXPECT_EQ(fc::to_string(nan_encoding::ieee), "ieee");
    EXPECT_EQ(fc::to_string(nan_encoding::all_ones_only), "all_ones_only");
    EXPECT_EQ(fc::to_string(nan_encoding::single_pattern), "single_pattern");
    EXPECT_EQ(fc::to_string(nan_encoding::none), "none");
}

TEST(format_flags, ieee_layout_works_with_8_bit_storage) {
    using L = fc::ieee_layout<std::uint8_t, 4, 3, float>;
    static_assert(L::width == 8 && L::bias == 7);
    static_assert(L::sign_mask == 0x80 && L::exponent_mask == 0x78 && L::mantissa_mask == 0x07);
    static_assert(L::quiet_bit == 0x04 && L::all_ones == 0xff && L::max_finite == 0x77 && L::infinity == 0x78);
    static_assert(fc::format<e4m3_finite> && fc::format<e4m3_fnuz>);
    EXPECT_EQ(L::classify(0xf8).kind, fc::fp_class::infinite);
    EXPECT_TRUE(L::classify(0xf8).negative);
    EXPECT_EQ(L::classify(0x7c).kind, fc::fp_class::quiet_nan);
    EXPECT_EQ(L::exponent_field(0xbb), 0x7);
    EXPECT_EQ(e4m3_finite::to_value(0x7f), 480.0f);
    EXPECT_EQ(e4m3_finite::to_value(0x01), std::ldexp(1.0f, -9));
    EXPECT_EQ(e4m3_finite::to_value(0x38), 1.0f);
    EXPECT_TRUE(std::signbit(e4m3_finite::to_value(0x80)));
}

// (a) Without infinity or NaN every law holds for sign_flip; read as IEEE, the numbers of exponent
// 1111 escape "+-inf" (nan_ignore) and the would-be qNaN (nan_propagate).
TEST(format_flags, sign_flip_holds_every_law_on_a_format_without_infinity_or_nan) {
    EXPECT_EQ(failing_keys_8<fc::sign_flip<e4m3_finite>>(), 0);
    EXPECT_EQ(failing_keys_8<fc::sign_flip_branchless<e4m3_finite>>(), 0);
    using ieee = fc::sign_flip<as_ieee<e4m3_finite>>;
    EXPECT_EQ(failing_keys_8<ieee>(), 14);  // +-0x79..0x7f: above +-"inf" 0x78
    EXPECT_EQ(keys_failing_8<ieee>(law_id::nan_ignore), 14);
    EXPECT_EQ(keys_failing_8<ieee>(law_id::nan_propagate), 8);  // +-0x7c..0x7f
    EXPECT_FALSE(fc::mapping_laws<ieee>::holds(law_id::nan_ignore, 0xf9));  // +0x79's key
    EXPECT_TRUE(fc::mapping_laws<fc::sign_flip<e4m3_finite>>::holds(law_id::nan_ignore, 0xf9));
    // Read as IEEE, explain names "+inf"'s key; without infinity the bound is the largest finite.
    EXPECT_EQ(fc::mapping_laws<ieee>::explain(law_id::nan_ignore, 0xf9).expected, 0xf8u);
    static_assert(e4m3_finite::highest == 0x7f);
    static_assert(as_ieee<e4m3_finite>::highest == 0x78);
}

// (a) With one NaN in -0's place and no -0, the two's-complement key holds every law; read as
// IEEE, zero_placement takes the NaN 0x80 for -0 and nan_propagate the number 0x7c for a qNaN.
TEST(format_flags, twos_complement_key_holds_every_law_on_a_fnuz_format) {
    using M = twos_complement_key<e4m3_fnuz>;
    EXPECT_EQ(failing_keys_8<M>(), 0);
    using L = fc::mapping_laws<M>;
    EXPECT_TRUE(L::holds(law_id::zero_placement, 0));  // key 0 decodes to 0x80: a NaN, not -0
    using ieee = fc::mapping_laws<twos_complement_key<as_ieee<e4m3_fnuz>>>;
    EXPECT_FALSE(ieee::holds(law_id::zero_placement, 0));
    EXPECT_GT(keys_failing_8<twos_complement_key<as_ieee<e4m3_fnuz>>>(law_id::nan_propagate), 0);
    // The one NaN reads as negative, so nan_propagate asks only that it bottom the numbers.
    EXPECT_EQ(L::explain(law_id::nan_propagate, 0x80).expected, 0u);
}

// (b) The flags make laws vacuous only where the format lacks the thing: mutants still fail.
TEST(format_flags, mutants_still_fail_on_the_8_bit_formats) {
    // Negatives backwards: successor_order.
    EXPECT_GT(keys_failing_8<fc::mutants::sign_bit_only<e4m3_finite>>(law_id::successor_order), 0);
    // e4m3_finite keeps -0, so zero_placement still applies, at exactly one key.
    EXPECT_EQ(keys_failing_8<fc::mutants::zeros_swapped<e4m3_finite>>(law_id::zero_placement), 1);
    EXPECT_GT(keys_failing_8<fc::mutants::wrong_at_neg_denorm_min<e4m3_finite>>(law_id::successor_order), 0);
    // sign_flip on fnuz puts the NaN (key 0x7f) between -denorm_min and +0.
    using SF = fc::sign_flip<e4m3_fnuz>;
    EXPECT_FALSE(fc::mapping_laws<SF>::holds(law_id::nan_total_order, 0x7f));
    EXPECT_FALSE(fc::mapping_laws<SF>::holds(law_id::successor_order, 0x7e));
    EXPECT_EQ(keys_failing_8<SF>(law_id::nan_propagate), 127);  // the negative numbers, below the NaN
    // The NaN on top, where a negative NaN does not belong: every NaN law fails.
    using top = nan_on_top<e4m3_fnuz>;
    EXPECT_FALSE(fc::mapping_laws<top>::holds(law_id::nan_total_order, 0xff));
    EXPECT_EQ(keys_failing_8<top>(law_id::nan_propagate), 255);
    EXPECT_EQ(fc::mapping_laws<top>::explain(law_id::nan_propagate, 0x10).expected, 0xffu);
    EXPECT_FALSE(fc::mapping_laws<top>::holds(law_id::successor_order, 0xfe));
}

// quick_ok stays sound on these formats and still passes nearly every key of a correct mapping.
TEST(format_flags, quick_filter_is_sound_on_the_8_bit_formats) {
    EXPECT_GT(quick_ok_sound_8<fc::sign_flip<e4m3_finite>>(), 250);
    EXPECT_GT(quick_ok_sound_8<twos_complement_key<e4m3_fnuz>>(), 250);
    quick_ok_sound_8<fc::sign_flip<as_ieee<e4m3_finite>>>();
    quick_ok_sound_8<twos_complement_key<as_ieee<e4m3_fnuz>>>();
    quick_ok_sound_8<fc::mutants::sign_bit_only<e4m3_finite>>();
    quick_ok_sound_8<fc::mutants::zeros_swapped<e4m3_finite>>();
    quick_ok_sound_8<fc::mutants::wrong_at_neg_denorm_min<e4m3_finite>>();
    quick_ok_sound_8<fc::sign_flip<e4m3_fnuz>>();
    quick_ok_sound_8<fc::sign_flip_branchless<e4m3_fnuz>>();
    quick_ok_sound_8<nan_on_top<e4m3_fnuz>>();
}
