// Known-wrong canonical keys from public bug reports (flipcheck's own code for each), killed by
// check/canonical_keys.hpp.
#pragma once
#include <array>
#include <cstdint>

#include "flipcheck/canonical_key.hpp"

namespace flipcheck::mutants {

// Southclaws/rad#2 and doradb#1108: the float's order-preserving key used as an index key while
// the engine compares -0 and +0 as equal; NaNs canonicalized, -0 not, so -0 and +0 get two keys
// and an index seek for 0 misses the row a scan finds.
template <format F>
struct sql_key_signed_zeros {
    using format = F;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static typename F::storage key(typename F::storage x) noexcept {
        if (F::is_nan_bits(x)) return F::all_ones;
        return sign_flip_branchless<F>::encode(x);
    }
};

// -0 canonicalized but every NaN keyed by its own bits: NaNs of different payloads (and signs)
// get different keys, and a negative NaN sorts below -inf, where SQL puts every NaN on top.
template <format F>
struct sql_key_nan_payloads {
    using format = F;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static typename F::storage key(typename F::storage x) noexcept {
        if (x == F::sign_mask) x = 0;
        return sign_flip_branchless<F>::encode(x);
    }
};

// The right integer key written to the index in the machine's (little-endian) byte order: byte
// comparison then reads its lowest byte first.
template <format F>
struct sql_key_little_endian {
    using format = F;
    static constexpr equivalence declared = equivalence::sql;
    FLIPCHECK_HD static std::array<std::uint8_t, sizeof(typename F::storage)> key(typename F::storage x) noexcept {
        auto b = big_endian(sql_key<F>::key(x));
        for (std::size_t i = 0; i < b.size() / 2; ++i) {
            const std::uint8_t t = b[i];
            b[i] = b[b.size() - 1 - i], b[b.size() - 1 - i] = t;
        }
        return b;
    }
};

}  // namespace flipcheck::mutants
