// Order-preserving mappings: a bijection from a format's bit patterns to unsigned keys whose
// integer order is meant to be IEEE totalOrder. The built-ins are written exactly as their
// sources write them; whether they are right is for the laws to say, not for this file.
#pragma once
#include <concepts>
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
    static constexpr bool fused_filter = true;  // sweep.hpp's any_failure: measured faster in one loop
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

// The mapping flipcheck's own reducers key with (P3008's operations, the registry's mapped and
// packed reducers, the GPU kernels): seed 000's mask routine, proven for every format by the sweep.
// Code that needs "the proven key" names this alias, so that choosing another is one edit.
template <format F>
using key_mapping = sign_flip_branchless<F>;

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
