// The one shrinker of every failing array a driver finds: the reducer checker's cases (with the
// order their elements are applied in), the scaling checks' arrays, the mutant zoo's. Greedy, as a
// person would: drop aligned chunks (the first half, the second, then quarters, ... single
// elements) while the case still fails, then replace one element at a time by a simpler pattern
// (draw::simpler_bits: +0 first), again while it still fails, until neither step helps. What
// survives is the counterexample a person reads.
//
// Bounded: `fails` is called at most `tries` times and is passed at most `elements` elements in
// all, so a failing array of millions of elements shrinks in bounded time, and a format whose
// simpler patterns are not well-founded (one without a sign, NaN as -0) cannot loop.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "flipcheck/check/draw.hpp"
#include "flipcheck/format.hpp"

namespace flipcheck {

// A failing input: the array, and the order its elements are applied in (a permutation of its
// indices, as check/case_text.hpp writes it), or no order: in array order.
template <class S>
struct shrink_case {
    std::vector<S> xs;
    std::vector<std::size_t> order;
};

struct shrink_limits {
    std::size_t tries = 20000;                 // calls of `fails`
    std::uint64_t elements = std::uint64_t(1) << 27;  // elements passed to it, in all
    std::size_t simplify_up_to = 4096;         // longer arrays are only made shorter
};

// Every step shrink_toward tries from `c`, in its order: each aligned chunk dropped (the halves,
// then quarters, ... single elements; the others keep their relative order), then, for an array
// of at most `simplify_up_to` elements, each element replaced by each of `simpler(x)`. `visit(step)`
// returns true to stop the listing.
template <class S, class Simpler, class Visit>
void for_each_step(const shrink_case<S>& c, Simpler&& simpler, std::size_t simplify_up_to, Visit&& visit) {
    for (std::size_t chunk = c.xs.size() / 2; chunk > 0; chunk /= 2)
        for (std::size_t begin = 0; begin < c.xs.size(); begin += chunk) {
            const std::size_t end = std::min(begin + chunk, c.xs.size());
            shrink_case<S> smaller;
            smaller.xs.reserve(c.xs.size() - (end - begin));
            for (std::size_t i = 0; i < c.xs.size(); ++i)
                if (i < begin || i >= end) smaller.xs.push_back(c.xs[i]);
            for (std::size_t i : c.order)
                if (i < begin) smaller.order.push_back(i);
                else if (i >= end) smaller.order.push_back(i - (end - begin));
            if (visit(std::move(smaller))) return;
        }
    if (c.xs.size() > simplify_up_to) return;
    for (std::size_t i = 0; i < c.xs.size(); ++i)
        for (S candidate : simpler(c.xs[i])) {
            shrink_case<S> smaller = c;
            smaller.xs[i] = candidate;
            if (visit(std::move(smaller))) return;
        }
}

// The smallest case reached from `c` (which must fail) by steps that keep `fails(case)` true, where
// `simpler(x)` lists the patterns to try in place of x, simplest first. They must be simpler under
// one well-founded order (as draw::simpler_bits's are), or the search ends only at `tries`.
template <class S, class Fails, class Simpler>
shrink_case<S> shrink_toward(shrink_case<S> c, Fails&& fails, Simpler&& simpler, shrink_limits lim = {}) {
    for (bool progress = true; progress && lim.tries > 0;) {
        progress = false;
        shrink_case<S> next;
        for_each_step(c, simpler, lim.simplify_up_to, [&](shrink_case<S>&& smaller) {
            if (lim.tries == 0) return true;
            if (lim.elements < smaller.xs.size() || smaller.xs.empty()) return false;
            --lim.tries;
            lim.elements -= smaller.xs.size();
            if (!fails(std::as_const(smaller))) return false;
            next = std::move(smaller);
            return progress = true;
        });
        if (progress) c = std::move(next);
    }
    return c;
}

// Many arrays shrunk at once, for a subject that answers in batches (an adapter process a call):
// each round lists the steps of every case still shrinking (up to `limits.elements` elements a
// round, in all, shared equally), asks `fails_many` about all of them in one call, and moves each case to its first
// failing step, the path shrink_toward takes. `fails_many(steps)` gets (case index, array) pairs and
// returns one bool a pair. At most `rounds` calls; `simpler(case index, x)` as shrink_toward's.
template <class S, class FailsMany, class Simpler>
std::vector<std::vector<S>> shrink_together(std::vector<std::vector<S>> cases, FailsMany&& fails_many, Simpler&& simpler, std::size_t rounds,
                                            shrink_limits limits = {}) {
    std::vector<bool> done(cases.size(), false);
    for (std::size_t round = 0; round < rounds; ++round) {
        std::vector<std::pair<std::size_t, std::vector<S>>> steps;
        // Each case gets an equal share of the round's elements: a long one is only made shorter in
        // coarse steps, and never starves the others.
        const auto shrinking = std::size_t(std::count(done.begin(), done.end(), false));
        const std::uint64_t share = shrinking ? limits.elements / shrinking : 0;
        for (std::size_t k = 0; k < cases.size(); ++k) {
            if (done[k]) continue;
            std::uint64_t elements = 0;
            for_each_step(shrink_case<S>{cases[k], {}}, [&](S x) { return simpler(k, x); }, limits.simplify_up_to, [&](shrink_case<S>&& smaller) {
                if (smaller.xs.empty()) return false;
                if (elements + smaller.xs.size() > share) return true;
                elements += smaller.xs.size();
                steps.emplace_back(k, std::move(smaller.xs));
                return false;
            });
        }
        if (steps.empty()) break;
        const std::vector<bool> failed = fails_many(std::as_const(steps));
        std::vector<bool> moved(cases.size(), false);
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (failed.at(i) && !moved[steps[i].first]) {
                moved[steps[i].first] = true;
                cases[steps[i].first] = steps[i].second;
            }
        for (std::size_t k = 0; k < cases.size(); ++k) done[k] = done[k] || !moved[k];
    }
    return cases;
}

// The same, toward draw::simpler_bits: +0, fewer mantissa bits, a smaller magnitude, + sign.
template <format F, class Fails>
shrink_case<typename F::storage> shrink(shrink_case<typename F::storage> c, Fails&& fails, shrink_limits lim = {}) {
    return shrink_toward(std::move(c), std::forward<Fails>(fails), [](typename F::storage x) { return draw::simpler_bits<F>(x); }, lim);
}

// An array in array order.
template <format F, class Fails>
std::vector<typename F::storage> shrink(std::vector<typename F::storage> xs, Fails&& fails, shrink_limits lim = {}) {
    using S = typename F::storage;
    return shrink<F>(shrink_case<S>{std::move(xs), {}}, [&](const shrink_case<S>& c) { return fails(c.xs); }, lim).xs;
}

}  // namespace flipcheck
