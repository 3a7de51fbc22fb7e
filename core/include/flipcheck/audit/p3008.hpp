// P3008 conformance: an oracle that accepts a *set* of results. P3008R6 relaxes some of its atomic
// floating-point operations, so no single expected value exists for them:
//   fetch_max / fetch_min      where an operand is a NaN the stored value may be either operand or
//                              an unspecified NaN; the sign of a zero result is unspecified (either
//                              zero when both are zeros); otherwise the larger (smaller) value;
//   fetch_fmaximum / fminimum  IEEE maximum/minimum: a quiet NaN where an operand is a NaN; -0 < +0;
//   fetch_fmaximum_num / ..    IEEE maximumNumber/minimumNumber: the number where one operand is a
//                              NaN, a quiet NaN where both are; -0 < +0.
// Every operation returns the value held before it, exactly. A subject applies one operation to
// pairs (old value, operand), one fresh object per pair; each pair's result is checked against the
// permitted set, and the answers on the telling pairs (a NaN either side, the zeros) are kept to
// show which latitude the subject takes. Host only.
#pragma once
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/p3008.hpp"

namespace flipcheck::audit {

struct fetch_result {
    word returned, stored;
};
using fetch_pair = std::pair<word, word>;  // (the object's old value, the operand)

struct p3008_subject {
    p3008_subject(std::string name_, std::string library_, p3008::operation kind_,
                  std::function<std::vector<fetch_result>(const std::vector<fetch_pair>&)> run_, std::string format_ = "binary32",
                  std::string replay_options_ = {})
        : name(std::move(name_)), library(std::move(library_)), kind(kind_), run(std::move(run_)), format(std::move(format_)),
          replay_options(std::move(replay_options_)) {}
    std::string name, library;
    p3008::operation kind;
    std::function<std::vector<fetch_result>(const std::vector<fetch_pair>&)> run;
    std::string format;
    std::string replay_options;
};

struct fetch_observation {
    fetch_pair in;
    fetch_result got;
    std::string permitted;  // what P3008 allows there, in words
};

struct p3008_report {
    std::size_t pairs = 0, random_pairs = 0;
    std::optional<fetch_observation> violation;  // the first pair outside the permitted set
    std::vector<fetch_observation> telling;      // old NaN with operand 1, old 1 with operand NaN, old -0 with operand +0
};
using p3008_verdict = p3008_report;  // its earlier name, kept for code written against it

template <class F>
struct p3008_oracle {
    using S = typename F::storage;
    static bool nan(S x) { return F::is_nan_bits(x); }
    static bool quiet(S x) { return nan(x) && (x & F::quiet_bit); }
    static bool zero(S x) { return S(x & ~F::sign_mask) == 0; }
    static S key(S x) { return F::negative(x) ? S(~x) : S(x | F::sign_mask); }  // totalOrder (IEEE 5.10)

    // Is `stored` a permitted result of kind k on (old, v)? `why` gets the permitted set in words.
    static bool permitted(p3008::operation k, S old, S v, S stored, std::string& why) {
        const bool max = p3008::op_of(k) == reduce_op::max;
        const bool relaxed = k == p3008::operation::max || k == p3008::operation::min;
        const bool number = k == p3008::operation::fmaximum_num || k == p3008::operation::fminimum_num;
        if (nan(old) || nan(v)) {
            if (relaxed) {
                why = "either operand or any NaN";
                return nan(stored) || stored == old || stored == v;
            }
            if (number && !(nan(old) && nan(v))) {
                why = "the number";
                return stored == (nan(old) ? v : old);
            }
            why = "a quiet NaN";
            return quiet(stored);
        }
        if (zero(old) && zero(v) && old != v) {
            if (relaxed) {
                why = "either zero";
                return zero(stored);
            }
            why = max ? "+0" : "-0";
            return stored == (max ? S(0) : F::sign_mask);
        }
        const S want = (key(v) > key(old)) == max ? v : old;
        why = "the " + std::string(max ? "larger" : "smaller");
        return stored == want;
    }
};

// Every pair of edge values, then random pairs.
template <class F>
std::vector<fetch_pair> p3008_pairs(std::size_t randoms, std::uint64_t seed = 11) {
    const auto edges = edge_values<F>();
    std::vector<fetch_pair> out;
    for (auto a : edges)
        for (auto b : edges) out.emplace_back(a, b);
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < randoms; ++i) out.emplace_back(random_bits<F>(rng), random_bits<F>(rng));
    return out;
}

template <class F>
p3008_report judge_p3008(p3008::operation k, const std::vector<fetch_pair>& pairs, const std::vector<fetch_result>& got, std::size_t randoms) {
    using O = p3008_oracle<F>;
    using S = typename F::storage;
    p3008_report v;
    v.pairs = pairs.size();
    v.random_pairs = randoms;
    std::optional<fetch_observation> nan_old, nan_operand, zeros;  // the telling pairs, in this order
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const S old = S(pairs[i].first), x = S(pairs[i].second);
        std::string why;
        const bool stored_ok = O::permitted(k, old, x, S(got[i].stored), why);
        const bool returned_ok = got[i].returned == pairs[i].first;
        if (!returned_ok) why = "the old value returned exactly";
        const fetch_observation o{pairs[i], got[i], why};
        if ((!stored_ok || !returned_ok) && !v.violation) v.violation = o;
        if (old == F::quiet_nan && x == F::one && !nan_old) nan_old = o;
        if (old == F::one && x == F::quiet_nan && !nan_operand) nan_operand = o;
        if (old == F::sign_mask && x == 0 && !zeros) zeros = o;
    }
    for (const auto& o : {nan_old, nan_operand, zeros})
        if (o) v.telling.push_back(*o);
    return v;
}

}  // namespace flipcheck::audit
