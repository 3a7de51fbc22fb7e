// Laws: predicates over (subject, one input) that hold, or yield a counterexample naming the law,
// the bits involved and the expected and actual results. Every exhaustive law is in "one key and
// its successor" form so that a sweep shards cleanly: for a bijection, total_less(decode(k),
// decode(k+1)) for every k proves order agreement for all pairs (totalOrder is transitive).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "flipcheck/mapping.hpp"
#include "flipcheck/oracle.hpp"

// The laws combine bools with & and | on purpose: no short-circuit branches, so loops vectorize.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wbitwise-instead-of-logical"
#endif

namespace flipcheck {

enum class law_id : std::uint8_t {
    round_trip_key,      // encode(decode(k)) == k
    round_trip_bits,     // decode(encode(b)) == b
    successor_order,     // total_less(decode(k), decode(k+1))
    zero_placement,      // -0 sits immediately below +0
    nan_total_order,     // +NaN keys above +inf's key, -NaN keys below -inf's key (+-max: no infinity)
    nan_propagate,       // the canonical +qNaN key tops, and -qNaN's bottoms, every number's key
    nan_ignore,          // +-inf keys bound every number's key (the sentinels of a NaN-skipping max/min)
    reducer_agreement,   // a reducer's result equals the oracle's under the declared policy
    arg_reducer_agreement,
    scale_agreement,     // a scale (or a whole amax-then-scale pipeline) gives the oracle's code for every input
    decode_agreement,    // a decoder gives every code's value
    lane_isolation,      // a lane strategy's update leaves the other lanes of its word as their own updates made them
    quantize_order,      // a quantizer is weakly monotone: x < y gives q(x) <= q(y)
    quantize_special,    // NaN, infinities, overflow and zeros quantize as the policy declares
    quantize_idempotent, // a code's own value quantizes back to that code
    quantize_rounding,   // every other input quantizes to the nearest code in the declared direction
    scale_power_of_two,  // a scale given as a value is a power of two an e8m0 code holds (2^-127 .. 2^127, or NaN)
    key_equivalence,     // a canonical key gives equivalent values one key
    key_order,           // a canonical key's order is the declared order of the values
};
inline constexpr int mapping_law_count = 7;
inline constexpr std::array<std::string_view, 19> law_names{
    "round_trip_key", "round_trip_bits", "successor_order", "zero_placement", "nan_total_order",
    "nan_propagate",  "nan_ignore",      "reducer_agreement", "arg_reducer_agreement", "scale_agreement",
    "decode_agreement", "lane_isolation", "quantize_order", "quantize_special", "quantize_idempotent",
    "quantize_rounding", "scale_power_of_two", "key_equivalence", "key_order"};
// One line each, for listings and reports (`flipcheck list`), in law_id order.
inline constexpr std::array<std::string_view, 19> law_descriptions{
    "encode(decode(k)) == k",
    "decode(encode(b)) == b with encode(b) a key; a code with unused bits set: its canonical code's key, or none",
    "decode(k) < decode(k+1) in IEEE totalOrder (for a bijection: order for all pairs)",
    "-0 sits immediately below +0 (formats with a -0)",
    "+NaN keys above +inf's key, -NaN keys below -inf's (formats with NaNs)",
    "canonical +qNaN's key tops, -qNaN's bottoms, every number's key (formats with NaNs)",
    "the infinities' keys bound every number's key: NaN-skipping sentinels (formats with NaNs)",
    "a value reducer's answer is the oracle's under the policy it declares",
    "an arg reducer's index is the oracle's (or ties with it) under the policy it declares",
    "a scale, or an amax-then-scale pipeline, gives the oracle's code for every input (scale.hpp)",
    "a decoder gives every code's value (minifloat.hpp)",
    "a lane strategy's updates leave each other lane of the shared word as its own updates made it (atomic.hpp)",
    "a quantizer is weakly monotone: x < y gives value(q(x)) <= value(q(y)) (quantize.hpp)",
    "NaN, +-inf, overflow and zero results give the codes the declared saturation and zero rules say",
    "an input that is exactly a code's value quantizes to that code (decode then quantize is the identity)",
    "every other input gives the nearest code in the declared rounding direction, ties as declared",
    "a scale given as its value is a power of two an e8m0 code holds, 2^-127 to 2^127 (or NaN) (scale_recipe.hpp)",
    "values the declared equivalence calls equal get one key: -0 and +0 (sql, numeric), every NaN (sql) (canonical_key.hpp)",
    "values in the declared order get strictly increasing keys (integers as numbers, byte keys as memcmp)"};
constexpr std::string_view to_string(law_id l) noexcept { return law_names[std::size_t(l)]; }

// A set of laws as a bit mask over law_id.
using law_set = std::uint32_t;
constexpr law_set law_bit(law_id l) noexcept { return law_set(1) << unsigned(l); }
inline constexpr law_set all_mapping_laws = (law_set(1) << mapping_law_count) - 1;

// Plain data, so that device code can fill it. What expected/actual/other hold is per law:
//   round_trip_key   bits=decode(key)  expected=key             actual=encode(bits)
//   round_trip_bits  bits=key          expected=bits            actual=decode(encode(bits))  other=encode(bits)
//                    (a code with unused bits set: expected=its canonical code's key, actual=encode(bits))
//   successor_order  bits=decode(key)  other=decode(key+1)      (expected bits < other in totalOrder)
//   zero_placement   bits=-0           expected=+0              actual=decode(key+1), other=1 if key is last
//   nan_*            bits=decode(key)  expected=the bound key   actual=key  (bounds: see mapping_laws)
//   reducer_*        expected/actual=result bits or indices (flags mark "empty"); the input is the
//                    failing case's own (check_report::failure_info), and `lane` the lane that is
//                    wrong where the word holds several (a packed fp4 pair, a lane strategy)
// `key` is a mapping's key and nothing else.
struct counterexample {
    law_id law{};
    std::uint8_t expected_empty = 0, actual_empty = 0;
    std::uint64_t key = 0, bits = 0, other = 0, expected = 0, actual = 0;
    std::uint64_t lane = 0;
    friend constexpr bool operator==(const counterexample&, const counterexample&) = default;
};

// The mapping laws of one mapping. `holds` is the hot, branch-free predicate that sweeps
// vectorize; `explain` rebuilds the counterexample for a key that failed.
//
// The laws read what the format has (format.hpp) instead of assuming IEEE. A law about something
// the format lacks holds vacuously for it:
//   zero_placement                               needs a -0         (F::has_negative_zero)
//   nan_total_order, nan_propagate, nan_ignore   need a NaN         (F::nans != nan_encoding::none)
// Where a law bounds the numbers by +-infinity, the bounds are F::highest and F::lowest: the
// infinities, or without them the largest finite and its negation (an unsigned format's lowest is
// its least code).
// Keys are 0 .. 2^value_bits - 1 (`last`): a mapping of a format with unused container bits (fp6 and
// fp4 in a byte) maps its 2^value_bits codes onto that many keys. The laws about keys hold
// vacuously at the keys beyond; round_trip_bits asks each canonical code for a key in range, and
// each code with unused bits set for its canonical code's key (the mapping masks them) or a key
// out of range (it rejects them): unused_bits_handling() says which.
// With one NaN pattern (nan_encoding::single_pattern) there is no NaN of the other sign, so
// nan_propagate asks only for the side the one NaN is on: its key (F::quiet_nan's) must top every
// number's key if the NaN reads as positive (signbit of its value, as totalOrder places it), and
// bottom them if it reads as negative. For the IEEE formats every `if constexpr` takes the IEEE
// branch and the bounds are the infinities: the code is the code of the IEEE-only laws.
template <mapping M>
struct mapping_laws {
    using F = typename M::format;
    using S = typename F::storage;
    static constexpr S last = F::value_mask;  // the last key
    static constexpr bool has_unused = F::unused_mask != 0;

    static constexpr bool has_nans = F::nans != nan_encoding::none;
    static constexpr bool one_nan = F::nans == nan_encoding::single_pattern;
    // Whether k is one of the format's keys (always, where every bit of the storage is the value's).
    FLIPCHECK_HD static bool in_keys(S k) noexcept { return !has_unused | (k <= last); }

    FLIPCHECK_HD static auto value(S b) noexcept { return F::to_value(b); }
    FLIPCHECK_HD static S neg(S b) noexcept { return S(b | F::sign_mask); }

    // What the mapping says at and around key k: everything any law reads of the mapping there
    // (the other mapping calls the laws make are on constants). evaluate(k) computes it; the CPU
    // sweep computes it for a batch of keys with one mapping call per loop, which vectorizes
    // where a loop holding all four calls would not, and passes it to the same laws.
    struct evaluated {
        S k;          // the key (and, for round_trip_bits, the code)
        S d0, d1;     // decode(k), decode(k+1)
        S enc_d0;     // encode(decode(k))
        S enc_k;      // encode(k)
        S dec_enc_k;  // decode(encode(k))
    };
    FLIPCHECK_HD static evaluated evaluate(S k) noexcept {
        const S d0 = M::decode(k);
        return {k, d0, M::decode(S(k + 1)), M::encode(d0), M::encode(k), M::decode(M::encode(k))};
    }

    FLIPCHECK_HD static bool round_trip_key(const evaluated& v) noexcept { return !in_keys(v.k) | (v.enc_d0 == v.k); }
    FLIPCHECK_HD static bool round_trip_bits(const evaluated& v) noexcept {
        if constexpr (!has_unused) return v.dec_enc_k == v.k;
        else {
            const bool own = canonical<F>(v.k);
            const S canonical_key = M::encode(S(v.k & F::value_mask));
            return (own & (v.dec_enc_k == v.k) & (v.enc_k <= last)) |
                   ((!own) & ((v.enc_k == canonical_key) | (v.enc_k > last)));
        }
    }
    FLIPCHECK_HD static bool successor_order(const evaluated& v) noexcept {
        return !in_keys(v.k) | (v.k == last) | oracle::total_less(value(v.d0), value(v.d1));
    }
    FLIPCHECK_HD static bool zero_placement([[maybe_unused]] const evaluated& v) noexcept {
        if constexpr (!F::has_negative_zero) return true;  // no -0: nothing to place
        else return !in_keys(v.k) | (v.d0 != F::sign_mask) | ((v.k != last) & (v.d1 == S(0)));
    }
    FLIPCHECK_HD static bool nan_total_order([[maybe_unused]] const evaluated& v) noexcept {
        if constexpr (!has_nans) return true;
        else {
            const S k = v.k;
            const auto x = value(v.d0);
            const bool nan = oracle::isnan(x), negative = oracle::signbit(x);
            return !in_keys(k) | (!nan) | (negative & (k < M::encode(F::lowest))) | (!negative & (k > M::encode(F::highest)));
        }
    }
    FLIPCHECK_HD static bool nan_propagate([[maybe_unused]] const evaluated& v) noexcept {
        if constexpr (!has_nans) return true;
        else if constexpr (one_nan) {
            const S k = v.k;
            const auto x = value(v.d0);
            const S nan_key = M::encode(F::quiet_nan);
            const bool nan_negative = oracle::signbit(value(F::quiet_nan));
            return !in_keys(k) | oracle::isnan(x) | (nan_negative & (k > nan_key)) | (!nan_negative & (k < nan_key));
        } else {
            const S k = v.k;
            const auto x = value(v.d0);
            return !in_keys(k) | oracle::isnan(x) | ((k < M::encode(F::quiet_nan)) & (k > M::encode(neg(F::quiet_nan))));
        }
    }
    FLIPCHECK_HD static bool nan_ignore([[maybe_unused]] const evaluated& v) noexcept {
        if constexpr (!has_nans) return true;
        else {
            const S k = v.k;
            const auto x = value(v.d0);
            return !in_keys(k) | oracle::isnan(x) | ((k >= M::encode(F::lowest)) & (k <= M::encode(F::highest)));
        }
    }

    // Bit i set = law i failed at key k. No branches on the data: a loop over it vectorizes.
    FLIPCHECK_HD static law_set failures(const evaluated& v) noexcept {
        return law_set(!round_trip_key(v)) << 0 | law_set(!round_trip_bits(v)) << 1 |
               law_set(!successor_order(v)) << 2 | law_set(!zero_placement(v)) << 3 |
               law_set(!nan_total_order(v)) << 4 | law_set(!nan_propagate(v)) << 5 |
               law_set(!nan_ignore(v)) << 6;
    }

    // The same laws at one key. The mapping is a pure function, so the calls a law does not
    // read are dead code once inlined.
    FLIPCHECK_HD static bool round_trip_key(S k) noexcept { return round_trip_key(evaluate(k)); }
    FLIPCHECK_HD static bool round_trip_bits(S k) noexcept { return round_trip_bits(evaluate(k)); }
    FLIPCHECK_HD static bool successor_order(S k) noexcept { return successor_order(evaluate(k)); }
    FLIPCHECK_HD static bool zero_placement(S k) noexcept { return zero_placement(evaluate(k)); }
    FLIPCHECK_HD static bool nan_total_order(S k) noexcept { return nan_total_order(evaluate(k)); }
    FLIPCHECK_HD static bool nan_propagate(S k) noexcept { return nan_propagate(evaluate(k)); }
    FLIPCHECK_HD static bool nan_ignore(S k) noexcept { return nan_ignore(evaluate(k)); }
    FLIPCHECK_HD static law_set failures(S k) noexcept { return failures(evaluate(k)); }

    // The sweeps' filter, on CPU and GPU alike: for every key but the format's last (which has no
    // successor: sweeps check it exactly), quick_ok(k) implies that every law holds at k, at about
    // half the cost of failures(k). Keys it rejects are re-checked with failures(), so it may
    // reject good keys (every NaN does) but never passes a bad one.
    // With d0 = decode(k), d1 = decode(k+1) and a, b their values:
    //   round_trip_key, round_trip_bits  checked exactly.
    //   successor_order  if d0 = -0, ok needs d1 = +0, and -0 precedes +0; otherwise ok needs a < b,
    //                    so neither is a NaN and a precedes b in totalOrder.
    //   zero_placement   d0 = -0 needs d1 = +0 (and k is not the last key); other d0 satisfy it.
    //                    Without a -0 in the format it holds, and d0 = sign_mask gets no exception.
    //   nan_total_order  only a NaN d0 can fail it, and then a < b is false.
    //   nan_propagate,   ok needs k in [lo, hi], the intersection of (key(-qNaN), key(+qNaN)) and
    //   nan_ignore       [key(lowest), key(highest)], which is what each asks of a number's key. With
    //                    one NaN pattern only its side bounds [lo, hi]; without NaNs both hold.
    // The overload on evaluate(k) takes number_key_range() too, so that a loop computes it once.
    struct number_keys;
    FLIPCHECK_HD static bool quick_ok(S k) noexcept { return quick_ok(evaluate(k), number_key_range()); }
    FLIPCHECK_HD static bool quick_ok(const evaluated& v, const number_keys& r) noexcept {
        // The filter's reasoning assumes a signed format that fills its storage; the others (e8m0,
        // fp6 and fp4 in a byte) have 256 keys at most, where the exact check costs nothing.
        if constexpr (!F::is_signed || F::unused_mask != 0) return false;
        const S k = v.k, lo = r.lo, hi = r.hi;
        const bool empty = r.empty;
        const S d0 = v.d0, d1 = v.d1;
        const bool negative_zero = F::has_negative_zero && d0 == F::sign_mask;
        const bool ordered = (negative_zero & (d1 == S(0))) | (!negative_zero & (value(d0) < value(d1)));
        const bool in_range = !empty & (S(k - lo) <= S(hi - lo));
        return (v.enc_d0 == k) & (v.dec_enc_k == k) & ordered & in_range;
    }
    // quick_ok's [lo, hi] (see above): where the NaN laws let a number's key be; `empty` if nowhere.
    struct number_keys {
        S lo, hi;
        bool empty;
    };
    FLIPCHECK_HD static number_keys number_key_range() noexcept {
        if constexpr (!has_nans) {
            return {S(0), F::all_ones, false};
        } else if constexpr (one_nan) {
            const S nan_key = M::encode(F::quiet_nan);
            const bool nan_negative = oracle::signbit(value(F::quiet_nan));
            const S lo_nan = nan_negative ? S(nan_key + 1) : S(0);
            const S hi_nan = nan_negative ? F::all_ones : S(nan_key - 1);
            const bool no_room = nan_negative ? nan_key == F::all_ones : nan_key == S(0);
            const S neg_inf = M::encode(F::lowest), pos_inf = M::encode(F::highest);
            const S lo = neg_inf > lo_nan ? neg_inf : lo_nan;
            const S hi = pos_inf < hi_nan ? pos_inf : hi_nan;
            const bool empty = (lo > hi) | no_room;
            return {lo, hi, empty};
        } else {
            const S below_nan = M::encode(neg(F::quiet_nan)), above_nan = M::encode(F::quiet_nan);
            const S neg_inf = M::encode(F::lowest), pos_inf = M::encode(F::highest);
            const S lo = neg_inf > S(below_nan + 1) ? neg_inf : S(below_nan + 1);
            const S hi = pos_inf < S(above_nan - 1) ? pos_inf : S(above_nan - 1);
            const bool empty = (lo > hi) | (below_nan == F::all_ones) | (above_nan == 0);
            return {lo, hi, empty};
        }
    }

    FLIPCHECK_HD static bool holds(law_id l, S k) noexcept { return !(failures(k) & law_bit(l)); }

    FLIPCHECK_HD static counterexample explain(law_id l, S k) noexcept {
        counterexample c{};
        c.law = l;
        c.key = k;
        const S b = M::decode(k);
        c.bits = b;
        switch (l) {
            case law_id::round_trip_key: c.expected = k; c.actual = M::encode(b); break;
            case law_id::round_trip_bits:
                c.bits = k;
                c.other = M::encode(k);
                c.expected = k;
                c.actual = M::decode(M::encode(k));
                if (!canonical<F>(k)) {  // unused bits set: it should have had its canonical code's key
                    c.expected = M::encode(S(k & F::value_mask));
                    c.actual = c.other;
                }
                break;
            case law_id::successor_order: c.other = M::decode(S(k + 1)); break;
            case law_id::zero_placement:
                c.expected = 0;
                c.other = k == last;
                c.actual = k == last ? 0 : M::decode(S(k + 1));
                break;
            case law_id::nan_total_order:
                c.expected = M::encode(oracle::signbit(value(b)) ? F::lowest : F::highest);
                c.actual = k;
                break;
            case law_id::nan_propagate:
                if constexpr (one_nan) c.expected = M::encode(F::quiet_nan);  // the one bound there is
                else c.expected = k >= M::encode(F::quiet_nan) ? M::encode(F::quiet_nan) : M::encode(neg(F::quiet_nan));
                c.actual = k;
                break;
            case law_id::nan_ignore:
                c.expected = k > M::encode(F::highest) ? M::encode(F::highest) : M::encode(F::lowest);
                c.actual = k;
                break;
            default: break;
        }
        return c;
    }
};

// What a mapping does with the codes whose unused container bits are set (fp6 and fp4 in a byte):
// gives each its canonical code's key (masks), a key outside the format's keys (rejects), some of
// each, or for some of them neither (round_trip_bits fails there). Without unused bits: not_applicable.
enum class unused_bits : std::uint8_t { not_applicable, masks, rejects, masks_and_rejects, neither };
constexpr std::string_view to_string(unused_bits u) noexcept {
    constexpr std::string_view names[] = {"not applicable", "masks", "rejects", "masks and rejects", "neither"};
    return names[std::size_t(u)];
}
template <mapping M>
unused_bits unused_bits_handling() noexcept {
    using F = typename M::format;
    using S = typename F::storage;
    if constexpr (F::unused_mask == 0) {
        return unused_bits::not_applicable;
    } else {
        bool masks = false, rejects = false, neither = false;
        for (unsigned b = 0; b <= F::all_ones; ++b) {
            if (canonical<F>(S(b))) continue;
            const S k = M::encode(S(b));
            const bool m = k == M::encode(S(b & F::value_mask)), r = k > F::value_mask;
            masks |= m;
            rejects |= r && !m;
            neither |= !m && !r;
        }
        if (neither) return unused_bits::neither;
        return masks && rejects ? unused_bits::masks_and_rejects : masks ? unused_bits::masks : unused_bits::rejects;
    }
}

// Reducer laws: the subject's answer for one input against the oracle's under its declared policy.
template <format F>
struct reducer_laws {
    using S = typename F::storage;

    static bool has_nan(std::span<const S> xs) {
        for (S x : xs)
            if (oracle::isnan(F::to_value(x))) return true;
        return false;
    }

    // What the oracle says a reducer must return for xs: its answer (none for an empty input),
    // or "outside the domain" (an undefined NaN policy and a NaN in the input: anything goes).
    // Split from the judging so that a driver checking many subjects can ask the oracle once.
    struct expectation {
        bool in_domain = true;
        std::optional<S> value;
    };
    static expectation expect(policy p, reduce_op op, std::span<const S> xs) {
        if (p.nan == nan_policy::undefined && has_nan(xs)) return {false, std::nullopt};
        return {true, oracle::reduce<F>(p, op, xs)};
    }
    struct arg_expectation {
        bool in_domain = true;
        std::optional<std::size_t> index;
    };
    static arg_expectation expect_arg(policy p, reduce_op op, std::span<const S> xs) {
        if (p.nan == nan_policy::undefined && has_nan(xs)) return {false, std::nullopt};
        return {true, oracle::arg_reduce<F>(p, op, xs)};
    }

    static std::optional<counterexample> agreement(policy p, reduce_op op, std::span<const S> xs,
                                                   std::optional<S> actual) {
        return agreement(p, xs, expect(p, op, xs), actual);
    }
    static std::optional<counterexample> agreement(policy p, std::span<const S> /* the input, e's */, const expectation& e,
                                                   std::optional<S> actual) {
        if (!e.in_domain) return std::nullopt;
        const std::optional<S>& expected = e.value;
        if (expected.has_value() == actual.has_value() &&
            (!expected || oracle::same_result<F>(p, *expected, *actual)))
            return std::nullopt;
        counterexample c = disagreement(law_id::reducer_agreement, expected, actual);
        c.bits = c.expected;
        c.other = c.actual;
        return c;
    }

    // The counterexample of an answer that is not the oracle's (either may be "no answer").
    template <class T>
    static counterexample disagreement(law_id law, const std::optional<T>& expected, const std::optional<T>& actual) {
        counterexample c{};
        c.law = law;
        c.expected_empty = !expected;
        c.actual_empty = !actual;
        c.expected = expected.value_or(0);
        c.actual = actual.value_or(0);
        return c;
    }

    static std::optional<counterexample> arg_agreement(policy p, reduce_op op, std::span<const S> xs,
                                                       std::optional<std::size_t> actual) {
        return arg_agreement(p, op, xs, expect_arg(p, op, xs), actual);
    }
    static std::optional<counterexample> arg_agreement(policy p, reduce_op op, std::span<const S> xs,
                                                       const arg_expectation& e, std::optional<std::size_t> actual) {
        if (!e.in_domain) return std::nullopt;
        const std::optional<std::size_t>& expected = e.index;
        bool ok = expected.has_value() == actual.has_value();
        if (ok && expected && *expected != *actual) {
            // Under ties=any another index is right if its element ties with the oracle's.
            ok = p.ties == tie_policy::any && *actual < xs.size() &&
                 oracle::ties(p, op, F::to_value(xs[*actual]), F::to_value(xs[*expected]));
        }
        if (ok) return std::nullopt;
        counterexample c = disagreement(law_id::arg_reducer_agreement, expected, actual);
        c.bits = expected && *expected < xs.size() ? xs[*expected] : 0;
        c.other = actual && *actual < xs.size() ? xs[*actual] : 0;
        return c;
    }
};

}  // namespace flipcheck

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
