// A user's own code, as it might sit in their codebase: a float radix-sort key, an atomicMax for
// floats on integer atomics, an argmax through one 64-bit atomic, a max over an array, the amax
// and e8m0 scale of an FP8/MX quantizer, the quantizer itself, an RCEIL scale and a database's
// index key. The examples check each with flipcheck
// (mapping_test.cpp, atomic_test.cpp, reducer_test.cpp, scaling_test.cpp, gpu_test.cu, plugin.cpp); nothing here depends on flipcheck but the shapes and the few names
// that say what the code claims (format, op, declared).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include <flipcheck/canonical_key.hpp>
#include <flipcheck/format.hpp>
#include <flipcheck/minifloat.hpp>
#include <flipcheck/policy.hpp>
#include <flipcheck/quantize.hpp>
#include <flipcheck/scaled_quantize.hpp>
#include <flipcheck/scale_recipe.hpp>

#if defined(__CUDACC__)
#define MY_HD __host__ __device__
#else
#define MY_HD
#endif

namespace my {

// The radix-sort key: positives get their top bit set, negatives are inverted whole.
struct float_key {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "float_key";
    MY_HD static constexpr std::uint32_t encode(std::uint32_t bits) noexcept {
        if (bits & 0x80000000u) return ~bits;
        return bits | 0x80000000u;
    }
    MY_HD static constexpr std::uint32_t decode(std::uint32_t key) noexcept {
        if (key & 0x80000000u) return key & 0x7fffffffu;
        return ~key;
    }
};

// atomicMax for floats: a negative float (by its sign bit) takes unsigned atomicMin on its bits,
// a positive one signed atomicMax. Works on any Word (a CUDA global or shared word, or
// flipcheck's CPU word). It does nothing about NaN, so it claims only NaN-free inputs.
struct atomic_max_float {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "atomic_max_float";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    MY_HD static constexpr std::uint32_t init() noexcept { return 0xff800000u; }  // -inf
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits) noexcept {
        if (bits & 0x80000000u) w.fetch_min(bits);
        else w.fetch_max_signed(bits);
    }
    MY_HD static std::uint32_t result(std::uint32_t word) noexcept { return word; }
};

// atomicMax for floats as a compare-and-swap loop on the keys of float_key (the form for a word
// that has no atomic max, and for a combining step that is not a max). The loop goes on while the
// word it last saw is below the key: what the failed CAS returned is the value to beat next.
struct cas_max_float {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "cas_max_float";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    MY_HD static constexpr std::uint32_t init() noexcept { return 0; }  // below every key
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits) noexcept {
        const std::uint32_t key = float_key::encode(bits);
        std::uint32_t seen = w.load();
        while (key > seen) {
            const std::uint32_t old = w.cas(seen, key);
            if (old == seen) break;
            seen = old;
        }
    }
    MY_HD static std::uint32_t result(std::uint32_t word) noexcept { return float_key::decode(word); }
};

// bfloat16 max with its keys in a 32-bit word: a GPU has 32-bit atomicMax but no 16-bit one. The
// word is the type init() returns; flipcheck runs the strategy on that type.
struct bf16_max_in_32_bits {
    using format = flipcheck::bfloat16;
    static constexpr std::string_view name = "bf16_max_in_32_bits";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    MY_HD static constexpr std::uint32_t init() noexcept { return 0; }
    template <class Word>
    MY_HD static void update(Word& w, std::uint16_t bits) noexcept {
        w.fetch_max(float_key::encode(std::uint32_t(bits) << 16));  // a bfloat16 is a binary32's top half
    }
    MY_HD static std::uint16_t result(std::uint32_t word) noexcept { return std::uint16_t(float_key::decode(word) >> 16); }
};

// bfloat16 max on a bfloat16 array in place: two elements share each aligned 32-bit word, and a
// GPU has no 16-bit atomic max, so the update is a CAS loop on that word that replaces only this
// element's half. `offset` is the element's byte offset in its word (its address & 3); on a
// little-endian machine the element at offset 2 is the word's high half. A lane strategy: the
// checks run it at both offsets with a neighbour in the other half (flipcheck's shared_word).
struct bf16_max_shared_word {
    using format = flipcheck::bfloat16;
    using shared_word = std::uint32_t;
    static constexpr std::string_view name = "bf16_max_shared_word";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    MY_HD static constexpr std::uint16_t init() noexcept { return 0; }  // below every key
    // A bfloat16 is a binary32's top half, and so is its key.
    MY_HD static constexpr std::uint32_t key(std::uint16_t bits) noexcept { return float_key::encode(std::uint32_t(bits) << 16) >> 16; }
    MY_HD static constexpr unsigned shift(unsigned offset) noexcept { return (offset & 2) * 8; }
    template <class Word>
    MY_HD static void update(Word& w, unsigned offset, std::uint16_t bits) noexcept {
        const unsigned s = shift(offset);
        const std::uint32_t k = key(bits), mine = 0xffffu << s;
        std::uint32_t seen = w.load();
        while (k > (seen & mine) >> s) {
            const std::uint32_t old = w.cas(seen, (seen & ~mine) | k << s);
            if (old == seen) break;
            seen = old;
        }
    }
    MY_HD static std::uint16_t result(std::uint16_t lane) noexcept {
        return std::uint16_t(float_key::decode(std::uint32_t(lane) << 16) >> 16);
    }
};

// argmax in one 64-bit atomicMax: the float's key above, the inverted index below, so that the
// lowest index wins a tie. NaNs sort by their key (totalOrder).
struct atomic_argmax_float {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "atomic_argmax_float";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::total_order, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::lowest_index};
    MY_HD static constexpr std::uint64_t init() noexcept { return 0; }
    template <class Word>
    MY_HD static void update(Word& w, std::uint32_t bits, std::uint32_t index) noexcept {
        w.fetch_max(std::uint64_t(float_key::encode(bits)) << 32 | std::uint32_t(~index));
    }
    MY_HD static std::uint32_t index(std::uint64_t word) noexcept { return ~std::uint32_t(word); }
};

// max over an array with NaN propagation (IEEE maximum): any NaN makes the answer a NaN, and
// +0 beats -0.
struct max_propagate {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "max_propagate";
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
            if (a != a) return best;                                   // a NaN: it stays
            if (b != b || b > a || (b == a && (best & 0x80000000u))) best = x;  // +0 over -0
        }
        return best;
    }
};

// argmin, first index on ties, NaNs skipped (numpy's nanargmin).
struct nanargmin {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "nanargmin";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::min;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::ignore, flipcheck::zero_policy::equal,
                                                flipcheck::tie_policy::lowest_index};
    static std::optional<std::size_t> arg_reduce(std::span<const std::uint32_t> xs) {
        std::optional<std::size_t> best;
        float lo = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            float v;
            std::memcpy(&v, &xs[i], 4);
            if (v != v) continue;
            if (!best || v < lo) best = i, lo = v;
        }
        return best;
    }
};

// amax for FP8 scaling: the largest |x|, a NaN anywhere makes it NaN, +0 for no element. The
// sign bit cleared, the bits compared as unsigned: a NaN (sign cleared) sits above +inf.
struct amax_f32 {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "amax_f32";
    static constexpr flipcheck::nan_policy declared = flipcheck::nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        std::uint32_t best = 0;
        for (std::uint32_t x : xs) best = (x & 0x7fffffffu) > best ? (x & 0x7fffffffu) : best;
        return best;
    }
};

// max over FP8 e4m3fn codes by a sign-magnitude key (negatives inverted), for NaN-free inputs:
// a reducer over a byte format (every singleton, pair and triple of its edge values is checked).
struct e4m3_max {
    using format = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "e4m3_max";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    static std::uint8_t key(std::uint8_t c) { return c & 0x80u ? std::uint8_t(~c) : std::uint8_t(c | 0x80u); }
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint8_t best = xs[0];
        for (std::uint8_t c : xs) best = key(c) > key(best) ? c : best;
        return best;
    }
};

// max over packed FP4 pairs (two e2m1 codes per byte, element 0 in the low nibble, as NVFP4 and
// MXFP4 store them), lane by lane: each nibble by its own sign-magnitude key. `pair` says the
// bytes are pairs; without it this would be a reducer of one fp4 code per byte.
struct fp4x2_max {
    using format = flipcheck::float4_e2m1fn;
    using pair = flipcheck::packed_pair<format>;
    static constexpr std::string_view name = "fp4x2_max";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::total_order, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    static std::uint8_t key(std::uint8_t c) { return c & 8u ? std::uint8_t(~c & 0xfu) : std::uint8_t(c | 8u); }
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint8_t lo = xs[0] & 0xfu, hi = xs[0] >> 4;
        for (std::uint8_t b : xs) {
            const std::uint8_t l = b & 0xfu, h = b >> 4;
            lo = key(l) > key(lo) ? l : lo;
            hi = key(h) > key(hi) ? h : hi;
        }
        return std::uint8_t(lo | hi << 4);
    }
};

// The value of an FP8 e4m3fn code (bias 7, no infinity, NaN only at S.1111.111).
struct e4m3_decode {
    using format = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "e4m3_decode";
    static float decode(std::uint8_t c) {
        const int e = (c >> 3) & 0xf, m = c & 7;
        if (e == 15 && m == 7) return std::numeric_limits<float>::quiet_NaN();
        const float v = e == 0 ? std::ldexp(float(m), -9) : std::ldexp(float(8 + m), e - 10);
        return c & 0x80u ? -v : v;
    }
};

// The MX e8m0 scale of a block whose amax is `amax_bits`, for e4m3fn elements (emax 8).
struct e8m0_scale_e4m3 {
    using element = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "e8m0_scale_e4m3";
    static std::uint8_t scale(std::uint32_t amax_bits) {
        if ((amax_bits & 0x7fffffffu) > 0x7f800000u) return 0xff;  // NaN
        if ((amax_bits & 0x7fffffffu) == 0x7f800000u) return 0xfe;  // +inf: the largest scale
        const int e = int((amax_bits >> 23) & 0xff) - 8;
        return (amax_bits >> 23 & 0xff) == 0 || e < 0 ? 0 : std::uint8_t(e);
    }
};

// binary32 to e4m3fn, round to nearest even, saturating (.satfinite): the magnitude scaled to
// whole quanta of its binade (2^-9 below e4m3fn's smallest normal), rounded, then encoded.
struct to_e4m3 {
    using format = flipcheck::binary32;
    using element = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "to_e4m3";
    static constexpr flipcheck::quantize_policy declared{flipcheck::rounding::nearest_even, flipcheck::saturation::finite};
    static float round_quanta(float x) { return std::nearbyint(x); }  // the default rounding mode: to nearest even
    template <class Round = to_e4m3>
    static std::uint8_t quantize_with(std::uint32_t bits) {
        float x;
        std::memcpy(&x, &bits, sizeof x);
        const std::uint8_t sign = std::uint8_t(bits >> 31 << 7);
        if (std::isnan(x)) return 0x7f;
        const float a = std::fabs(x);
        if (a >= 464.0f) return sign | 0x7e;  // 464, the tie of 448 and 480, goes to the even 448; above: saturated
        int e;
        std::frexp(a, &e);                          // a in [2^(e-1), 2^e)
        const int q = std::max(e - 4, -9);          // the binade's quantum: 3 mantissa bits
        const float v = std::ldexp(Round::round_quanta(std::ldexp(a, -q)), q);
        if (v == 0) return sign;
        int ev;
        std::frexp(v, &ev);
        if (ev - 1 < -6) return sign | std::uint8_t(std::ldexp(v, 9));                      // subnormal
        return sign | std::uint8_t((ev - 1 + 7) << 3 | (int(std::ldexp(v, 4 - ev)) - 8));  // normal
    }
    static std::uint8_t quantize(std::uint32_t bits) { return quantize_with(bits); }
};

// A per-tensor FP8 cast: x * scale in binary32 (scale = 448 / amax, made elsewhere), then to_e4m3,
// as `(x * scale).to(torch.float8_e4m3fn)` does. The product is rounded to binary32 before the
// cast, and the declaration says so (a fused cast would declare intermediate::exact).
struct scale_to_e4m3 {
    using format = flipcheck::binary32;
    using element = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "scale_to_e4m3";
    static constexpr flipcheck::scaled_policy declared{to_e4m3::declared, flipcheck::scale_op::multiply, flipcheck::intermediate::binary32};
    static std::uint8_t cast(float y) {
        std::uint32_t bits;
        std::memcpy(&bits, &y, sizeof bits);
        return to_e4m3::quantize(bits);
    }
    static std::uint8_t quantize_scaled(std::uint32_t bits, float scale) {
        float x;
        std::memcpy(&x, &bits, sizeof x);
        return cast(x * scale);
    }
};

// The MX scale of a block for e4m3fn elements under RCEIL (Blackwell's cvt.rp.satfinite.ue8m0):
// 2^ceil(log2(amax / 448)), as its e8m0 code.
struct rceil_scale_e4m3 {
    using element = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "rceil_scale_e4m3";
    static constexpr flipcheck::scale_recipe recipe = flipcheck::rceil;
    static std::uint8_t scale(std::uint32_t amax_bits) {
        amax_bits &= 0x7fffffffu;
        if (amax_bits > 0x7f800000u) return 0xff;
        if (amax_bits == 0x7f800000u) return 0xfe;
        float amax;
        std::memcpy(&amax, &amax_bits, sizeof amax);
        const float q = amax / 448.0f;
        if (q == 0) return 0;
        int e;
        const float f = std::frexp(q, &e);  // q = f * 2^e, f in [0.5, 1)
        const int k = f == 0.5f ? e - 1 : e;
        return std::uint8_t(std::clamp(k + 127, 0, 254));
    }
};

// A float column's index key in a database: SQL's order (-0 equals +0, every NaN one value above
// +inf), written big-endian so that memcmp sorts the rows.
struct index_key {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "index_key";
    static constexpr flipcheck::equivalence declared = flipcheck::equivalence::sql;
    static std::uint32_t order_word(std::uint32_t b) { return b & 0x80000000u ? ~b : b | 0x80000000u; }
    static std::array<std::uint8_t, 4> bytes(std::uint32_t k) {
        return {std::uint8_t(k >> 24), std::uint8_t(k >> 16), std::uint8_t(k >> 8), std::uint8_t(k)};
    }
    static std::array<std::uint8_t, 4> key(std::uint32_t b) {
        if ((b & 0x7fffffffu) > 0x7f800000u) return bytes(0xffffffffu);  // every NaN: one key, above +inf's
        if (b == 0x80000000u) b = 0;                                       // -0 is +0
        return bytes(order_word(b));
    }
};

}  // namespace my
