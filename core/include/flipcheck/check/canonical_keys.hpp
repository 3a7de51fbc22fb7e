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
// Domains: every code of a 16-bit format (exhaustive); binary32 sampled (every bfloat16 pattern
// and the binary32 codes next to zero, the infinities and the NaN boundary) or every code
// (scaling_options::every_binary32, every core).
#pragma once
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flipcheck/canonical_key.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/every_core.hpp"
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

namespace key_check {

// The walk's codes: position i of the declared order, over number magnitudes (0 .. inf's) and
// NaN magnitudes (above inf's), ascending: every one of the format's (`numbers`/`nans` empty: the
// walk computes them) or the listed sample.
template <format F>
struct declared_order {
    using S = typename F::storage;
    equivalence e;
    const std::vector<S>& numbers;
    const std::vector<S>& nans;
    bool every = false;
    std::uint64_t number_count() const { return every ? std::uint64_t(F::infinity) + 1 : numbers.size(); }
    std::uint64_t nan_count() const { return every ? std::uint64_t(S(F::sign_mask - 1)) - F::infinity : nans.size(); }
    S number(std::uint64_t i) const { return every ? S(i) : numbers[i]; }
    S nan(std::uint64_t i) const { return every ? S(std::uint64_t(F::infinity) + 1 + i) : nans[i]; }
    std::uint64_t size() const {
        const std::uint64_t n = 2 * number_count();
        return e == equivalence::numeric ? n : n + 2 * nan_count();
    }
    S at(std::uint64_t i) const {
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
    bool one_class(S a, S b) const {
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
    std::uint64_t at = ~std::uint64_t(0);
};

// Judge the neighbour pairs ending at positions (first, last]: the first failure of each law. The
// walk's own order is checked at every `verify`-th pair (1: every pair; the 16-bit formats and the
// sample check each, which runs the same walk code the exhaustive binary32 walk does).
template <canonical_key_subject X>
std::array<key_finding<typename X::format::storage>, 2> judge(const declared_order<typename X::format>& order, std::uint64_t first,
                                                               std::uint64_t last, std::uint64_t verify = 1) {
    using S = typename X::format::storage;
    std::array<key_finding<S>, 2> out{};
    if (first >= last) return out;
    S a = order.at(first);
    auto ka = X::key(a);
    for (std::uint64_t i = first + 1; i <= last && i < order.size(); ++i) {
        const S b = order.at(i);
        const auto kb = X::key(b);
        if (i % verify == 0 && !order.in_order(a, b)) throw std::logic_error("canonical key walk: codes out of the declared order");
        const bool same = order.one_class(a, b);
        const int law = same ? (kb == ka ? -1 : 0) : (ka < kb ? -1 : 1);
        if (law >= 0 && out[std::size_t(law)].at == ~std::uint64_t(0)) out[std::size_t(law)] = {a, b, law, i};
        a = b;
        ka = kb;
    }
    return out;
}

// binary32's sample: every bfloat16 pattern's code and the codes around zero, the infinities and
// the NaN boundary; numbers (nan = false) or NaNs.
template <format F>
std::vector<typename F::storage> sampled_magnitudes(bool nan) {
    using S = typename F::storage;
    const std::uint64_t inf = F::infinity, top = F::sign_mask - 1;
    std::vector<S> m;
    for (std::uint64_t x = 0; x <= top; x += std::uint64_t(1) << 16) m.push_back(S(x));
    for (std::uint64_t e : {std::uint64_t(0), inf, top})
        for (std::int64_t d = -3; d <= 3; ++d)
            if (std::int64_t(e) + d >= 0 && std::uint64_t(std::int64_t(e) + d) <= top) m.push_back(S(std::int64_t(e) + d));
    std::erase_if(m, [&](S x) { return nan ? x <= inf : x > inf; });
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    return m;
}

}  // namespace key_check

template <canonical_key_subject X>
scaling_report check_canonical_key(const scaling_options& o = {}) {
    using F = typename X::format;
    using S = typename F::storage;
    namespace kc = key_check;
    static_assert(F::is_signed && F::unused_mask == 0 && F::nans == nan_encoding::ieee,
                  "canonical keys are checked on IEEE-shaped formats (binary16, bfloat16, binary32, binary64)");
    const bool every = F::width <= 16 || (F::width == 32 && o.every_binary32);
    scaling_report r{"", "canonical key", std::string(F::name) + ", " + std::string(to_string(X::declared)), "", every, 0, {}};
    const std::vector<S> numbers = every ? std::vector<S>{} : kc::sampled_magnitudes<F>(false),
                         nans = every ? std::vector<S>{} : kc::sampled_magnitudes<F>(true);
    const kc::declared_order<F> order{X::declared, numbers, nans, every};
    const std::uint64_t n = order.size();
    r.domain = every ? "every " + std::string(F::name) + " code (exhaustive" + (F::width == 32 ? ", every core)" : ")")
                     : "every bfloat16 pattern's code and the codes around zero, the infinities and the NaNs (sampled: " +
                           std::to_string(n) + " codes)";
    if (X::declared == equivalence::numeric) r.domain += "; NaNs not judged (numeric)";
    std::array<kc::key_finding<S>, 2> first{};
    if (every && F::width == 32) {
        const auto parts = every_core_chunks(0, n, [&](std::uint64_t a, std::uint64_t e) { return kc::judge<X>(order, a, e, 4099); });
        for (const auto& p : parts)
            for (int l = 0; l < 2; ++l)
                if (p[std::size_t(l)].at < first[std::size_t(l)].at) first[std::size_t(l)] = p[std::size_t(l)];
    } else {
        first = kc::judge<X>(order, 0, n);
    }
    r.checks = n;
    constexpr law_id laws[] = {law_id::key_equivalence, law_id::key_order};
    for (int l = 0; l < 2; ++l) {
        const auto& f = first[std::size_t(l)];
        if (f.law < 0) continue;
        r.failed |= law_bit(laws[l]);
        const auto show_key = [](auto k) {
            if constexpr (std::is_integral_v<decltype(k)>) return hex(k, int(sizeof(k) * 8));
            else {
                std::string s = "bytes";
                for (std::uint8_t b : k) s += " " + hex(b, 8).substr(2);
                return s;
            }
        };
        std::string text = std::string(to_string(laws[l])) + ": " + show<F>(f.a) + " and " + show<F>(f.b) + " are " +
                           (l == 0 ? "equal" : "in order") + " under " + std::string(to_string(X::declared)) + ", but their keys are " +
                           show_key(X::key(f.a)) + " and " + show_key(X::key(f.b));
        r.counterexample = r.counterexample ? *r.counterexample + "; " + text : text;
        if (r.replay.empty()) {
            const S pair[2] = {f.a, f.b};
            r.replay = format_case<F>(std::span<const S>(pair, 2), {});
        }
    }
    return r;
}

}  // namespace flipcheck
