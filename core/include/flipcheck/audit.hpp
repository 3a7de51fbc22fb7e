// Auditing a third-party reducer: which policy does it really implement? A subject is run on a
// fixed battery of edge cases (and random arrays, in every order given); each candidate policy
// is kept only while the oracle accepts every answer. The verdict is the first candidate that
// survives, and every rejected candidate keeps the input that rejected it, so each claim in the
// table is backed by a concrete input and the exact bits returned. Host only.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"

namespace flipcheck::audit {

using F = binary32;
using bits = std::uint32_t;
using input = std::vector<bits>;

struct candidate {
    std::string name;
    policy p;
};

// A reducer under audit, on the CPU or the GPU: binary32 bits in; the answer's bits (or, for an
// arg reducer, its index), or nothing where the library gives none.
struct subject {
    std::string name, library;
    reduce_op op;
    bool arg;
    std::function<std::optional<std::uint64_t>(const input&)> run;
};

// Strictest first: the verdict is the first that every answer satisfies.
inline std::vector<candidate> value_candidates() {
    return {{"totalOrder", {nan_policy::total_order, zero_policy::ordered}},
            {"IEEE maximum/minimum", {nan_policy::propagate, zero_policy::ordered}},
            {"IEEE maximumNumber/minimumNumber", {nan_policy::ignore, zero_policy::ordered}},
            {"NaN-propagating, zero sign unspecified", {nan_policy::propagate, zero_policy::equal}},
            {"fmax-like (NaN skipped, zero sign unspecified)", {nan_policy::ignore, zero_policy::equal}}};
}
inline std::vector<candidate> arg_candidates() {
    return {{"numpy arg (first NaN wins, first of ties)", {nan_policy::propagate, zero_policy::equal, tie_policy::lowest_index}},
            {"first extreme, NaN skipped", {nan_policy::ignore, zero_policy::equal, tie_policy::lowest_index}},
            {"totalOrder, first of ties", {nan_policy::total_order, zero_policy::ordered, tie_policy::lowest_index}},
            {"last extreme, NaN skipped", {nan_policy::ignore, zero_policy::equal, tie_policy::highest_index}}};
}

struct named_input {
    std::string what;
    input xs;
};

// The fixed battery: all -inf, all +inf, a NaN first/middle/last, both orders of the zeros,
// subnormals (where FTZ shows), all equal at large n (ties), n = 0 and 1, block-crossing lengths.
inline std::vector<named_input> battery() {
    const bits qnan = F::quiet_nan, ninf = F::infinity | F::sign_mask, one = F::one, two = 0x40000000u;
    const bits nzero = F::sign_mask, dmin = F::denorm_min, ndmin = F::denorm_min | F::sign_mask;
    std::vector<named_input> b{
        {"n = 0", {}},
        {"n = 1", {one}},
        {"all -inf", {ninf, ninf, ninf}},
        {"all +inf", {F::infinity, F::infinity}},
        {"NaN first", {qnan, one, two}},
        {"NaN middle", {one, qnan, two}},
        {"NaN last", {one, two, qnan}},
        {"-NaN first", {qnan | F::sign_mask, one}},
        {"all NaN", {qnan, qnan | F::sign_mask}},
        {"-0 then +0", {nzero, 0}},
        {"+0 then -0", {0, nzero}},
        {"+-denorm_min", {ndmin, dmin}},
        {"denorm_min vs +0", {0, dmin}},
        {"-denorm_min vs -0", {nzero, ndmin}},
        {"ties", {two, one, two, one}},
        {"all equal, n = 100000", input(100000, two)},
    };
    for (std::size_t n : {31u, 32u, 33u, 1023u, 1024u, 1025u, 4097u}) {
        input xs(n, one);
        xs[n - 1] = two;  // the maximum in the last block
        xs[0] = ninf;     // the minimum in the first
        b.push_back({"n = " + std::to_string(n) + ", extremes at the ends", xs});
    }
    return b;
}

inline std::vector<named_input> random_inputs(std::size_t count, std::uint64_t seed = 3) {
    std::mt19937_64 rng(seed);
    std::vector<named_input> out;
    for (std::size_t i = 0; i < count; ++i) {
        input xs(1 + rng() % 33);
        for (auto& x : xs) x = rng() % 4 == 0 && &x != xs.data() ? *(&x - 1) : random_bits<F>(rng);
        out.push_back({"random #" + std::to_string(i), xs});
    }
    return out;
}

struct observation {
    std::string what;
    input xs;
    std::optional<std::uint64_t> got;  // bits for value reducers, an index for arg reducers
};

struct verdict {
    std::string policy;  // the first surviving candidate, or "none"
    bool position_dependent = false;
    std::vector<observation> proof;      // answers that show the verdict's character
    std::vector<std::pair<std::string, observation>> rejected;  // candidate -> the input that rejected it
};

// run(xs) returns the subject's answer, or nothing when it has none (empty input).
inline verdict classify(reduce_op op, bool arg, const std::function<std::optional<std::uint64_t>(const input&)>& run,
                        std::size_t randoms = 2000) {
    verdict v;
    std::vector<observation> seen;
    auto inputs = battery();
    for (auto& r : random_inputs(randoms)) inputs.push_back(std::move(r));
    for (const auto& in : inputs) seen.push_back({in.what, in.xs, run(in.xs)});
    // Position dependence: the same multiset reversed must give the same answer (by value).
    for (const auto& o : seen) {
        if (o.xs.size() < 2 || o.xs.size() > 64) continue;
        const input rev(o.xs.rbegin(), o.xs.rend());
        const auto r = run(rev);
        if (!r || !o.got) continue;
        const bits a = arg ? o.xs[*o.got] : bits(*o.got), b = arg ? rev[*r] : bits(*r);
        const policy loosest{nan_policy::propagate, zero_policy::equal};
        if (!oracle::same_result<F>(loosest, a, b) && !(F::is_nan_bits(a) && F::is_nan_bits(b))) {
            v.position_dependent = true;
            v.proof.push_back(o);
            v.proof.push_back({o.what + ", reversed", rev, r});
            break;
        }
    }
    for (const auto& c : arg ? arg_candidates() : value_candidates()) {
        std::optional<observation> against;
        for (const auto& o : seen) {
            const bool bad = arg ? bool(reducer_laws<F>::arg_agreement(c.p, op, o.xs, o.got ? std::optional<std::size_t>(*o.got) : std::nullopt))
                                 : bool(reducer_laws<F>::agreement(c.p, op, o.xs, o.got ? std::optional<bits>(bits(*o.got)) : std::nullopt));
            if (bad) {
                against = o;
                break;
            }
        }
        if (!against) {
            if (v.policy.empty()) v.policy = c.name;
            continue;
        }
        if (v.policy.empty()) v.rejected.emplace_back(c.name, *against);
    }
    if (v.policy.empty()) v.policy = v.position_dependent ? "none (position-dependent)" : "none";
    // The telling answers: NaN placement, the zeros and the subnormals (flushed or kept).
    for (const auto& o : seen) {
        const bool telling = o.what == "NaN first" || o.what == "NaN last" || o.what == "-0 then +0" ||
                             o.what == "+0 then -0" || o.what == "all NaN" || o.what == "n = 0" ||
                             o.what == "denorm_min vs +0";
        const bool shown = std::any_of(v.proof.begin(), v.proof.end(), [&](const observation& p) { return p.what == o.what; });
        if (telling && !shown) v.proof.push_back(o);
    }
    return v;
}

}  // namespace flipcheck::audit
