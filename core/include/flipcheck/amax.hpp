// amax: the largest magnitude in an array, from which FP8 and MX quantization compute their scales
// (scale.hpp). Its reference semantics, in the oracle, and flipcheck's own keyed amax.
//
// The semantics (what every FP8/MX recipe needs, stated once):
//   - |x| is x with its sign cleared (IEEE 754-2019 5.5.1 abs), so |-0| = +0: an amax is never -0.
//   - amax has an identity, +0, because every |x| >= +0. So unlike max it has an answer for n = 0:
//     +0, which is where every FP8 recipe starts its amax (TransformerEngine, torchao).
//   - nan_policy::propagate: any NaN in the array makes the amax a NaN (the OCP MX spec v1.0, 6.3:
//     a NaN in the block makes its scale NaN). Which NaN is not specified.
//   - nan_policy::ignore: NaNs are skipped; an array with no number has amax +0 (the identity).
//     The checks also accept a NaN there (maximumNumber's answer for all-NaN input): both are
//     defensible, and a scale stage tells them apart (scale 1 or the smallest, against NaN).
//   - nan_policy::undefined: the caller promises no NaN; arrays holding one are outside the domain.
//   (total_order means nothing for magnitudes: `check_amax` refuses it.)
//
// flipcheck's own amax keys each element with amax_key and takes the unsigned max of the keys,
// starting from 0: for every sign-magnitude format |x|'s bits increase with |x|, and an IEEE NaN
// with its sign cleared keys above +inf, so the integer max *is* amax under propagate, with no
// branch. That is also what makes it fast on a GPU (gpu/amax.cuh): one AND and one integer max per
// element, and the block's and grid's atomics are plain unsigned atomicMax.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "flipcheck/rounding_mode.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck {

// The formats an amax is defined on: signed ones (an unsigned format such as e8m0 is a scale,
// never a tensor element, and has no +0 to start from).
template <class F>
concept amax_format = format<F> && F::is_signed;

namespace oracle {

// amax as defined above, written with the oracle's value comparisons: the result is the bits of
// the element of greatest |value|, sign cleared, or a NaN, or +0.
template <amax_format F>
typename F::storage amax(nan_policy p, std::span<const typename F::storage> xs) noexcept {
    using S = typename F::storage;
    S best = F::zero;
    bool nan = false;
    for (S x : xs) {
        x = S(x & F::value_mask);
        const auto v = F::to_value(x);
        if (isnan(v)) {
            nan = true;
            continue;
        }
        const auto mag = v < 0 ? -v : v;
        if (mag > F::to_value(best)) best = S(x & ~F::sign_mask);
    }
    return nan && p == nan_policy::propagate ? F::quiet_nan : best;
}

// Are two amax results the same answer? Identical bits, or two NaNs under propagate.
template <amax_format F>
constexpr bool same_amax(nan_policy p, typename F::storage a, typename F::storage b) noexcept {
    return a == b || (p == nan_policy::propagate && F::is_nan_bits(a) && F::is_nan_bits(b));
}

// oracle::amax over a byte format with its one step memoized: the fold walks the array keeping
// the best element so far and takes element x when x is a number of greater magnitude, or notes
// a NaN. Over a byte format the step has at most 2^16 cases, so the table holds it and the fold is
// the oracle's, step for step (amax_test checks the two agree on every array of up to 2 codes,
// and 3 for the 6- and 4-bit formats). The exhaustive amax checks ask it 16.8M times per format:
// decoding each element twice per step was most of the scaling path's time on the CPU.
template <amax_format F>
class byte_amax {
    static_assert(F::width <= 8, "byte_amax memoizes the oracle's step over a byte format's codes");
    using S = typename F::storage;
    static constexpr unsigned count = unsigned(F::value_mask) + 1;

public:
    byte_amax() : takes_(count * count) {
        for (unsigned x = 0; x < count; ++x) {
            const auto v = F::to_value(S(x));
            nan_[x] = isnan(v);
            for (unsigned best = 0; best < count; ++best) {
                const auto mag = v < 0 ? -v : v;
                takes_[best * count + x] = !nan_[x] && mag > F::to_value(S(best));
            }
        }
    }
    // The fold after a prefix of an array: the best magnitude so far and whether a NaN was seen.
    // The exhaustive checks extend one prefix by every code instead of folding every array anew.
    struct state {
        S best = F::zero;
        bool nan = false;
    };
    state step(state s, S x) const noexcept {
        x = S(x & F::value_mask);
        s.nan = s.nan || nan_[x];
        if (takes_[unsigned(s.best) * count + x]) s.best = S(x & ~F::sign_mask);
        return s;
    }
    S result(nan_policy p, state s) const noexcept { return s.nan && p == nan_policy::propagate ? F::quiet_nan : s.best; }
    S amax(nan_policy p, std::span<const S> xs) const noexcept {
        state s;
        for (S x : xs) s = step(s, x);
        return result(p, s);
    }

private:
    std::vector<std::uint8_t> takes_;
    std::array<bool, 256> nan_{};
};

}  // namespace oracle

// The key whose unsigned max over an array is its amax (and decodes to it as it is). A NaN keys
// as itself with the sign cleared (above +inf) under propagate, as 0 (the identity) under ignore.
// fnuz's one NaN, 0x80, cleared would be +0, so it keys as itself: above every magnitude's key.
template <amax_format F>
FLIPCHECK_HD constexpr typename F::storage amax_key(nan_policy p, typename F::storage bits) noexcept {
    using S = typename F::storage;
    const S b = S(bits & F::value_mask);
    const bool nan = F::is_nan_bits(b);
    if (nan && p == nan_policy::ignore) return F::zero;
    if (nan && F::nans == nan_encoding::single_pattern) return b;
    return S(b & ~F::sign_mask);
}

// flipcheck's amax on the CPU: the unsigned max of amax_key from 0. GPU forms: gpu/amax.cuh.
template <amax_format F, nan_policy P>
struct keyed_amax {
    using format = F;
    static constexpr nan_policy declared = P;
    static constexpr rounding_claim rounding_modes = any_rounding_mode;  // integer keys only
    static typename F::storage amax(std::span<const typename F::storage> xs) noexcept {
        typename F::storage best = 0;
        for (auto x : xs) {
            const auto k = amax_key<F>(P, x);
            best = k > best ? k : best;
        }
        return best;
    }
};
template <class F>
using keyed_amax_propagate = keyed_amax<F, nan_policy::propagate>;
template <class F>
using keyed_amax_ignore = keyed_amax<F, nan_policy::ignore>;

}  // namespace flipcheck
