// Auditing a sort of floats: which order does it really implement? A subject sorts a battery of
// edge arrays and random ones; the answers are judged question by question, as for reducers:
//   1. right on inputs without NaN (numbers ascending, either zero first)?
//   2. where the NaNs go: IEEE totalOrder (-NaN first, +NaN last, by payload), all last, all first;
//   3. the zeros: -0 before +0, equal but kept in input order (stable), or equal in any order.
// The named order is the strictest candidate every answer fits. A sort whose comparison makes NaN
// undefined behaviour (std::sort with <) is never run on a NaN: its NaN answer says so. Every "no"
// keeps the smallest input that shows it. Host only.
#pragma once
#include <algorithm>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/oracle.hpp"

namespace flipcheck::audit {

struct sort_subject {
    sort_subject(std::string name_, std::string library_, bool nan_undefined_, std::function<std::optional<input>(const input&)> run_,
                 std::string format_ = "binary32", std::string replay_options_ = {})
        : name(std::move(name_)), library(std::move(library_)), nan_undefined(nan_undefined_), run(std::move(run_)),
          format(std::move(format_)), replay_options(std::move(replay_options_)) {}
    std::string name, library;
    bool nan_undefined;  // NaN breaks the comparison's strict weak order: never run on one
    std::function<std::optional<input>(const input&)> run;
    std::string format;
    std::string replay_options;
    bool answers_any_input = true;  // as audit::subject's
};

struct sort_observation {
    std::string what;
    input xs;
    std::optional<input> got;  // nothing: not run (a NaN under nan_undefined)
    std::size_t shrunk_from = 0;  // the length of the input it was shrunk from (0: as the battery has it)
};

struct sort_question {
    std::string answer;
    std::vector<std::pair<std::string, sort_observation>> rejected;
};

struct sort_report {
    bool without_nan = true;
    std::optional<sort_observation> without_nan_witness;
    sort_question nan, zero;
    std::string order;  // the named order, or "none"
    std::vector<std::pair<std::string, sort_observation>> rejected;
    std::vector<sort_observation> proof;
};
using sort_verdict = sort_report;  // its earlier name, kept for code written against it

enum class nan_place { total_order, last, first, anywhere };
enum class zero_rule { ordered, stable, equal };

struct sort_candidate {
    std::string name;
    nan_place nans;
    zero_rule zeros;
};
// The questions' answers, strictest first, and the named orders.
inline std::vector<sort_candidate> sort_nan_answers() {
    return {{"totalOrder (-NaN first, +NaN last)", nan_place::total_order, zero_rule::equal},
            {"NaN last", nan_place::last, zero_rule::equal},
            {"NaN first", nan_place::first, zero_rule::equal}};
}
inline std::vector<sort_candidate> sort_zero_answers() {
    return {{"-0 before +0", nan_place::anywhere, zero_rule::ordered},
            {"equal, kept in input order (stable)", nan_place::anywhere, zero_rule::stable},
            {"equal, in any order", nan_place::anywhere, zero_rule::equal}};
}
inline std::vector<sort_candidate> sort_orders() {
    return {{"IEEE totalOrder", nan_place::total_order, zero_rule::ordered},
            {"totalOrder, but -0 and +0 equal (stable)", nan_place::total_order, zero_rule::stable},
            {"ascending, -0 < +0, NaN last", nan_place::last, zero_rule::ordered},
            {"ascending, zeros equal and stable, NaN last", nan_place::last, zero_rule::stable},
            {"ascending, zeros equal, NaN last", nan_place::last, zero_rule::equal}};
}

template <class F>
struct sort_judge {
    using S = typename F::storage;
    static bool is_nan(word x) { return F::is_nan_bits(S(x)); }
    static bool is_zero(word x) { return S(S(x) & ~F::sign_mask) == 0; }
    static bool has_nan(const input& xs) { return std::any_of(xs.begin(), xs.end(), is_nan); }
    static bool both_zeros(const input& xs) {
        return std::count(xs.begin(), xs.end(), word(F::sign_mask)) && std::count(xs.begin(), xs.end(), word(0));
    }
    // x before y in totalOrder: for IEEE binary formats, sign-magnitude order of the bits (IEEE
    // 754-2019 5.10), spelled here apart from the mappings under test.
    static S key(word x) { return F::negative(S(x)) ? S(~S(x)) : S(S(x) | F::sign_mask); }
    static bool key_less(word x, word y) { return key(x) < key(y); }

    // Does `got` sort `xs` as the rules say? NaN placement is judged only where xs holds a NaN.
    static bool fits(const input& xs, const input& got, nan_place np, zero_rule zr) {
        input a = xs, b = got;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b) return false;  // an element lost, changed or made up
        input numbers, zeros_got, zeros_in;
        for (word x : xs)
            if (is_zero(x)) zeros_in.push_back(x);
        std::size_t first_number = got.size(), last_number = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (is_nan(got[i])) continue;
            numbers.push_back(got[i]);
            if (is_zero(got[i])) zeros_got.push_back(got[i]);
            first_number = std::min(first_number, i);
            last_number = i;
        }
        for (std::size_t i = 1; i < numbers.size(); ++i) {
            const double p = double(F::to_value(S(numbers[i - 1]))), q = double(F::to_value(S(numbers[i])));
            if (q < p) return false;
            if (zr == zero_rule::ordered && key_less(numbers[i], numbers[i - 1])) return false;  // +0 before -0
        }
        if (zr == zero_rule::stable && zeros_got != zeros_in) return false;
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (!is_nan(got[i])) continue;
            const bool before = i < first_number, after = i > last_number || numbers.empty();
            switch (np) {
                case nan_place::last: if (!after) return false; break;
                case nan_place::first: if (!before && !numbers.empty()) return false; break;
                case nan_place::total_order:
                    if (F::negative(S(got[i])) ? !(before || numbers.empty()) : !after) return false;
                    break;
                case nan_place::anywhere: break;
            }
        }
        if (np == nan_place::total_order)  // NaNs of one sign in key order, among themselves
            for (std::size_t i = 1; i < got.size(); ++i)
                if (is_nan(got[i - 1]) && is_nan(got[i]) && key_less(got[i], got[i - 1])) return false;
        return true;
    }
};

// The random arrays' sizes beyond the short ones: 5000, and 300000 (several tiles, several radix
// passes) unless `largest` is below it (`flipcheck audit --quick`: a quick audit).
constexpr std::size_t largest_sort_input = 300000;

template <class F>
std::vector<named_input> sort_battery(const std::vector<made_nan>& nans = {}, std::size_t randoms = 300,
                                      std::size_t largest = largest_sort_input, std::uint64_t seed = 5) {
    using S = typename F::storage;
    const word qnan = F::quiet_nan, nqnan = S(F::quiet_nan | F::sign_mask), snan = F::signaling_nan;
    const word one = F::one, mone = S(F::one | F::sign_mask), nz = F::sign_mask, inf = F::infinity, ninf = F::lowest;
    std::vector<named_input> b{
        {"n = 0", {}},
        {"n = 1", {one}},
        {"+0 then -0", {0, nz}},
        {"-0 then +0", {nz, 0}},
        {"zeros mixed", {0, nz, 0, nz, 0}},
        {"zeros and numbers", {one, 0, mone, nz, 0, ninf, nz, inf}},
        {"+NaN among numbers", {one, qnan, mone}},
        {"-NaN among numbers", {one, nqnan, mone}},
        {"both NaNs", {qnan, one, nqnan, nz, 0, ninf}},
        {"NaN payloads", {S(qnan | 1), qnan, S(nqnan | 1), nqnan, snan, one}},
    };
    if (!nans.empty()) {
        input xs{one};
        for (const auto& m : nans) xs.push_back(m.bits);
        xs.push_back(mone);
        b.push_back({"made NaNs", xs});
    }
    std::mt19937_64 rng(seed);
    const word pool[] = {0, nz, qnan, nqnan, one, mone, inf, ninf};
    auto draw = [&](std::size_t n) {
        input xs(n);
        for (auto& x : xs) x = rng() % 3 == 0 ? pool[rng() % 8] : word(random_bits<F>(rng));
        return xs;
    };
    for (std::size_t i = 0; i < randoms; ++i) b.push_back({"random #" + std::to_string(i), draw(2 + rng() % 40)});
    // An array left out is still drawn: the others are the same arrays as in the whole battery.
    const std::size_t sizes[] = {5000, largest_sort_input};
    for (std::size_t n : sizes) {
        auto xs = draw(n);
        if (n <= largest) b.push_back({"random, n = " + std::to_string(n), std::move(xs)});
    }
    // The same without NaN: what a sort whose comparison NaN breaks is run on at scale.
    for (std::size_t n : sizes) {
        auto xs = draw(n);
        for (auto& x : xs)
            if (F::is_nan_bits(S(x))) x = rng() % 2 ? word(0) : nz;
        if (n <= largest) b.push_back({"random without NaN, n = " + std::to_string(n), std::move(xs)});
    }
    return b;
}

template <class F>
sort_report classify_sort(const std::function<std::optional<input>(const input&)>& run, bool nan_undefined,
                           const std::vector<made_nan>& nans = {}, std::size_t randoms = 300,
                           std::size_t largest = largest_sort_input) {
    using J = sort_judge<F>;
    sort_report v;
    std::vector<sort_observation> seen;
    for (auto& in : sort_battery<F>(nans, randoms, largest)) {
        const bool skip = nan_undefined && J::has_nan(in.xs);
        seen.push_back({in.what, in.xs, skip ? std::nullopt : run(in.xs)});
    }
    const auto random = [](const sort_observation& o) { return o.what.rfind("random", 0) == 0; };
    std::stable_sort(seen.begin(), seen.end(), [&](const auto& a, const auto& b) {
        return std::pair(random(a), a.xs.size()) < std::pair(random(b), b.xs.size());
    });
    auto first_unfit = [&](nan_place np, zero_rule zr, auto telling) -> std::optional<sort_observation> {
        for (const auto& o : seen)
            if (o.got && telling(o.xs) && !J::fits(o.xs, *o.got, np, zr)) return o;
        return std::nullopt;
    };
    auto ask = [&](const std::vector<sort_candidate>& cands, auto telling) {
        sort_question q;
        for (const auto& c : cands) {
            const auto bad = first_unfit(c.nans, c.zeros, telling);
            if (!bad) {
                q.answer = c.name;
                return q;
            }
            q.rejected.emplace_back(c.name, *bad);
        }
        q.answer = "none";
        return q;
    };
    const auto no_nan = [](const input& xs) { return !J::has_nan(xs); };
    v.without_nan_witness = first_unfit(nan_place::anywhere, zero_rule::equal, no_nan);
    v.without_nan = !v.without_nan_witness;
    if (nan_undefined) v.nan.answer = "not run: NaN makes the comparison undefined behaviour";
    else
        v.nan = ask(sort_nan_answers(), [](const input& xs) { return J::has_nan(xs); });
    v.zero = ask(sort_zero_answers(), [](const input& xs) { return J::both_zeros(xs); });
    const auto named = ask(sort_orders(), [](const input&) { return true; });
    v.order = named.answer;
    v.rejected = named.rejected;
    for (const auto& o : seen)
        if (o.got && (o.what == "both NaNs" || o.what == "zeros mixed" || o.what == "made NaNs")) v.proof.push_back(o);
    return v;
}

}  // namespace flipcheck::audit
