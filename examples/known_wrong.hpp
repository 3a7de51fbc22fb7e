// Known-wrong versions of my_code.hpp's subjects, each with a bug this project's zoo knows: the
// examples' run (run_examples.cmake) requires every one of them to FAIL, with a counterexample
// and a replay line that fails again. This is how the examples show that the checks can fail.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>

#include <flipcheck/format.hpp>
#include <flipcheck/policy.hpp>

#include "my_code.hpp"

namespace wrong {

// `value >= 0` picks the signed branch, so -0 (0x80000000) takes the signed atomicMax as
// INT_MIN: max(-0, -1) comes out -1 (pytorch#119320's bug class).
struct atomic_max_ge0 : my::atomic_max_float {
    static constexpr std::string_view name = "atomic_max_ge0";
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits) noexcept {
        float v;
        std::memcpy(&v, &bits, 4);
        if (v >= 0) w.fetch_max_signed(bits);
        else w.fetch_min(bits);
    }
};

// The CAS loop of my::cas_max_float deciding with the value it read before the loop: when another
// thread raises the word between this thread's load and its CAS, the retry overwrites the higher
// value with its own (a lost update). Replayed one whole update at a time it is right; only
// flipcheck's interleaved_steps stage, stepping each load and CAS, sees it.
struct cas_max_stale : my::cas_max_float {
    static constexpr std::string_view name = "cas_max_stale";
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits) noexcept {
        const std::uint32_t key = my::float_key::encode(bits), first = w.load();
        std::uint32_t seen = first;
        while (key > first) {  // the bug: `first`, not `seen`
            const std::uint32_t old = w.cas(seen, key);
            if (old == seen) break;
            seen = old;
        }
    }
};

// my::bf16_max_shared_word with the halves the wrong way round (offset 0 read as the high half, as
// on a big-endian machine): each update works on the neighbour's half of the word (tilelang's
// class of bug, a CAS on the wrong 16 bits), so an element's own half never moves and its
// neighbour's takes its values.
struct bf16_max_wrong_half : my::bf16_max_shared_word {
    static constexpr std::string_view name = "bf16_max_wrong_half";
    template <class Word>
    MY_HD static void update(Word& w, unsigned offset, std::uint16_t bits) noexcept {
        const unsigned s = (offset & 2) ? 0 : 16;  // the bug
        const std::uint32_t k = key(bits), mine = 0xffffu << s;
        std::uint32_t seen = w.load();
        while (k > (seen & mine) >> s) {
            const std::uint32_t old = w.cas(seen, (seen & ~mine) | k << s);
            if (old == seen) break;
            seen = old;
        }
    }
};

// std::max as the fold, claiming NaN propagation: a NaN after the first element is lost.
struct max_std_fold {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "max_std_fold";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::propagate, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint32_t best = xs[0];
        for (std::uint32_t x : xs) {
            float a, b;
            std::memcpy(&a, &best, 4);
            std::memcpy(&b, &x, 4);
            if (a < b) best = x;
        }
        return best;
    }
};

// A radix key that forgets to invert the negatives' magnitude bits: -2 sorts above -1.
struct key_sign_only {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "key_sign_only";
    MY_HD static constexpr std::uint32_t encode(std::uint32_t bits) noexcept { return bits ^ 0x80000000u; }
    MY_HD static constexpr std::uint32_t decode(std::uint32_t key) noexcept { return key ^ 0x80000000u; }
};

// argmax that forgets to invert the index: ties go to the highest index, not the lowest it claims.
struct argmax_no_inversion : my::atomic_argmax_float {
    static constexpr std::string_view name = "argmax_no_inversion";
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits, std::uint32_t index) noexcept {
        w.fetch_max(std::uint64_t(my::float_key::encode(bits)) << 32 | index);
    }
    MY_HD static std::uint32_t index(std::uint64_t word) noexcept { return std::uint32_t(word); }
};

// amax with std::max (hipDNN's bug class): std::max(acc, NaN) keeps acc, so a NaN is lost.
struct amax_std_max {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "amax_std_max";
    static constexpr flipcheck::nan_policy declared = flipcheck::nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        float acc = 0;
        for (std::uint32_t x : xs) {
            float v;
            std::memcpy(&v, &x, 4);
            acc = std::max(acc, v < 0 ? -v : v);
        }
        std::uint32_t bits;
        std::memcpy(&bits, &acc, 4);
        return bits;
    }
};

// The e4m3fn decoder with no NaN test (mlx#4376's bug): 0x7f and 0xff decode to +-480, not NaN.
struct e4m3_decode_480 : my::e4m3_decode {
    static constexpr std::string_view name = "e4m3_decode_480";
    static float decode(std::uint8_t c) {
        const int e = (c >> 3) & 0xf, m = c & 7;
        const float v = e == 0 ? std::ldexp(float(m), -9) : std::ldexp(float(8 + m), e - 10);
        return c & 0x80u ? -v : v;
    }
};

// my::fp4x2_max keying the whole byte as one sign-magnitude number (bit 7, lane 1's sign, as its
// sign): lane 1's order decides both lanes, so max([0x01, 0x10]) is 0x10 and lane 0 loses its 0.5.
struct fp4x2_max_whole_byte : my::fp4x2_max {
    static constexpr std::string_view name = "fp4x2_max_whole_byte";
    static std::uint8_t byte_key(std::uint8_t b) { return b & 0x80u ? std::uint8_t(~b) : std::uint8_t(b | 0x80u); }
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint8_t best = xs[0];
        for (std::uint8_t b : xs) best = byte_key(b) > byte_key(best) ? b : best;
        return best;
    }
};

// The e8m0 scale from the exponent field with no NaN test: a NaN amax gets a finite scale.
struct e8m0_scale_no_nan {
    using element = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "e8m0_scale_no_nan";
    static std::uint8_t scale(std::uint32_t amax_bits) {
        const int e = int((amax_bits >> 23) & 0xff) - 8;
        return e < 0 ? 0 : std::uint8_t(e > 254 ? 254 : e);
    }
};

// A quantizer that truncates where it declares round to nearest even (an int cast for rintf).
struct to_e4m3_truncating : my::to_e4m3 {
    static constexpr std::string_view name = "to_e4m3_truncating";
    static float round_quanta(float x) { return std::trunc(x); }
    static std::uint8_t quantize(std::uint32_t bits) { return quantize_with<to_e4m3_truncating>(bits); }
};

// The cast declared as x / scale (scale = amax / 448) and computed as x * (1 / scale), one
// reciprocal a tensor: 1 / scale is rounded, so for a scale that is no power of two the product is
// not the quotient, and some inputs cast to the next code.
struct unscale_to_e4m3_reciprocal : my::scale_to_e4m3 {
    static constexpr std::string_view name = "unscale_to_e4m3_reciprocal";
    static constexpr flipcheck::scaled_policy declared{my::to_e4m3::declared, flipcheck::scale_op::divide, flipcheck::intermediate::binary32};
    static std::uint8_t quantize_scaled(std::uint32_t bits, float scale) {
        float x;
        std::memcpy(&x, &bits, sizeof x);
        return cast(x * (1.0f / scale));
    }
};

// Southclaws/rad#2's and doradb#1108's index key: NaNs canonicalized, -0 not, so -0 and +0 get
// two keys and an index seek for 0 misses the row a scan finds.
struct index_key_signed_zeros : my::index_key {
    static constexpr std::string_view name = "index_key_signed_zeros";
    static std::array<std::uint8_t, 4> key(std::uint32_t b) {
        if ((b & 0x7fffffffu) > 0x7f800000u) return bytes(0xffffffffu);
        return bytes(order_word(b));
    }
};

}  // namespace wrong
