// Order-preserving mappings: a bijection from a format's bit patterns to unsigned keys whose
// integer order is meant to be IEEE totalOrder. The built-ins are written exactly as their
// sources write them; whether they are right is for the laws to say, not for this file.
#pragma once
#include <concepts>
#include <cstdint>
#include <string_view>

#include "flipcheck/format.hpp"

namespace flipcheck {

// A user's mapping is any type of this shape. Keys are unsigned and compared as unsigned.
template <class M>
concept mapping = format<typename M::format> && requires(typename M::format::storage b) {
    { M::name } -> std::convertible_to<std::string_view>;
    { M::encode(b) } -> std::same_as<typename M::format::storage>;
    { M::decode(b) } -> std::same_as<typename M::format::storage>;
};

// Seed 000's first snippet: branch on the sign; set the MSB of positives, invert negatives.
// Its inverse branches on the key's MSB (set: it came from a positive).
template <format F>
struct sign_flip {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "sign_flip";
    // No fused_filter: on an AVX2 core its branches keep the one-loop filter scalar (2^28 keys:
    // 0.66 s fused, 0.20 s staged; bench/RESULTS.md), so sweep.hpp stages it like a user's mapping.
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        if ((b & F::sign_mask) == 0) return storage(b | F::sign_mask);
        return storage(~b);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        if ((k & F::sign_mask) == 0) return storage(~k);
        return storage(k & ~F::sign_mask);
    }
};

// Seed 000's mask routine (= Herf's FloatFlip/IFloatFlip = CUB's TwiddleIn/TwiddleOut):
//   mask = -int(u >> (w-1)) | MSB;  key = u ^ mask
//   mask = ((k >> (w-1)) - 1) | MSB; bits = k ^ mask
template <format F>
struct sign_flip_branchless {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "sign_flip_branchless";
    static constexpr bool fused_filter = true;  // sweep.hpp's any_failure: measured faster in one loop
    static constexpr int shift = F::width - 1;
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        const storage mask = storage(storage(0u - storage(b >> shift)) | F::sign_mask);
        return storage(b ^ mask);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        const storage mask = storage(storage(storage(k >> shift) - 1u) | F::sign_mask);
        return storage(k ^ mask);
    }
};

// Where a format's one NaN (nan_encoding::single_pattern: fnuz, e8m0) sits among the keys:
// where IEEE totalOrder puts it (by its sign bit: fnuz's 0x80 at the bottom, e8m0's 0xff at the
// top), or at the top or the bottom whatever its sign. One key cannot serve every policy: a
// propagating max needs the NaN on top, a propagating min at the bottom (keyed_reducer picks).
enum class nan_end : std::uint8_t { total_order, top, bottom };

// The format-aware key: right for every format of the registry, proven by the sweep on each.
//   - unused container bits are cleared first: a code with them set gets its canonical code's key;
//   - an unsigned format (e8m0) keys by its code: every code is positive, so totalOrder is code order;
//   - a signed one by seed 000's mask routine, with the sign at the value's own top bit
//     (F::sign_mask, bit 5 of fp6, bit 3 of fp4) and the inversion confined to the value's bits;
//   - with one NaN and no -0 (fnuz), the NaN takes -0's place: negatives are negated rather than
//     inverted, so -denorm_min sits right below +0 and the NaN has a key of its own at the bottom;
//   - End moves the one NaN: every key turns by one (mod 2^value_bits), keeping the numbers' order.
// For binary16/bfloat16/binary32/binary64 it computes exactly what sign_flip_branchless does.
template <format F, nan_end End = nan_end::total_order>
struct format_key {
    using format = F;
    using storage = typename F::storage;
    using S = storage;
    static constexpr std::string_view name = "format_key";
    static constexpr bool fused_filter = true;  // sweep.hpp's any_failure: as fast as the mask routine fused
    template <nan_end E>
    using with_nan_at = format_key<F, E>;

    static constexpr bool one_nan = F::nans == nan_encoding::single_pattern;
    static constexpr int shift = F::value_bits - 1;
    // How far End turns the keys: one step where it moves the NaN to the other end.
    static constexpr bool nan_on_top = !F::negative(F::quiet_nan);
    static constexpr S turn = !one_nan || End == nan_end::total_order || (End == nan_end::top) == nan_on_top
                                  ? S(0)
                                  : End == nan_end::top ? S(F::value_mask) : S(1);  // -1 or +1

    FLIPCHECK_HD static constexpr S encode(S b) noexcept {
        b = S(b & F::value_mask);
        S k;
        if constexpr (!F::is_signed) {
            k = b;
        } else if constexpr (one_nan) {
            const bool negative = (b & F::sign_mask) != 0;
            k = b == F::quiet_nan ? S(0) : negative ? S(S(0u - b) & F::value_mask) : S(b | F::sign_mask);
        } else {
            const S mask = S(S(S(0u - S(b >> shift)) & F::value_mask) | F::sign_mask);
            k = S(b ^ mask);
        }
        return S((k + turn) & F::value_mask);
    }
    FLIPCHECK_HD static constexpr S decode(S k) noexcept {
        k = S((k - turn) & F::value_mask);
        if constexpr (!F::is_signed) {
            return k;
        } else if constexpr (one_nan) {
            if (k == 0) return F::quiet_nan;
            return (k & F::sign_mask) ? S(k & ~F::sign_mask) : S(S(0u - k) & F::value_mask);
        } else {
            const S mask = S(S(S(S(k >> shift) - 1u) & F::value_mask) | F::sign_mask);
            return S(k ^ mask);
        }
    }
};

// The mapping flipcheck's own reducers key with (P3008's operations, the registry's mapped and
// packed reducers, the GPU kernels): the format-aware key, proven for every format by the sweep
// (on the IEEE formats it is seed 000's mask routine). Code that needs "the proven key" names this
// alias, so that choosing another is one edit.
template <format F>
using key_mapping = format_key<F>;

namespace detail {
template <class U> struct signed_of;
template <> struct signed_of<std::uint8_t> { using type = std::int8_t; };  // 8-bit formats
template <> struct signed_of<std::uint16_t> { using type = std::int16_t; };
template <> struct signed_of<std::uint32_t> { using type = std::int32_t; };
template <> struct signed_of<std::uint64_t> { using type = std::int64_t; };
}  // namespace detail

// Rust's f32::total_cmp key: s = bits ^ (unsigned(bits >> (w-1)) >> 1), compared as a signed
// integer (arithmetic shift: negatives get their magnitude bits inverted, the sign kept).
// encode/decode expose the order-equivalent unsigned view (flip the sign bit of s), so the same
// laws apply; signed_encode/signed_decode are the raw signed keys for signed atomics.
template <format F>
struct signed_key {
    using format = F;
    using storage = typename F::storage;
    using signed_storage = typename detail::signed_of<storage>::type;
    static constexpr std::string_view name = "signed_key";
    static constexpr bool fused_filter = true;  // sweep.hpp's any_failure: measured faster in one loop
    static constexpr int shift = F::width - 1;
    FLIPCHECK_HD static constexpr signed_storage signed_encode(storage b) noexcept {
        const signed_storage s = signed_storage(b);
        return signed_storage(s ^ signed_storage(storage(storage(s >> shift) >> 1)));
    }
    FLIPCHECK_HD static constexpr storage signed_decode(signed_storage s) noexcept {
        return storage(s ^ signed_storage(storage(storage(s >> shift) >> 1)));  // an involution
    }
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        return storage(storage(signed_encode(b)) ^ F::sign_mask);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        return signed_decode(signed_storage(storage(k ^ F::sign_mask)));
    }
};

}  // namespace flipcheck
