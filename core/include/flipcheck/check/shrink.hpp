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

// The smallest case reached from `c` (which must fail) by steps that keep `fails(case)` true, where
// `simpler(x)` lists the patterns to try in place of x, simplest first. They must be simpler under
// one well-founded order (as draw::simpler_bits's are), or the search ends only at `tries`.
template <format F, class Fails, class Simpler>
shrink_case<typename F::storage> shrink_toward(shrink_case<typename F::storage> c, Fails&& fails, Simpler&& simpler,
                                               shrink_limits lim = {}) {
    using S = typename F::storage;
    auto attempt = [&](shrink_case<S>&& smaller) {
        if (lim.tries == 0 || lim.elements < smaller.xs.size() || smaller.xs.empty()) return false;
        --lim.tries;
        lim.elements -= smaller.xs.size();
        if (!fails(std::as_const(smaller))) return false;
        c = std::move(smaller);
        return true;
    };
    for (bool progress = true; progress && lim.tries > 0;) {
        progress = false;
        for (std::size_t chunk = c.xs.size() / 2; chunk > 0 && !progress; chunk /= 2) {
            for (std::size_t begin = 0; begin < c.xs.size() && !progress; begin += chunk) {
                const std::size_t end = std::min(begin + chunk, c.xs.size());
                shrink_case<S> smaller;
                for (std::size_t i = 0; i < c.xs.size(); ++i)
                    if (i < begin || i >= end) smaller.xs.push_back(c.xs[i]);
                for (std::size_t i : c.order)  // the others keep their relative order
                    if (i < begin) smaller.order.push_back(i);
                    else if (i >= end) smaller.order.push_back(i - (end - begin));
                progress = attempt(std::move(smaller));
            }
        }
        for (std::size_t i = 0; i < c.xs.size() && !progress && c.xs.size() <= lim.simplify_up_to; ++i)
            for (S candidate : simpler(c.xs[i])) {
                shrink_case<S> smaller = c;
                smaller.xs[i] = candidate;
                if ((progress = attempt(std::move(smaller)))) break;
            }
    }
    return c;
}

// The same, toward draw::simpler_bits: +0, fewer mantissa bits, a smaller magnitude, + sign.
template <format F, class Fails>
shrink_case<typename F::storage> shrink(shrink_case<typename F::storage> c, Fails&& fails, shrink_limits lim = {}) {
    return shrink_toward<F>(std::move(c), std::forward<Fails>(fails), [](typename F::storage x) { return draw::simpler_bits<F>(x); }, lim);
}

// An array in array order.
template <format F, class Fails>
std::vector<typename F::storage> shrink(std::vector<typename F::storage> xs, Fails&& fails, shrink_limits lim = {}) {
    using S = typename F::storage;
    return shrink<F>(shrink_case<S>{std::move(xs), {}}, [&](const shrink_case<S>& c) { return fails(c.xs); }, lim).xs;
}

}  // namespace flipcheck
