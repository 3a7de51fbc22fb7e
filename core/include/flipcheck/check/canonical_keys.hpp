// Checking a canonical key (canonical_key.hpp) against its declared equivalence. Two laws, both
// on neighbours of the declared order, so that transitivity covers every pair (as the mapping
// sweep's successor law does), whatever the key's type:
//   key_equivalence  neighbours the equivalence calls equal get equal keys (-0 and +0 under sql
//                    and numeric; every NaN under sql)
//   key_order        other neighbours get strictly increasing keys
// Together: key(a) == key(b) exactly when a and b are equivalent, and key(a) < key(b) when a sorts
// before b. The declared order of an IEEE-shaped format's codes is walked by sign and magnitude
// (an integer order the oracle's totalOrder is checked against at every step, so a walk in the
// wrong order is an error, not a pass):
//   total_order  -NaNs (magnitude descending), -inf .. -0, +0 .. +inf, +NaNs (ascending)
//   sql          -inf .. -0, +0 .. +inf, then every NaN (one class)
//   numeric      -inf .. -0, +0 .. +inf
// Domains: every code of a 16-bit format (exhaustive); binary32 and binary64 sampled (every code
// with its low 16 or 48 bits zero, every binade's edge mantissas, and the codes next to zero, the
// infinities and the NaN boundary) or, for binary32, every code (scaling_options::every_binary32,
// every core).
#pragma once
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/canonical_key.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/every_core.hpp"
#include "flipcheck/hd.hpp"
#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/oracle.hpp"

namespace flipcheck {

template <class X>
concept canonical_key_subject = requires(typename X::format::storage x) {
    requires format<typename X::format>;
    { X::declared } -> std::convertible_to<equivalence>;
    { X::key(x) < X::key(x) } -> std::convertible_to<bool>;
    { X::key(x) == X::key(x) } -> std::convertible_to<bool>;
};

// The formats a canonical key is checked on: IEEE-shaped (a sign, NaNs above infinity) of 16 bits or
// more (binary16, bfloat16, binary32, binary64).
template <class F>
concept key_input = format<F> && F::is_signed && F::unused_mask == 0 && F::nans == nan_encoding::ieee && F::width >= 16;

namespace key_check {

// The walk's codes: position i of the declared order, over number magnitudes (0 .. inf's) and
// NaN magnitudes (above inf's), ascending: every one of the format's (`every`: the walk computes
// them) or the listed sample. Plain data, so that a GPU walk can take it (every code only there).
template <format F>
struct declared_order {
    using S = typename F::storage;
    equivalence e;
    const S* numbers = nullptr;
    std::uint64_t numbers_size = 0;
    const S* nans = nullptr;
    std::uint64_t nans_size = 0;
    bool every = false;
    FLIPCHECK_HD std::uint64_t number_count() const { return every ? std::uint64_t(F::infinity) + 1 : numbers_size; }
    FLIPCHECK_HD std::uint64_t nan_count() const { return every ? std::uint64_t(S(F::sign_mask - 1)) - F::infinity : nans_size; }
    FLIPCHECK_HD S number(std::uint64_t i) const { return every ? S(i) : numbers[i]; }
    FLIPCHECK_HD S nan(std::uint64_t i) const { return every ? S(std::uint64_t(F::infinity) + 1 + i) : nans[i]; }
    FLIPCHECK_HD std::uint64_t size() const {
        const std::uint64_t n = 2 * number_count();
        return e == equivalence::numeric ? n : n + 2 * nan_count();
    }
    FLIPCHECK_HD S at(std::uint64_t i) const {
        const std::uint64_t n = number_count(), q = nan_count();
        if (e == equivalence::total_order) {
            if (i < q) return S(F::sign_mask | nan(q - 1 - i));
            i -= q;
        }
        if (i < n) return S(F::sign_mask | number(n - 1 - i));
        i -= n;
        if (i < n) return number(i);
        i -= n;
        if (i < q) return nan(i);  // +NaNs ascending, then (sql) the negative ones
        return S(F::sign_mask | nan(i - q));
    }
    FLIPCHECK_HD bool one_class(S a, S b) const {
        if (e == equivalence::total_order) return false;
        const bool zeros = (a == F::sign_mask && b == S(0));
        return zeros || (e == equivalence::sql && F::is_nan_bits(a) && F::is_nan_bits(b));
    }
    // The walk's own check: a neighbour pair in the declared order (an error in the walk throws).
    bool in_order(S a, S b) const {
        const auto va = F::to_value(a), vb = F::to_value(b);
        if (one_class(a, b)) return true;
        if (e == equivalence::sql && F::is_nan_bits(b)) return !F::is_nan_bits(a);
        return oracle::total_less(va, vb);
    }
};

template <class S>
struct key_finding {
    S a{}, b{};
    int law = -1;  // 0: key_equivalence, 1: key_order
    std::uint64_t at = ~std::uint64_t(0);  // the position of b in the declared order
};

// The first failure of each law (0: key_equivalence, 1: key_order). Plain data for a GPU walk.
template <class S>
struct key_findings {
    key_finding<S> law[2];
};

// Judge the neighbour pairs ending at positions (first, last] by their keys, key_of(code): the
// first failure of each law. The walk's own order is checked at every `verify`-th pair (1: every
// pair; the 16-bit formats and the sample check each, which runs the same walk code the
// exhaustive binary32 walk does; 0: never, the GPU's, whose walk is this same code).
template <format F, class KeyOf>
FLIPCHECK_HD key_findings<typename F::storage> judge(const declared_order<F>& order, KeyOf&& key_of, std::uint64_t first,
                                                     std::uint64_t last, std::uint64_t verify = 1) {
    using S = typename F::storage;
    key_findings<S> out{};
    if (first >= last) return out;
    S a = order.at(first);
    auto ka = key_of(a);
    for (std::uint64_t i = first + 1; i <= last && i < order.size(); ++i) {
        const S b = order.at(i);
        const auto kb = key_of(b);
#if !defined(__CUDA_ARCH__)
        if (verify && i % verify == 0 && !order.in_order(a, b)) throw std::logic_error("canonical key walk: codes out of the declared order");
#endif
        const bool same = order.one_class(a, b);
        const int law = same ? (kb == ka ? -1 : 0) : (ka < kb ? -1 : 1);
        if (law >= 0 && out.law[law].at == ~std::uint64_t(0)) out.law[law] = {a, b, law, i};
        a = b;
        ka = kb;
    }
    return out;
}

// A key as a report writes it: an integer in hex, bytes one by one.
template <class K>
std::string show_key(const K& k) {
    if constexpr (std::is_integral_v<K>) {
        return hex(k, int(sizeof(k) * 8));
    } else {
        std::string s = "bytes";
        for (std::uint8_t b : k) s += " " + hex(b, 8).substr(2);
        return s;
    }
}

// The sample of a 32- or 64-bit format: every code whose low width - 16 bits are zero (every
// bfloat16 pattern, for binary32), every binade's edge mantissas, and the codes around zero, the
// infinities and the NaN boundary; numbers (nan = false) or NaNs.
template <format F>
std::vector<typename F::storage> sampled_magnitudes(bool nan) {
    using S = typename F::storage;
    const std::uint64_t inf = F::infinity, top = F::sign_mask - 1, mantissa = F::mantissa_mask;
    std::vector<S> m;
    for (std::uint64_t x = 0; x <= top; x += std::uint64_t(1) << (F::width - 16)) m.push_back(S(x));
    for (std::uint64_t e = 0; e <= inf; e += mantissa + 1)
        for (std::uint64_t d : {std::uint64_t(1), std::uint64_t(2), mantissa - 1, mantissa}) m.push_back(S(e + d));
    for (std::uint64_t e : {std::uint64_t(0), inf, top})
        for (std::uint64_t d = 0; d <= 3; ++d) {
            if (e >= d) m.push_back(S(e - d));
            if (top - e >= d) m.push_back(S(e + d));
        }
    std::erase_if(m, [&](S x) { return nan ? x <= inf : x > inf; });
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    return m;
}

// The report's verdict and words from each law's first failure (the CPU's and the GPU's walks).
template <format F, class KeyOf, class ShowKey>
void conclude(scaling_report& r, equivalence e, const key_findings<typename F::storage>& first, KeyOf&& key_of, ShowKey&& show_key) {
    using S = typename F::storage;
    constexpr law_id laws[] = {law_id::key_equivalence, law_id::key_order};
    for (int l = 0; l < 2; ++l) {
        const auto& f = first.law[l];
        if (f.law < 0) continue;
        r.failed |= law_bit(laws[l]);
        std::string text = std::string(to_string(laws[l])) + ": " + show<F>(f.a) + " and " + show<F>(f.b) + " are " +
                           (l == 0 ? "equal" : "in order") + " under " + std::string(to_string(e)) + ", but their keys are " +
                           show_key(key_of(f.a)) + " and " + show_key(key_of(f.b));
        r.counterexample = r.counterexample ? *r.counterexample + "; " + text : text;
        if (r.replay.empty()) {
            const S pair[2] = {f.a, f.b};
            r.replay = format_case<F>(std::span<const S>(pair, 2), {});
        }
    }
}

}  // namespace key_check

// A key given as a function, key_of(code), shown by show_key(key), under equivalence e; with
// `only` (a replayed case's codes), on those codes' magnitudes of both signs alone.
template <format F, class KeyOf, class ShowKey>
scaling_report check_canonical_key_of(equivalence e, KeyOf&& key_of, ShowKey&& show_key, const scaling_options& o = {},
                                      const std::vector<typename F::storage>& only = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    namespace kc = key_check;
    static_assert(key_input<F>, "canonical keys are checked on IEEE-shaped formats (binary16, bfloat16, binary32, binary64)");
    const bool every = only.empty() && (F::width <= 16 || (F::width == 32 && o.every_binary32));
    scaling_report r{"", "canonical key", std::string(F::name) + ", " + std::string(to_string(e)), "", every, 0, {}};
    std::vector<S> numbers, nans;
    if (!only.empty()) {
        for (S x : only) (F::is_nan_bits(x) ? nans : numbers).push_back(S(x & ~F::sign_mask));
        for (auto* v : {&numbers, &nans}) {
            std::sort(v->begin(), v->end());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
    } else if (!every) {
        numbers = kc::sampled_magnitudes<F>(false), nans = kc::sampled_magnitudes<F>(true);
    }
    const kc::declared_order<F> order{e, numbers.data(), numbers.size(), nans.data(), nans.size(), every};
    const std::uint64_t n = order.size();
    r.domain = !only.empty() ? std::string(only_words) + ", both signs"
               : every       ? "every " + std::string(F::name) + " code (exhaustive" + (F::width == 32 && o.threads != 1 ? ", every core)" : ")")
                       : "every code with its low " + std::to_string(F::width - 16) +
                             " bits zero, every binade's edge mantissas, the codes around zero, the infinities and the NaNs (sampled: " +
                             std::to_string(n) + " codes)";
    if (e == equivalence::numeric) r.domain += "; NaNs not judged (numeric)";
    kc::key_findings<S> first{};
    if (every && F::width == 32) {
        const auto parts = every_core_chunks(
            0, n, [&](std::uint64_t a, std::uint64_t z) { return kc::judge<F>(order, key_of, a, z, 4099); }, o.threads);
        for (const auto& p : parts)
            for (int l = 0; l < 2; ++l)
                if (p.law[l].at < first.law[l].at) first.law[l] = p.law[l];
    } else {
        first = kc::judge<F>(order, key_of, 0, n);
    }
    r.checks = n;
    kc::conclude<F>(r, e, first, key_of, show_key);
    return r;
}

template <canonical_key_subject X>
scaling_report check_canonical_key(const scaling_options& o = {}) {
    return check_canonical_key_of<typename X::format>(
        X::declared, [](typename X::format::storage x) { return X::key(x); }, [](const auto& k) { return key_check::show_key(k); }, o);
}

}  // namespace flipcheck
