// Checking a quantizer (quantize.hpp) against the oracle under the policy it declares. Four laws,
// each judged on its own inputs so that a failure says what kind of wrong it is:
//   quantize_order       x < y gives value(q(x)) <= value(q(y)) (weak monotonicity), on
//                        neighbours: magnitudes ascending on each side of zero, and -0 to +0, so
//                        that transitivity covers every pair, as the bijection's order law does;
//   quantize_special     NaN, +-inf, an overflow (|x| above the element's largest finite) and a
//                        zero result give the codes the policy's saturation and zero rules declare;
//   quantize_idempotent  an input that is exactly a code's value gives that code (decode then
//                        quantize is the identity on codes);
//   quantize_rounding    every other input gives the nearest code in the declared direction.
// Domains: every pattern of a 16-bit input (exhaustive); binary32 either sampled (every code's
// value, every midpoint and threshold between codes and their binary32 neighbours, every bfloat16
// pattern) or every one of the 2^32 patterns (options.every_binary32: every core).
#pragma once
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cmath>
#include <deque>
#include <future>
#include <memory>
#include <span>
#include <thread>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/every_core.hpp"
#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/quantize.hpp"

namespace flipcheck {

template <class X>
concept quantizer_subject = requires(typename X::format::storage x) {
    requires format<typename X::format>;
    requires element_format<typename X::element>;
    { X::declared } -> std::convertible_to<quantize_policy>;
    { X::quantize(x) } -> std::convertible_to<code_t<typename X::element>>;
};

// Input formats: their values are binary32 values (the built-ins and the oracle's search take a
// float). binary64 input is not a quantizer's here.
template <class F>
concept quantizer_input = format<F> && std::same_as<typename F::value_type, float> && F::width >= 16;

namespace quantize_check {

inline constexpr law_id laws[] = {law_id::quantize_order, law_id::quantize_special, law_id::quantize_idempotent,
                                  law_id::quantize_rounding};

// S: the input's storage, C: the element's code. Plain data, so that a GPU walk can write them.
template <class S, class C>
struct finding {
    S x{}, previous{};  // previous: the order law's neighbour
    C got = 0, want = 0, previous_got = 0;
    std::uint64_t rank = ~std::uint64_t(0);  // walk position (magnitude, then sign): smallest wins
};

template <class S, class C>
struct findings {
    finding<S, C> first[4];  // by quantize_check::laws' order
    std::uint64_t checks = 0;
    FLIPCHECK_HD void note(int law, const finding<S, C>& f) {
        if (f.rank < first[law].rank) first[law] = f;
    }
    FLIPCHECK_HD void merge(const findings& o) {
        checks += o.checks;
        for (int l = 0; l < 4; ++l) note(l, o.first[l]);
    }
};

template <element_format E>
FLIPCHECK_HD bool same_code(code_t<E> a, code_t<E> b) {
    return a == b || (E::is_nan_bits(a) && E::is_nan_bits(b));
}

// Every code's value, once per element: the walk asks for two per input.
template <element_format E>
const std::vector<float>& element_values() {
    static const std::vector<float> v = [] {
        std::vector<float> out(std::size_t(1) << E::width);
        for (std::size_t c = 0; c < out.size(); ++c) out[c] = E::to_value(code_t<E>(c));
        return out;
    }();
    return v;
}

// The oracle's step table (below) as plain pointers: on the host, into its vectors; on a GPU, into
// device copies of them.
template <class C>
struct step_view {
    const std::uint32_t* points = nullptr;
    const C* at[2] = {nullptr, nullptr};  // [negative]
    const C* above[2] = {nullptr, nullptr};
    std::size_t size = 0;
    // The index of the last point <= m, from a cursor that only moves up (magnitudes ascend).
    FLIPCHECK_HD std::size_t locate(std::uint32_t m, std::size_t k) const {
        while (k + 1 < size && points[k + 1] <= m) ++k;
        return k;
    }
    // The same, by bisection: where a walk starts (points[0] is 0, so every m has one).
    FLIPCHECK_HD std::size_t find(std::uint32_t m) const {
        std::size_t lo = 0, hi = size;  // points[lo] <= m < points[hi]
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (points[mid] <= m) lo = mid;
            else hi = mid;
        }
        return lo;
    }
    FLIPCHECK_HD C answer(bool negative, std::uint32_t m, std::size_t k) const {
        return points[k] == m ? at[negative][k] : above[negative][k];
    }
    // The same for any real magnitude a, as binary64 (a scaled quantizer's |x op s|): the oracle's
    // answer is constant between neighbouring points, and beyond binary32's range too (below
    // 2^-149 it is the smallest's; above the overflow threshold, the overflow's).
    FLIPCHECK_HD double point(std::size_t k) const { return double(bit_cast<float>(points[k])); }
    FLIPCHECK_HD std::size_t locate_value(double a, std::size_t k) const {
        while (k + 1 < size && point(k + 1) <= a) ++k;
        return k;
    }
    FLIPCHECK_HD std::size_t find_value(double a) const {
        std::size_t lo = 0, hi = size;  // point(lo) <= a < point(hi)
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (point(mid) <= a) lo = mid;
            else hi = mid;
        }
        return lo;
    }
    FLIPCHECK_HD C answer_value(bool negative, double a, std::size_t k) const {
        return point(k) == a ? at[negative][k] : above[negative][k];
    }
};

// The oracle's answer as a step function of a binary32 magnitude, per sign: constant on each open
// interval between its special points (every code's value, every midpoint between neighbouring
// codes, the overflow threshold, infinity), since rounding in every declared direction only asks
// which of two codes around x is nearer or in the direction. The slow oracle is asked once at each
// point and once just above it; the exhaustive walk then costs a comparison per input.
template <element_format E>
struct oracle_steps {
    std::vector<std::uint32_t> points;
    std::array<std::vector<code_t<E>>, 2> at, above;  // [negative]
    explicit oracle_steps(quantize_policy p) {
        const auto& ladder = oracle::element_ladder<E>();
        std::vector<double> v;
        for (std::size_t i = 0; i < ladder.size(); ++i) {
            v.push_back(ladder[i].first);
            if (i + 1 < ladder.size()) v.push_back((ladder[i].first + ladder[i + 1].first) / 2);
        }
        const double max = ladder.back().first, ulp = max - ladder[ladder.size() - 2].first;
        v.push_back(max + ulp / 2);
        for (double d : v) points.push_back(bit_cast<std::uint32_t>(float(d)));  // exact: at most 12 significant bits
        points.push_back(0x7f800000u);
        std::sort(points.begin(), points.end());
        points.erase(std::unique(points.begin(), points.end()), points.end());
        for (int s = 0; s < 2; ++s)
            for (std::uint32_t m : points) {
                const std::uint32_t sign = s ? 0x80000000u : 0u;
                at[std::size_t(s)].push_back(oracle::quantize<E>(p, double(bit_cast<float>(sign | m))));
                above[std::size_t(s)].push_back(m == 0x7f800000u ? 0 : oracle::quantize<E>(p, double(bit_cast<float>(sign | (m + 1)))));
            }
    }
    step_view<code_t<E>> view() const { return {points.data(), {at[0].data(), at[1].data()}, {above[0].data(), above[1].data()}, points.size()}; }
};

// The oracle's code for input bits x of format F by the step table, for a walk whose inputs ascend
// in magnitude (k: the table's cursor).
template <class F, class C>
struct stepped_want {
    step_view<C> steps;
    std::size_t k = 0;
    FLIPCHECK_HD C operator()(typename F::storage x) {
        const float v = F::to_value(x);
        const std::uint32_t m = bit_cast<std::uint32_t>(v) & 0x7fffffffu;
        k = steps.locate(m, k);
        return steps.answer(oracle::signbit(v), m, k);
    }
};

// The value a quantizer rounds: the input's own (a scaled quantizer's is x op s: check/
// scaled_quantizers.hpp).
struct unscaled {
    FLIPCHECK_HD double operator()(float x) const { return x; }
};

// Judge magnitude bits [first, last] of input format F (every one, ascending) or, with `list`, the
// list_size listed ones (ascending). want(x) is the oracle's code for input bits x; value[c] is
// code c's value (element_values); through(x's value) is the value rounded, which tells a failure's
// law. Host and device: a GPU walks a chunk a thread.
template <quantizer_input F, element_format E, class Q, class Want, class Through = unscaled>
FLIPCHECK_HD void walk(findings<typename F::storage, code_t<E>>& out, const float* value, const Q& q, Want&& want,
                       std::uint64_t first, std::uint64_t last, const typename F::storage* list = nullptr,
                       std::uint64_t list_size = 0, bool warm_up = false, Through through = {}) {
    using S = typename F::storage;
    using C = code_t<E>;
    const float max = value[E::max_finite], infinity = bit_cast<float>(0x7f800000u);
    bool have_previous[2] = {false, false};
    S previous_x[2] = {};
    C previous_got[2] = {};
    float previous_value[2] = {};
    float zero_value[2] = {};
    bool have_zero[2] = {false, false};
    const std::uint64_t n = list ? list_size : last - first + 1;
    for (std::uint64_t i = 0; i < n; ++i) {
        const S m = list ? list[i] : S(first + i);
        for (int s = 0; s < 2; ++s) {
            const S x = S(m | (s ? F::sign_mask : S(0)));
            const std::uint64_t rank = std::uint64_t(m) * 2 + std::uint64_t(s);
            const double xv = through(F::to_value(x));
            const C got = C(q(x));
            if (warm_up && i == 0) {  // the previous chunk's last magnitude: only the order law's neighbour
                if (!E::is_nan_bits(got) && xv == xv)
                    have_previous[s] = true, previous_x[s] = x, previous_got[s] = got, previous_value[s] = value[got];
                continue;
            }
            ++out.checks;
            if (xv != xv) {
                if constexpr (E::nans != nan_encoding::none)
                    if (!E::is_nan_bits(got)) out.note(1, {x, {}, got, E::quiet_nan, 0, rank});
                continue;
            }
            const C w = want(x);
            if (!same_code<E>(got, w)) {
                const double wv = value[w];
                const double a = xv < 0 ? -xv : xv;
                const bool special = a == double(infinity) || a > double(max) || wv == 0.0;
                const int law = special ? 1 : (wv == xv ? 2 : 3);
                out.note(law, {x, {}, got, w, 0, rank});
            }
            // Order: on each side, results move away from zero (or stay) as magnitudes grow.
            const float gv = value[got];
            if (!E::is_nan_bits(got)) {
                if (have_previous[s]) {
                    const bool ok = s ? gv <= previous_value[s] : gv >= previous_value[s];
                    if (!ok) out.note(0, {x, previous_x[s], got, w, previous_got[s], rank});
                }
                if (m == 0) zero_value[s] = gv, have_zero[s] = true;
                have_previous[s] = true, previous_x[s] = x, previous_got[s] = got, previous_value[s] = gv;
            } else {
                have_previous[s] = false;  // a NaN result is judged by the other laws; restart the chain
            }
        }
        if (m == 0 && !(warm_up && i == 0) && have_zero[0] && have_zero[1] && zero_value[1] > zero_value[0])
            out.note(0, {F::zero, F::sign_mask, C(q(F::zero)), 0, C(q(F::sign_mask)), 1});
    }
}

// Every binary32 input of magnitudes [a, e] judged from their codes, already made: magnitude m's
// code for sign s is codes[2 (m - a + 1) + s], and codes[0], codes[1] are magnitude a - 1's (the
// order law's neighbour; unused when a is 0). Between two neighbouring points of the oracle's step
// table the oracle's answer is one code per sign, so a stretch there whose codes all equal it (and
// whose neighbour below does too) breaks no law: not the others, since each code is the oracle's,
// and not the order law, since the code never changes. Such a stretch is counted without a walk;
// the walk judges the rest, input by input, with the stretch's last magnitude as its neighbour. A
// conversion that is right runs at the speed of a comparison of memory (bench/RESULTS.md, "The
// conversion stream"), and every finding is the walk's own: the same inputs, laws and counts.
template <element_format E>
void judge_codes(findings<std::uint32_t, code_t<E>>& f, const step_view<code_t<E>>& view, const float* value,
                 const code_t<E>* codes, std::uint64_t a, std::uint64_t e) {
    using C = code_t<E>;
    const auto q = [&](std::uint32_t x) { return codes[std::size_t((std::int64_t(x & 0x7fffffffu) - std::int64_t(a) + 1) * 2 + (x >> 31))]; };
    std::uint64_t pending = a;  // the first magnitude not judged yet
    const auto walk_to = [&](std::uint64_t last) {
        if (last < pending) return;
        const bool warm = pending != 0;  // pending - 1 was judged (here or by the chunk before): the neighbour
        const std::uint64_t from = warm ? pending - 1 : 0;
        walk<binary32, E>(f, value, q, stepped_want<binary32, C>{view, view.find(std::uint32_t(from))}, from, last, nullptr, 0, warm);
        pending = last + 1;
    };
    // Stretches between two points: above the last (infinity) are the NaNs, which the walk judges.
    for (std::size_t k = view.find(std::uint32_t(a)); k + 1 < view.size && view.points[k] <= e; ++k) {
        const std::uint64_t next = view.points[k + 1];
        // [lo - 1, hi]: strictly between points k and k + 1, and in the buffer (lo - 1 >= a - 1).
        const std::uint64_t lo = std::max<std::uint64_t>(std::uint64_t(view.points[k]) + 2, a), hi = std::min<std::uint64_t>(next - 1, e);
        if (lo > hi) continue;
        const C plus = view.above[0][k], minus = view.above[1][k];
        const C* c = codes + 2 * (lo - a);  // magnitude lo - 1's slots
        const std::size_t n = 2 * std::size_t(hi - lo + 2);
        bool same = true;
        for (std::size_t i = 0; same && i < n; i += 256) {  // blocks without a branch, so that the loop vectorises
            const std::size_t end = std::min(n, i + 256);
            bool block = true;
            for (std::size_t j = i; j < end; j += 2) block &= (c[j] == plus) & (c[j + 1] == minus);
            same = block;
        }
        if (!same) continue;  // the walk finds what is wrong there
        walk_to(lo - 1);
        f.checks += 2 * (hi - lo + 1);
        pending = hi + 1;
    }
    walk_to(e);
}

// The sampled binary32 magnitudes (see the header comment), made once per element: every point
// where an answer may change and its two neighbours on each side, and every bfloat16 magnitude
// (the main job judges 28 binary32 quantizers on it, so it is kept to about 34,000 magnitudes).
template <element_format E>
const std::vector<std::uint32_t>& sampled_binary32() {
    static const std::vector<std::uint32_t> magnitudes = [] {
        std::vector<std::uint32_t> m;
        const auto add_around = [&m](std::uint32_t b) {
            for (int d = -2; d <= 2; ++d)
                if (std::int64_t(b) + d >= 0 && std::int64_t(b) + d <= 0x7fffffff) m.push_back(std::uint32_t(std::int64_t(b) + d));
        };
        for (std::uint32_t pt : oracle_steps<E>(quantize_policy{}).points) add_around(pt);  // points: any policy's
        for (std::uint32_t h = 0; h <= 0x7fffu; ++h) m.push_back(h << 16);
        for (std::uint32_t b : {0x7f7fffffu, 0x7fffffffu, 0x7fc00000u, 0x7f800001u, 0u}) add_around(b);
        std::sort(m.begin(), m.end());
        m.erase(std::unique(m.begin(), m.end()), m.end());
        return m;
    }();
    return magnitudes;
}

}  // namespace quantize_check

namespace quantize_check {

// A report's name and shape; "" as the name: the caller names the subject. A policy the element
// cannot carry out is a failure of the declaration itself (say_cannot_declare).
template <quantizer_input F, element_format E>
scaling_report report_of(quantize_policy p) {
    return {"", "quantizer",
            std::string(F::name) + " -> " + std::string(E::name) + ", " + std::string(to_string(p.round)) + ", " +
                std::string(to_string(p.saturate)),
            "", false, 0, {}};
}
template <element_format E>
bool say_cannot_declare(scaling_report& r, quantize_policy p) {
    if (can_declare<E>(p)) return false;
    r.counterexample = "declares saturation=" + std::string(to_string(p.saturate)) + ", which " + std::string(E::name) +
                       " cannot encode (it has no " + (p.saturate == saturation::infinity ? "infinity" : "NaN") + ")";
    return true;
}

// The report's verdict from the walks' findings: each failed law with its first input.
// `by`: what follows the input in the call's text (a scaled quantizer's " * s").
template <quantizer_input F, element_format E>
void conclude(scaling_report& r, const findings<typename F::storage, code_t<E>>& f, const std::string& by = "") {
    using S = typename F::storage;
    r.checks = f.checks;
    const auto code = [](code_t<E> c) { return show<E>(c); };
    for (int l = 0; l < 4; ++l) {
        const auto& x = f.first[l];
        if (x.rank == ~std::uint64_t(0)) continue;
        r.failed |= law_bit(laws[l]);
        std::string text = std::string(to_string(laws[l])) + ": ";
        if (l == 0)
            text += "quantize(" + show<F>(x.previous) + by + ") = " + code(x.previous_got) + " but quantize(" + show<F>(x.x) + by +
                    ") = " + code(x.got) + ": the results run against the inputs' order";
        else
            text += "quantize(" + show<F>(x.x) + by + ") = " + code(x.got) + "; the oracle's: " + code(x.want);
        r.counterexample = r.counterexample ? *r.counterexample + "; " + text : text;
        if (r.replay.empty()) r.replay = format_case<F>(std::span<const S>(&x.x, 1), {});
    }
}

inline constexpr std::string_view every_binary32_domain = "every binary32 pattern (exhaustive)";

}  // namespace quantize_check

template <quantizer_input F, element_format E, class QuantizeOf>
scaling_report check_quantizer_of(quantize_policy p, QuantizeOf&& q, const scaling_options& o = {},
                                  const std::vector<typename F::storage>& only = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    using C = code_t<E>;
    namespace qc = quantize_check;
    scaling_report r = qc::report_of<F, E>(p);
    if (qc::say_cannot_declare<E>(r, p)) return r;
    const float* value = qc::element_values<E>().data();
    const auto slow = [p](S x) { return oracle::quantize<E>(p, double(F::to_value(x))); };
    // The walks below visit magnitudes in ascending order, so the oracle's step table answers
    // each in a comparison or two (the same answers as `slow`, which builds it).
    const qc::oracle_steps<E> steps(p);
    qc::findings<S, C> f;
    const S top = S(F::sign_mask - 1);  // the largest magnitude, a NaN's
    if (!only.empty()) {
        r.domain = only_words;
        std::vector<S> mags;
        for (S x : only) mags.push_back(S(x & ~F::sign_mask));
        std::sort(mags.begin(), mags.end());
        mags.erase(std::unique(mags.begin(), mags.end()), mags.end());
        qc::walk<F, E>(f, value, q, slow, 0, 0, mags.data(), mags.size());
    } else if constexpr (F::width == 16) {
        r.exhaustive = true;
        r.domain = "every " + std::string(F::name) + " pattern (exhaustive)";
        qc::walk<F, E>(f, value, q, qc::stepped_want<F, C>{steps.view()}, 0, top);
    } else {
        if (o.every_binary32) {
            r.exhaustive = true;
            r.domain = std::string(qc::every_binary32_domain) + (o.threads == 1 ? "" : ", every core");
            // The quantizer's codes are made a block at a time, in the walk's order (the calls a walk
            // makes, in its order), then judged from memory (judge_codes). Each chunk but the first
            // also asks for magnitude a - 1, only to give the order law its first neighbour pair (the
            // walk's warm_up); that magnitude is the previous chunk's, judged there.
            const auto parts = every_core_chunks(0, std::uint64_t(top) + 1, [&](std::uint64_t a, std::uint64_t e) {
                qc::findings<S, C> out;
                constexpr std::uint64_t block = std::uint64_t(1) << 16;
                std::vector<C> codes(2 * block + 2);
                if (a != 0) codes[0] = C(q(S(a - 1))), codes[1] = C(q(S((a - 1) | F::sign_mask)));
                for (std::uint64_t b = a; b < e; b += block) {
                    const std::uint64_t last = std::min(e, b + block) - 1;
                    for (std::uint64_t m = b; m <= last; ++m)
                        codes[2 * (m - b + 1)] = C(q(S(m))), codes[2 * (m - b + 1) + 1] = C(q(S(m | F::sign_mask)));
                    qc::judge_codes<E>(out, steps.view(), value, codes.data(), b, last);
                    codes[0] = codes[2 * (last - b + 1)], codes[1] = codes[2 * (last - b + 1) + 1];
                }
                return out;
            }, o.threads);
            for (const auto& part : parts) f.merge(part);
        } else {
            const std::vector<S>& mags = qc::sampled_binary32<E>();
            r.domain = "every code, midpoint and threshold of " + std::string(E::name) +
                       " and their binary32 neighbours, every bfloat16 pattern, both signs (sampled: " +
                       std::to_string(mags.size() * 2) + " inputs)";
            qc::walk<F, E>(f, value, q, qc::stepped_want<F, C>{steps.view()}, 0, 0, mags.data(), mags.size());
        }
    }
    qc::conclude<F, E>(r, f);
    return r;
}

// Codes a quantizer gave elsewhere (a framework's conversion, through an adapter: adapters/
// README.md) for every binary32 input, in the walk's order (input i is (i >> 1) | (i & 1) << 31),
// judged as they arrive, a chunk a thread on up to `threads` threads (0: every core).
// read(dst, n) fills dst with up to n codes and returns how many it gave; fewer than 2^32 in all
// is bad input (input_error).
template <element_format E, class Read>
scaling_report check_quantizer_codes(quantize_policy p, Read&& read, unsigned threads = 0) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using F = binary32;
    using S = std::uint32_t;
    using C = code_t<E>;
    namespace qc = quantize_check;
    scaling_report r = qc::report_of<F, E>(p);
    if (qc::say_cannot_declare<E>(r, p)) return r;
    r.exhaustive = true;
    r.domain = std::string(qc::every_binary32_domain);
    const qc::oracle_steps<E> steps(p);
    const auto view = steps.view();
    const float* value = qc::element_values<E>().data();
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    constexpr std::uint64_t chunk = std::uint64_t(1) << 22;  // magnitudes: 2^23 codes a buffer
    qc::findings<S, C> total;
    std::deque<std::future<qc::findings<S, C>>> running;
    C previous[2] = {0, 0};  // the last magnitude's codes, the next chunk's warm-up
    for (std::uint64_t a = 0; a < (std::uint64_t(1) << 31); a += chunk) {
        // [0], [1]: magnitude a - 1's codes (+, -); then magnitude m's at 2 + 2 (m - a) + sign.
        auto codes = std::make_shared<std::vector<C>>(2 * chunk + 2);
        (*codes)[0] = previous[0], (*codes)[1] = previous[1];
        std::uint64_t have = 0;
        while (have < 2 * chunk) {
            const std::uint64_t got = read(codes->data() + 2 + have, 2 * chunk - have);
            if (got == 0) break;
            have += got;
        }
        if (have < 2 * chunk)
            throw input_error("the codes ended after " + std::to_string(2 * a + have) + " of the 2^32 inputs (every binary32 pattern)");
        previous[0] = (*codes)[2 * chunk], previous[1] = (*codes)[2 * chunk + 1];
        running.push_back(std::async(std::launch::async, [codes, a, view, value] {
            qc::findings<S, C> f;
            qc::judge_codes<E>(f, view, value, codes->data(), a, a + chunk - 1);
            return f;
        }));
        if (running.size() >= threads) {
            total.merge(running.front().get());
            running.pop_front();
        }
    }
    for (auto& f : running) total.merge(f.get());
    qc::conclude<F, E>(r, total);
    return r;
}

template <quantizer_subject X>
scaling_report check_quantizer(const scaling_options& o = {}) {
    return check_quantizer_of<typename X::format, typename X::element>(
        X::declared, [](typename X::format::storage x) { return code_t<typename X::element>(X::quantize(x)); }, o);
}

}  // namespace flipcheck
