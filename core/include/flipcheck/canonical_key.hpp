// Canonical keys: the sort and index keys of databases and storage engines. Unlike a mapping, a
// canonical key is many-to-one on purpose: values the engine calls equal must get one key, or an
// index seek misses a row a scan finds (Southclaws/rad#2, doradb#1108: -0 and +0 keyed apart).
// What "equal" means is declared, as an equivalence with its order:
//   total_order  IEEE 754 totalOrder: every code its own class (-0 < +0; NaNs by sign and
//                payload, below -inf and above +inf): the key is a bijection
//   sql          -0 == +0, and every NaN is one class that sorts above +inf (PostgreSQL's and
//                DuckDB's float order: NaN equals NaN and is greater than every number)
//   numeric      IEEE ==: -0 == +0; NaNs are not judged (== holds for no NaN, so no key can follow
//                it), only the numbers' keys
// A key is an unsigned integer, compared as a number, or std::array<std::uint8_t, N>, compared
// as bytes (memcmp, std::array's order): a byte key must be big-endian to sort as its integer.
// Input widening (a binary32 column keyed as binary64) is the key's own business: the laws are
// stated on the input format's values (check/canonical_keys.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "flipcheck/format.hpp"
#include "flipcheck/formats.hpp"
#include "flipcheck/mapping.hpp"

namespace flipcheck {

enum class equivalence : std::uint8_t { total_order, sql, numeric };
constexpr std::string_view to_string(equivalence e) noexcept {
    constexpr std::string_view names[] = {"total_order", "sql", "numeric"};
    return names[std::size_t(e)];
}

// The integer's bytes, most significant first: what a byte key compares.
template <class U>
FLIPCHECK_HD constexpr std::array<std::uint8_t, sizeof(U)> big_endian(U v) noexcept {
    std::array<std::uint8_t, sizeof(U)> out{};
    for (std::size_t i = 0; i < sizeof(U); ++i) out[i] = std::uint8_t(v >> (8 * (sizeof(U) - 1 - i)));
    return out;
}

// A key as one unsigned word that compares as the key does: an integer as itself, bytes (at most
// 8) packed big-endian, byte 0 most significant. What the plug-in ABI and the GPU's walk compare.
template <class K>
FLIPCHECK_HD constexpr std::uint64_t key_word(const K& k) noexcept {
    if constexpr (std::is_integral_v<K>) {
        return std::uint64_t(k);
    } else {
        static_assert(sizeof(K) <= 8, "a key of more than 8 bytes has no one-word form");
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < k.size(); ++i) w = w << 8 | k[i];
        return w;
    }
}

// ---- flipcheck's built-ins (IEEE-shaped formats: binary16, bfloat16, binary32, binary64) ----------

// totalOrder's key: the branchless sign flip itself (a bijection, proven by the mapping sweeps).
template <format F>
struct total_order_key {
    using format = F;
    static constexpr equivalence declared = equivalence::total_order;
    FLIPCHECK_HD static typename F::storage key(typename F::storage x) noexcept { return sign_flip_branchless<F>::encode(x); }
};

// SQL's key: -0 made +0 and every NaN the all-ones key (above +inf's, which is below it since
// +inf's key has a zero mantissa), then the sign flip.
template <format F>
struct sql_key {
    using format = F;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static typename F::storage key(typename F::storage x) noexcept {
        using S = typename F::storage;
        if (F::is_nan_bits(x)) return F::all_ones;
        if (x == F::sign_mask) x = S(0);
        return sign_flip_branchless<F>::encode(x);
    }
};

// The same key as bytes, big-endian: what a storage engine writes into an index.
template <format F>
struct sql_key_bytes {
    using format = F;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static std::array<std::uint8_t, sizeof(typename F::storage)> key(typename F::storage x) noexcept {
        return big_endian(sql_key<F>::key(x));
    }
};

// A binary32 column keyed as binary64 (one key type for every float column): the value widened
// exactly, then binary64's SQL key as bytes.
template <class F = binary32>
struct sql_key_widened {
    using format = binary32;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static std::array<std::uint8_t, 8> key(std::uint32_t x) noexcept {
        return big_endian(sql_key<binary64>::key(bit_cast<std::uint64_t>(double(bit_cast<float>(x)))));
    }
};

}  // namespace flipcheck
