// Auditing a third-party reducer: what does it really return? A subject is run on a fixed battery
// of edge cases and on random arrays, and the answers are judged by the oracle question by question,
// in the order a user asks them:
//   1. is it right on inputs without NaN (the `undefined` NaN policy, either zero, any tie)?
//   2. which NaN policy (judged on the inputs that hold a NaN)?
//   3. which zero policy (judged where the answer is a zero and both zeros are in the input)?
//   4. which tie policy (arg reducers; judged where the extreme, not a zero, occurs twice or more)?
//   5. what it gives for n = 0 (reported, not judged: the oracle has no answer there)?
// Every "no" keeps the smallest input that proves it (the battery's named inputs before random ones,
// fewest elements first), so each claim is backed by an input and the exact bits returned. The
// battery also holds NaNs made the way backends make them (x86's 0/0 is negative, CUDA's positive):
// a key-based max keeps one and drops the other. Any IEEE-shaped format up to 64 bits; host only.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"

namespace flipcheck::audit {

using word = std::uint64_t;  // one element's bits, in the format's low bits
using input = std::vector<word>;
using answer = std::optional<std::uint64_t>;  // bits for value reducers, an index for arg reducers

// A reducer under audit, on the CPU, the GPU or through an adapter: the format's bits in; the
// answer, or nothing where the library gives none.
struct subject {
    subject(std::string name_, std::string library_, reduce_op op_, bool arg_, std::function<answer(const input&)> run_,
            std::string format_ = "binary32", std::string replay_options_ = {}, std::string empty_note_ = {})
        : name(std::move(name_)), library(std::move(library_)), op(op_), arg(arg_), run(std::move(run_)), format(std::move(format_)),
          replay_options(std::move(replay_options_)), empty_note(std::move(empty_note_)) {}
    std::string name, library;
    reduce_op op;
    bool arg;
    std::function<answer(const input&)> run;
    std::string format;
    std::string replay_options;  // what `flipcheck audit --subject` needs to find it again: "--device gpu"
    std::string empty_note;      // what n = 0 does where that is not an answer ("raises ValueError: ...")
    std::function<bool(const input&)> skip = {};  // inputs it cannot take (an adapter said so): not judged
    std::string skip_reason = {};
    bool answers_any_input = true;  // false: it answers only the cases it was asked (an adapter's), so
                                    // its witnesses are shrunk in batches (run/adapter.hpp)
};

// A NaN as a backend makes it by arithmetic (0/0), in the audited format.
struct made_nan {
    std::string maker;  // "x86", "CUDA"
    word bits;
};

struct named_input {
    std::string what;
    input xs;
};

struct observation {
    std::string what;
    input xs;
    answer got;
    std::size_t shrunk_from = 0;  // the length of the input it was shrunk from (0: as the battery has it)
};

// One question's answer, and for each answer it is not, the smallest input that shows it.
struct question {
    std::string answer;
    std::vector<std::pair<std::string, observation>> rejected;
};

// What the audit says of one reducer (the report family: sweep_report, check_report,
// scaling_report, and the audit's report, sort_report and p3008_report).
struct report {
    bool without_nan = true;
    std::optional<observation> without_nan_witness;  // the smallest NaN-free input answered wrong
    question nan, zero, ties;                         // ties: arg reducers only ("n/a" otherwise)
    observation empty;                                // what n = 0 gives
    std::string policy;  // the strictest named policy every answer (n >= 1) satisfies, or "none"
    std::vector<std::pair<std::string, observation>> rejected;  // named policy -> the input that rejected it
    bool position_dependent = false;
    std::vector<observation> proof;       // the telling answers: a reversal, NaNs, zeros, subnormals
    std::vector<observation> provenance;  // the answers on the made NaNs
    std::size_t skipped = 0;              // inputs the subject could not take (not judged)
};
using verdict = report;  // its earlier name, kept for code written against it

struct candidate {
    std::string name;
    policy p;
};

// Strictest first: the named policy is the first that every answer satisfies.
inline std::vector<candidate> value_candidates() {
    return {{"totalOrder", {nan_policy::total_order, zero_policy::ordered}},
            {"IEEE maximum/minimum", {nan_policy::propagate, zero_policy::ordered}},
            {"IEEE maximumNumber/minimumNumber", {nan_policy::ignore, zero_policy::ordered}},
            {"NaN-propagating, zero sign unspecified", {nan_policy::propagate, zero_policy::equal}},
            {"fmax-like (NaN skipped, zero sign unspecified)", {nan_policy::ignore, zero_policy::equal}}};
}
inline std::vector<candidate> arg_candidates() {
    return {{"numpy arg (first NaN wins, first of ties)", {nan_policy::propagate, zero_policy::equal, tie_policy::lowest_index}},
            {"IEEE maximum/minimum, first of ties", {nan_policy::propagate, zero_policy::ordered, tie_policy::lowest_index}},
            {"first extreme, NaN skipped", {nan_policy::ignore, zero_policy::equal, tie_policy::lowest_index}},
            {"totalOrder, first of ties", {nan_policy::total_order, zero_policy::ordered, tie_policy::lowest_index}},
            {"last extreme, NaN skipped", {nan_policy::ignore, zero_policy::equal, tie_policy::highest_index}}};
}

// The questions' answers, each a loose policy (what the others leave open stays open).
inline policy loose(nan_policy n, zero_policy z, tie_policy t = tie_policy::any) { return policy{n, z, t}; }
inline std::vector<candidate> nan_answers() {
    return {{"total_order", loose(nan_policy::total_order, zero_policy::equal)},
            {"propagate", loose(nan_policy::propagate, zero_policy::equal)},
            {"ignore", loose(nan_policy::ignore, zero_policy::equal)}};
}
inline std::vector<candidate> zero_answers() {
    return {{"ordered", loose(nan_policy::undefined, zero_policy::ordered)}, {"equal", loose(nan_policy::undefined, zero_policy::equal)}};
}
inline std::vector<candidate> tie_answers() {
    return {{"lowest_index", loose(nan_policy::undefined, zero_policy::equal, tie_policy::lowest_index)},
            {"highest_index", loose(nan_policy::undefined, zero_policy::equal, tie_policy::highest_index)},
            {"any", loose(nan_policy::undefined, zero_policy::equal)}};
}
// Right without NaN: either zero, any tie.
inline policy without_nan_policy() { return loose(nan_policy::undefined, zero_policy::equal); }

// The fixed battery: n = 0 and 1, all -inf, all +inf, a NaN first/middle/last, both orders of the
// zeros, subnormals (where FTZ shows), ties, made NaNs, block-crossing lengths.
template <class F>
std::vector<named_input> battery(const std::vector<made_nan>& nans = {}) {
    using S = typename F::storage;
    const word qnan = F::quiet_nan, nqnan = S(F::quiet_nan | F::sign_mask), ninf = F::lowest, inf = F::infinity;
    const word one = F::one, two = S(F::one + F::min_normal), nzero = F::sign_mask, dmin = F::denorm_min;
    const word ndmin = S(F::denorm_min | F::sign_mask);
    std::vector<named_input> b{
        {"n = 0", {}},
        {"n = 1", {one}},
        {"all -inf", {ninf, ninf, ninf}},
        {"all +inf", {inf, inf}},
        {"NaN first", {qnan, one, two}},
        {"NaN middle", {one, qnan, two}},
        {"NaN last", {one, two, qnan}},
        {"-NaN first", {nqnan, one}},
        {"all NaN", {qnan, nqnan}},
        {"-0 then +0", {nzero, 0}},
        {"+0 then -0", {0, nzero}},
        {"-0, +0, -0", {nzero, 0, nzero}},
        {"+0, -0, +0", {0, nzero, 0}},
        {"+-denorm_min", {ndmin, dmin}},
        {"denorm_min vs +0", {0, dmin}},
        {"-denorm_min vs -0", {nzero, ndmin}},
        {"ties", {two, one, two, one}},
        {"all equal, n = 100000", input(100000, two)},
    };
    for (const auto& m : nans) {
        b.push_back({m.maker + " NaN first", {m.bits, one}});
        b.push_back({m.maker + " NaN last", {one, m.bits}});
    }
    for (std::size_t i = 0; i < nans.size(); ++i)
        for (std::size_t j = 0; j < nans.size(); ++j)
            if (i != j && nans[i].bits != nans[j].bits)
                b.push_back({nans[i].maker + " NaN then " + nans[j].maker + " NaN", {nans[i].bits, nans[j].bits}});
    for (std::size_t n : {31u, 32u, 33u, 1023u, 1024u, 1025u, 4097u}) {
        input xs(n, one);
        xs[n - 1] = two;  // the maximum in the last block
        xs[0] = ninf;     // the minimum in the first
        b.push_back({"n = " + std::to_string(n) + ", extremes at the ends", xs});
    }
    return b;
}

template <class F>
std::vector<named_input> random_inputs(std::size_t count, std::uint64_t seed = 3) {
    std::mt19937_64 rng(seed);
    std::vector<named_input> out;
    for (std::size_t i = 0; i < count; ++i) {
        input xs(1 + rng() % 33);
        for (std::size_t k = 0; k < xs.size(); ++k)  // a quarter repeat their neighbour: ties
            xs[k] = k && rng() % 4 == 0 ? xs[k - 1] : word(random_bits<F>(rng));
        out.push_back({"random #" + std::to_string(i), xs});
    }
    return out;
}

template <class F>
struct judge {
    using S = typename F::storage;
    reduce_op op;
    bool arg;

    static std::vector<S> narrow(const input& xs) { return {xs.begin(), xs.end()}; }
    static bool has_nan(const input& xs) {
        return std::any_of(xs.begin(), xs.end(), [](word x) { return F::is_nan_bits(S(x)); });
    }
    bool wrong(policy p, const observation& o) const {
        const auto xs = narrow(o.xs);
        if (arg)
            return bool(reducer_laws<F>::arg_agreement(p, op, xs, o.got ? std::optional<std::size_t>(*o.got) : std::nullopt));
        return bool(reducer_laws<F>::agreement(p, op, xs, o.got ? std::optional<S>(S(*o.got)) : std::nullopt));
    }
    // The extreme under zero=equal with no NaN, and how often its bits occur.
    std::pair<S, std::size_t> extreme(const input& xs) const {
        const auto s = narrow(xs);
        const S e = *oracle::reduce<F>({nan_policy::ignore, zero_policy::ordered}, op, std::span<const S>(s));
        return {e, std::size_t(std::count(s.begin(), s.end(), e))};
    }
    static bool is_zero(S b) { return S(b & ~F::sign_mask) == 0; }
    // Both zeros in the input, and the answer (zeros ordered) is one of them: where a zero policy shows.
    bool zero_telling(const input& xs) const {
        if (has_nan(xs)) return false;
        const bool neg = std::count(xs.begin(), xs.end(), word(F::sign_mask)) > 0, pos = std::count(xs.begin(), xs.end(), word(0)) > 0;
        return neg && pos && is_zero(extreme(xs).first);
    }
    // The extreme, not a zero, at two indexes or more: where a tie policy shows.
    bool tie_telling(const input& xs) const {
        if (has_nan(xs)) return false;
        const auto [e, count] = extreme(xs);
        return !is_zero(e) && count >= 2;
    }

    // The first candidate every telling answer satisfies; the others before it keep their witness.
    template <class Telling>
    question ask(const std::vector<observation>& seen, const std::vector<candidate>& candidates, Telling telling) const {
        question q;
        for (const auto& c : candidates) {
            const auto bad = std::find_if(seen.begin(), seen.end(), [&](const observation& o) { return telling(o.xs) && wrong(c.p, o); });
            if (bad == seen.end()) {
                q.answer = c.name;
                return q;
            }
            q.rejected.emplace_back(c.name, *bad);
        }
        q.answer = "none";
        return q;
    }
};

// run(xs) returns the subject's answer, or nothing when it has none (empty input).
// skip(xs), where given, leaves out the inputs the subject cannot take (an adapter's framework that
// said so); they are counted in `skipped`, never judged.
template <class F>
report classify(reduce_op op, bool arg, const std::function<answer(const input&)>& run, std::size_t randoms = 2000,
                 const std::vector<made_nan>& nans = {}, const std::function<bool(const input&)>& skip = {}) {
    const judge<F> j{op, arg};
    report v;
    std::vector<observation> seen;  // n >= 1, fewest elements first
    auto inputs = battery<F>(nans);
    for (auto& r : random_inputs<F>(randoms)) inputs.push_back(std::move(r));
    for (const auto& in : inputs) {
        if (skip && skip(in.xs)) {
            ++v.skipped;
            continue;
        }
        observation o{in.what, in.xs, run(in.xs)};
        if (in.xs.empty()) v.empty = std::move(o);
        else seen.push_back(std::move(o));
    }
    // The battery's named inputs before the random ones (they read better), fewest elements first.
    const auto random = [](const observation& o) { return o.what.rfind("random #", 0) == 0; };
    std::stable_sort(seen.begin(), seen.end(), [&](const observation& a, const observation& b) {
        return std::pair(random(a), a.xs.size()) < std::pair(random(b), b.xs.size());
    });

    // 1. Without NaN.
    for (const auto& o : seen)
        if (!judge<F>::has_nan(o.xs) && j.wrong(without_nan_policy(), o)) {
            v.without_nan = false;
            v.without_nan_witness = o;
            break;
        }
    // 2-4. NaN, zero and tie policies, each on the inputs that tell it.
    v.nan = j.ask(seen, nan_answers(), [](const input& xs) { return judge<F>::has_nan(xs); });
    v.zero = j.ask(seen, zero_answers(), [&](const input& xs) { return j.zero_telling(xs); });
    if (arg) v.ties = j.ask(seen, tie_answers(), [&](const input& xs) { return j.tie_telling(xs); });
    else v.ties.answer = "n/a";
    // The named policy, strictest first.
    const auto named = j.ask(seen, arg ? arg_candidates() : value_candidates(), [](const input&) { return true; });
    v.policy = named.answer;
    v.rejected = named.rejected;

    // Position dependence: the same multiset reversed must give the same answer (by value).
    using S = typename F::storage;
    for (const auto& o : seen) {
        if (o.xs.size() < 2 || o.xs.size() > 64 || !o.got) continue;
        const input rev(o.xs.rbegin(), o.xs.rend());
        const auto r = run(rev);
        if (!r) continue;
        const S a = S(arg ? o.xs[*o.got] : *o.got), b = S(arg ? rev[*r] : *r);
        const policy loosest{nan_policy::propagate, zero_policy::equal};
        if (!oracle::same_result<F>(loosest, a, b) && !(F::is_nan_bits(a) && F::is_nan_bits(b))) {
            v.position_dependent = true;
            v.proof.push_back(o);
            v.proof.push_back({o.what + ", reversed", rev, r});
            break;
        }
    }
    if (v.policy == "none" && v.position_dependent) v.policy = "none (position-dependent)";
    for (const auto& o : seen) {
        const bool telling = o.what == "NaN first" || o.what == "NaN last" || o.what == "-0 then +0" ||
                             o.what == "+0 then -0" || o.what == "all NaN" || o.what == "denorm_min vs +0";
        const bool shown = std::any_of(v.proof.begin(), v.proof.end(), [&](const observation& p) { return p.what == o.what; });
        if (telling && !shown) v.proof.push_back(o);
        for (const auto& m : nans)
            if (o.what.rfind(m.maker + " NaN", 0) == 0) {
                v.provenance.push_back(o);
                break;
            }
    }
    return v;
}

}  // namespace flipcheck::audit
