// The C++26 atomic floating-point min/max operations of P3008 (std::atomic<float>::fetch_max and
// friends), written once over core/atomic.hpp's Word so the same code runs on a CUDA word (16, 32
// or 64 bits, gpu/include/flipcheck/gpu/p3008.cuh) and on a CPU word that replays a schedule.
// Each returns the value held before the operation, as every fetch_* does. What each claims:
//   fetch_max / fetch_min                  the stored value is unspecified when an input is a NaN;
//                                          -0 < +0 is normative encouragement (SG1, Kona 2023),
//                                          which we meet: nan=undefined, zero=ordered.
//   fetch_fmaximum / fetch_fminimum        IEEE 754-2019 maximum/minimum: a NaN input gives a
//                                          quiet NaN (a signalling one, operand or stored, is
//                                          quieted; p3008_test checks it, since the oracle's
//                                          propagate accepts any NaN); -0 < +0: nan=propagate,
//                                          zero=ordered.
//   fetch_fmaximum_num / fetch_fminimum_num IEEE maximumNumber/minimumNumber: a NaN loses to a
//                                          number; -0 < +0: nan=ignore, zero=ordered.
// Numbers are compared by their order-preserving keys (key_mapping, mapping.hpp: proven by the
// sweep), never by float compares, so flush-to-zero builds cannot make a subnormal equal 0.
#pragma once
#include <cstdint>
#include <string_view>

#include "flipcheck/mapping.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck::p3008 {

enum class operation : std::uint8_t { max, min, fmaximum, fminimum, fmaximum_num, fminimum_num };
using kind = operation;  // its earlier name, kept for code written against it
inline constexpr operation all_operations[] = {operation::max,      operation::min,          operation::fmaximum,
                                               operation::fminimum, operation::fmaximum_num, operation::fminimum_num};
inline constexpr const auto& all_kinds = all_operations;  // its earlier name
constexpr std::string_view to_string(operation k) noexcept {
    constexpr std::string_view names[] = {"fetch_max",      "fetch_min",          "fetch_fmaximum",
                                          "fetch_fminimum", "fetch_fmaximum_num", "fetch_fminimum_num"};
    return names[std::size_t(k)];
}
constexpr reduce_op op_of(operation k) noexcept { return std::size_t(k) % 2 == 0 ? reduce_op::max : reduce_op::min; }
constexpr policy declared(operation k) noexcept {
    const nan_policy n = k == operation::max || k == operation::min             ? nan_policy::undefined
                         : k == operation::fmaximum || k == operation::fminimum ? nan_policy::propagate
                                                                      : nan_policy::ignore;
    return {n, zero_policy::ordered, tie_policy::any};
}

template <format F, operation K>
struct fetch {
    using format = F;
    using S = typename F::storage;
    using M = key_mapping<F>;
    static constexpr reduce_op op = op_of(K);
    static constexpr policy declared = p3008::declared(K);
    static constexpr std::string_view name = to_string(K);

    // The new value of the object given its old value and the operand.
    FLIPCHECK_HD static constexpr S combine(S old, S v) noexcept {
        const bool old_nan = F::is_nan_bits(old), v_nan = F::is_nan_bits(v);
        if (declared.nan == nan_policy::propagate) {
            // IEEE: an operation on a NaN gives a quiet NaN, also when the stored one signals.
            if (old_nan) return S(old | F::quiet_bit);
            if (v_nan) return S(v | F::quiet_bit);
        } else if (old_nan || v_nan) {              // _num (and, unspecified there, fetch_max)
            // IEEE maximumNumber of two NaNs is a quiet NaN: a signalling one stored is quieted.
            // (The audit's P3008 oracle found this one: the stored sNaN used to stay.)
            if (old_nan && v_nan && declared.nan == nan_policy::ignore) return S(old | F::quiet_bit);
            return v_nan ? old : v;
        }
        const S ko = M::encode(old), kv = M::encode(v);
        return (op == reduce_op::max ? kv > ko : kv < ko) ? v : old;
    }

    // One atomic read-modify-write; returns the old value. fetch_max/fetch_min on 32 and 64 bits
    // take seed 004's single native atomic (the sign bit picks a signed or an unsigned one: exact
    // for numbers, -0 < +0 included); every other case is a compare-and-swap loop, which skips
    // the swap when the operand changes nothing.
    template <class Word>
    FLIPCHECK_HD static S apply(Word& w, S v) noexcept {
        if constexpr ((K == operation::max || K == operation::min) && F::width >= 32) {
            const bool neg = F::negative(v);
            if (K == operation::max) return neg ? w.fetch_min(v) : w.fetch_max_signed(v);
            return neg ? w.fetch_max(v) : w.fetch_min_signed(v);
        } else {
            S old = w.load();
            for (;;) {
                const S want = combine(old, v);
                if (want == old) return old;
                const S seen = w.cas(old, want);
                if (seen == old) return old;
                old = seen;
            }
        }
    }
    // The reducer shape (registry.hpp): one fetch per element, the old value discarded. There is
    // no init(): the object holds the array's first element before any fetch.
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S v) noexcept {
        apply(w, v);
    }
};

// Runtime dispatch, for code that picks the operation from data (tests, the CLI).
template <format F, class Word>
FLIPCHECK_HD typename F::storage apply(operation k, Word& w, typename F::storage v) noexcept {
    switch (k) {
        case operation::max: return fetch<F, operation::max>::apply(w, v);
        case operation::min: return fetch<F, operation::min>::apply(w, v);
        case operation::fmaximum: return fetch<F, operation::fmaximum>::apply(w, v);
        case operation::fminimum: return fetch<F, operation::fminimum>::apply(w, v);
        case operation::fmaximum_num: return fetch<F, operation::fmaximum_num>::apply(w, v);
        case operation::fminimum_num: break;
    }
    return fetch<F, operation::fminimum_num>::apply(w, v);
}

}  // namespace flipcheck::p3008
