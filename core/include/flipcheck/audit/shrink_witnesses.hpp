// Shrinking the audit's witnesses. Each "no" the audit keeps (the input answered wrong without NaN,
// a question's rejected answer, a named policy or order it rejects) is shrunk with the one shrinker
// (check/shrink.hpp) while the subject's answer still shows the same disagreement: wrong for the
// rejected policy, on an input that still tells the question (still holds a NaN, still both zeros,
// still a tie), and the subject still answers it (an input a framework skips shows nothing). Elements are made simpler only toward the battery's values (+0, 1, -0, -1, 2, inf,
// -inf, NaN, -NaN, denorm_min), so a shrunk witness reads like the battery: a 33-element random
// array becomes the two or three elements that matter. The battery's own position-dependence and
// provenance proofs are not shrunk (they are pairs of runs, or about a NaN's maker).
//
// A subject that answers any input at once (C++, CUDA, a shader) shrinks one witness at a time; an
// adapter's framework (a process a call) shrinks all its witnesses together, a call a round.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/audit/sort.hpp"
#include "flipcheck/check/shrink.hpp"

namespace flipcheck::audit {

// The battery's values, simplest first.
template <class F>
std::vector<word> battery_values() {
    using S = typename F::storage;
    return {word(0),        F::one,      F::sign_mask,        S(F::one | F::sign_mask), S(F::one + F::min_normal),
            F::infinity,    F::lowest,   F::quiet_nan,        S(F::quiet_nan | F::sign_mask),
            F::denorm_min,  S(F::denorm_min | F::sign_mask)};
}
// What may replace x: the battery's values simpler than x (all of them for a value not in it).
template <class F>
std::vector<word> simpler_in_battery(word x) {
    const auto v = battery_values<F>();
    return {v.begin(), std::find(v.begin(), v.end(), x)};
}

// The battery's named inputs of a few elements are their own best witness (their name says what
// they show, and shrinking would only trade 1 for +0); random and longer ones are shrunk.
template <class Observation>
bool worth_shrinking(const Observation& o) {
    return o.what.rfind("random", 0) == 0 || o.xs.size() > 4;
}

// A witness in a report, and the disagreement it is kept for.
template <class Observation>
struct witness {
    Observation* at;
    std::function<bool(const Observation&)> shows;
    std::function<std::vector<word>(word)> simpler;
};

template <class F>
std::vector<witness<observation>> witnesses(report& v, reduce_op op, bool arg) {
    const judge<F> j{op, arg};
    std::vector<witness<observation>> out;
    const auto add = [&](observation& o, policy p, std::function<bool(const input&)> telling) {
        if (worth_shrinking(o)) out.push_back({&o, [j, p, telling](const observation& w) { return w.got && telling(w.xs) && j.wrong(p, w); }, &simpler_in_battery<F>});
    };
    const auto rejected = [&](std::vector<std::pair<std::string, observation>>& list, const std::vector<candidate>& answers,
                              const std::function<bool(const input&)>& telling) {
        for (auto& [name, o] : list)
            for (const auto& c : answers)
                if (c.name == name) add(o, c.p, telling);
    };
    const auto no_nan = [](const input& xs) { return !judge<F>::has_nan(xs); };
    if (v.without_nan_witness) add(*v.without_nan_witness, without_nan_policy(), no_nan);
    rejected(v.nan.rejected, nan_answers(), &judge<F>::has_nan);
    rejected(v.zero.rejected, zero_answers(), [j](const input& xs) { return j.zero_telling(xs); });
    if (arg) rejected(v.ties.rejected, tie_answers(), [j](const input& xs) { return j.tie_telling(xs); });
    rejected(v.rejected, arg ? arg_candidates() : value_candidates(), [](const input&) { return true; });
    return out;
}

template <class F>
std::vector<witness<sort_observation>> witnesses(sort_report& v) {
    using J = sort_judge<F>;
    std::vector<witness<sort_observation>> out;
    const auto add = [&](sort_observation& o, nan_place np, zero_rule zr, std::function<bool(const input&)> telling) {
        if (worth_shrinking(o)) out.push_back({&o, [np, zr, telling](const sort_observation& w) { return w.got && telling(w.xs) && !J::fits(w.xs, *w.got, np, zr); },
                       &simpler_in_battery<F>});
    };
    const auto rejected = [&](std::vector<std::pair<std::string, sort_observation>>& list, const std::vector<sort_candidate>& answers,
                              const std::function<bool(const input&)>& telling) {
        for (auto& [name, o] : list)
            for (const auto& c : answers)
                if (c.name == name) add(o, c.nans, c.zeros, telling);
    };
    if (v.without_nan_witness)
        add(*v.without_nan_witness, nan_place::anywhere, zero_rule::equal, [](const input& xs) { return !J::has_nan(xs); });
    rejected(v.nan.rejected, sort_nan_answers(), &J::has_nan);
    rejected(v.zero.rejected, sort_zero_answers(), &J::both_zeros);
    rejected(v.rejected, sort_orders(), [](const input&) { return true; });
    return out;
}

// The limits of an in-process shrink: a GPU subject's run is a launch and two copies.
inline shrink_limits witness_limits() { return {.tries = 3000, .elements = std::uint64_t(1) << 26, .simplify_up_to = 256}; }

// Rewrites the witness with the smaller input, its answer, and where it came from.
template <class Observation>
void shrunk_to(Observation& o, Observation&& small) {
    if (small.xs.size() == o.xs.size() && small.xs == o.xs) return;
    small.what = o.what;
    small.shrunk_from = o.shrunk_from ? o.shrunk_from : o.xs.size();
    o = std::move(small);
}

// One witness at a time: `run(xs)` answers any input (an observation's `got`).
template <class Observation, class Run>
void shrink_witnesses(std::vector<witness<Observation>>& ws, Run&& run, shrink_limits lim = witness_limits()) {
    using S = word;
    for (auto& w : ws) {
        const auto fails = [&](const shrink_case<S>& c) { return w.shows(Observation{w.at->what, c.xs, run(c.xs)}); };
        auto small = shrink_toward(shrink_case<S>{w.at->xs, {}}, fails, w.simpler, lim).xs;
        auto got = run(small);
        shrunk_to(*w.at, Observation{w.at->what, std::move(small), std::move(got)});
    }
}

// All at once: `run_many(steps)` answers a batch of (witness index, input) pairs (one adapter call),
// with `rounds` calls at most, none begun once `go_on()` says no, and one more for the shrunk
// witnesses' own answers.
template <class Observation, class RunMany, class GoOn>
void shrink_witnesses_together(std::vector<witness<Observation>>& ws, RunMany&& run_many, std::size_t rounds, GoOn&& go_on,
                               shrink_limits lim = {.tries = 0, .elements = std::uint64_t(1) << 20, .simplify_up_to = 64}) {
    if (ws.empty()) return;
    std::vector<input> starts;
    for (const auto& w : ws) starts.push_back(w.at->xs);
    const auto fails_many = [&](const std::vector<std::pair<std::size_t, input>>& steps) {
        std::vector<bool> out;
        if (!go_on()) return std::vector<bool>(steps.size(), false);  // every case ends where it is
        const auto got = run_many(steps);
        for (std::size_t i = 0; i < steps.size(); ++i) out.push_back(ws[steps[i].first].shows(Observation{{}, steps[i].second, got.at(i)}));
        return out;
    };
    const auto small = shrink_together(std::move(starts), fails_many, [&](std::size_t k, word x) { return ws[k].simpler(x); }, rounds, lim);
    std::vector<std::pair<std::size_t, input>> changed;
    for (std::size_t k = 0; k < ws.size(); ++k)
        if (small[k] != ws[k].at->xs) changed.emplace_back(k, small[k]);
    if (changed.empty()) return;
    const auto got = run_many(changed);
    for (std::size_t i = 0; i < changed.size(); ++i) {
        auto& w = ws[changed[i].first];
        Observation small{w.at->what, changed[i].second, got.at(i)};
        // Asked again, a framework may answer otherwise (or not at all): a witness is rewritten
        // only with an answer that still shows its disagreement.
        if (w.shows(small)) shrunk_to(*w.at, std::move(small));
    }
}

}  // namespace flipcheck::audit
