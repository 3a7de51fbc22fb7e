// Exhaustive reducer checks over a byte format (minifloat.hpp): every array of n codes, n = 0..3,
// against the oracle. Every order of every triple is itself one of the triples, so "every order"
// comes free. Host only; the GPU runs the same enumeration in gpu/exhaustive.cuh.
//
// The oracle is oracle.hpp's own fold, with its one step memoized: arg_reduce walks an array
// keeping the best index so far and moves it to element i when
//   beats(x_i, best) || (ties = highest_index && ties(x_i, best)),
// which over a byte format has at most 2^16 cases per (policy, op). The table holds that step, so
// a triple costs two lookups and the fold is the oracle's, step for step (exhaustive_test checks
// the two agree on every pair and triple of a format).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/packed_reducer.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck {

// The codes of a byte format: 0 .. 2^value_bits - 1 (codes with unused bits set are not the format's).
template <format F>
inline constexpr unsigned code_count = unsigned(F::value_mask) + 1;

// Which policies a format gives distinct meanings to: every NaN policy where the format has NaNs
// (without them all four are one), both zero policies where it has a -0, every tie policy for an
// arg reducer.
template <format F>
std::vector<policy> policies_for(bool arg) {
    std::vector<policy> out;
    const std::vector<nan_policy> nans = F::nans == nan_encoding::none
                                             ? std::vector<nan_policy>{nan_policy::total_order}
                                             : std::vector<nan_policy>{nan_policy::total_order, nan_policy::propagate,
                                                                       nan_policy::ignore, nan_policy::undefined};
    const std::vector<zero_policy> zeros = F::has_negative_zero ? std::vector<zero_policy>{zero_policy::ordered, zero_policy::equal}
                                                                : std::vector<zero_policy>{zero_policy::ordered};
    const std::vector<tie_policy> ties = arg ? std::vector<tie_policy>{tie_policy::lowest_index, tie_policy::highest_index, tie_policy::any}
                                             : std::vector<tie_policy>{tie_policy::any};
    for (nan_policy n : nans)
        for (zero_policy z : zeros)
            for (tie_policy t : ties) out.push_back({n, z, t});
    return out;
}

template <format F>
class byte_oracle {
    static_assert(F::width <= 8, "byte_oracle memoizes the oracle's step over a byte format's codes");
    using S = typename F::storage;
    static constexpr unsigned count = code_count<F>;

public:
    byte_oracle(policy p, reduce_op op) : p_(p), op_(op), replace_(count * count) {
        for (unsigned b = 0; b < count; ++b)
            for (unsigned x = 0; x < count; ++x) {
                const auto vb = F::to_value(S(b)), vx = F::to_value(S(x));
                replace_[b * count + x] = oracle::beats(p, op, vx, vb) ||
                                          (p.ties == tie_policy::highest_index && oracle::ties(p, op, vx, vb));
            }
        for (unsigned b = 0; b < count; ++b) nan_[b] = oracle::isnan(F::to_value(S(b)));
    }

    // oracle::arg_reduce<F>: the index the policy demands, or oracle::npos.
    std::size_t best(std::span<const S> xs) const noexcept {
        if (xs.empty()) return oracle::npos;
        std::size_t best = 0;
        for (std::size_t i = 1; i < xs.size(); ++i)
            if (replace_[unsigned(xs[best]) * count + xs[i]]) best = i;
        if (p_.nan == nan_policy::ignore && nan_[xs[best]]) return oracle::npos;
        return best;
    }
    bool any_nan(std::span<const S> xs) const noexcept {
        for (S x : xs)
            if (nan_[x]) return true;
        return false;
    }
    // reducer_laws<F>::expect / expect_arg, through the table.
    typename reducer_laws<F>::expectation expect(std::span<const S> xs) const {
        if (p_.nan == nan_policy::undefined && any_nan(xs)) return {false, std::nullopt};
        if (xs.empty()) return {true, std::nullopt};
        const std::size_t i = best(xs);
        return {true, xs[i == oracle::npos ? 0 : i]};
    }
    typename reducer_laws<F>::arg_expectation expect_arg(std::span<const S> xs) const {
        if (p_.nan == nan_policy::undefined && any_nan(xs)) return {false, std::nullopt};
        const std::size_t i = best(xs);
        if (i == oracle::npos) return {true, std::nullopt};
        return {true, i};
    }
    policy declared() const noexcept { return p_; }
    reduce_op op() const noexcept { return op_; }

private:
    policy p_;
    reduce_op op_;
    std::vector<std::uint8_t> replace_;
    std::array<bool, 256> nan_{};
};

// What one exhaustive check found: how many arrays, how many wrong, and the first wrong one in
// enumeration order (the lexicographically smallest: arrays of n codes, first element most
// significant) with its counterexample.
template <format F>
struct exhaustive_findings {
    std::uint64_t arrays = 0, failures = 0;
    std::vector<typename F::storage> input;  // the first failing array
    std::optional<counterexample> first;
    bool passed() const noexcept { return failures == 0; }
};

// Runs `run` (span of codes -> std::optional<bits> for a value reducer, std::optional<size_t> for an
// arg reducer) on every array of `length` codes and judges each answer under o's policy. Threads
// split the first element's codes; the first failure is the smallest array whichever thread meets it.
template <format F, class Run>
exhaustive_findings<F> check_every_array(const byte_oracle<F>& o, int length, Run run, unsigned threads = 0) {
    using S = typename F::storage;
    constexpr unsigned count = code_count<F>;
    using answer = std::invoke_result_t<Run&, std::span<const S>>;
    constexpr bool arg = std::is_same_v<answer, std::optional<std::size_t>>;
    const policy p = o.declared();

    auto judge = [&](std::span<const S> xs, exhaustive_findings<F>& f) {
        ++f.arrays;
        std::optional<counterexample> c;
        if constexpr (arg) c = reducer_laws<F>::arg_agreement(p, o.op(), xs, o.expect_arg(xs), run(xs));
        else c = reducer_laws<F>::agreement(p, xs, o.expect(xs), run(xs));
        if (!c) return;
        if (f.failures++ == 0) {
            f.first = c;
            f.input.assign(xs.begin(), xs.end());
        }
    };
    if (length < 0 || length > 3) throw std::invalid_argument("check_every_array: arrays of 0 to 3 codes");
    if (length == 0) {
        exhaustive_findings<F> f;
        judge({}, f);
        return f;
    }
    const unsigned n_threads = std::max(1u, std::min(threads ? threads : std::thread::hardware_concurrency(), count));
    std::vector<exhaustive_findings<F>> parts(count);  // one per first element, merged in order
    auto work = [&](unsigned t) {
        // On the heap: GCC's -Warray-bounds cannot see that a fold of `length` <= 3 elements
        // stays inside a 3-element stack array once pairwise_tree's recursion is inlined.
        std::vector<S> xs(3);
        for (unsigned a = t; a < count; a += n_threads) {
            xs[0] = S(a);
            const std::uint64_t rest = length == 1 ? 1 : length == 2 ? count : std::uint64_t(count) * count;
            for (std::uint64_t r = 0; r < rest; ++r) {
                if (length >= 2) xs[1] = S(length == 2 ? r : r / count);
                if (length == 3) xs[2] = S(r % count);
                judge(std::span<const S>(xs.data(), std::size_t(length)), parts[a]);
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < n_threads; ++t) pool.emplace_back(work, t);
    }
    exhaustive_findings<F> out;
    for (auto& f : parts) {
        out.arrays += f.arrays;
        if (f.failures && !out.first) {
            out.first = f.first;
            out.input = f.input;
        }
        out.failures += f.failures;
    }
    return out;
}

// ---- the registry's byte subjects ---------------------------------------------------------------

// One subject under one policy and op, over every array of a length: what the main job and the
// tests print.
struct exhaustive_row {
    std::string subject, format, policy, op;
    int length = 0;
    std::uint64_t arrays = 0, failures = 0;
    std::string counterexample;  // the first failure, described; empty when it passed
    std::string replay;          // a pair reducer's first failing array as a case (check_pair_reducer)
    bool passed() const { return failures == 0; }
};

namespace detail {
inline constexpr std::size_t in_array_order[3] = {0, 1, 2};  // replay in the array's own order
template <format F>
exhaustive_row row_of(std::string subject, policy p, reduce_op op, bool arg, int length, const exhaustive_findings<F>& f) {
    exhaustive_row r{std::move(subject), std::string(F::name), to_string(p, arg), std::string(to_string(op)), length, f.arrays,
                     f.failures, {}, {}};
    if (f.first) r.counterexample = describe_reducer_failure<F>(*f.first, f.input);
    return r;
}
}  // namespace detail

// ---- reducers of packed pairs (two fp4 codes per byte: packed_reducer.hpp) ----------------------

namespace detail {
// One array of bytes judged lane by lane (packed::agreement); the row's first failure is kept,
// described and as a case ("float4_e2m1fnx2: 0x21,0x0f") that parse_case reads back.
template <format F, class Reduce>
void judge_pairs(exhaustive_row& r, policy p, reduce_op op, std::span<const std::uint8_t> in, Reduce& reduce) {
    using pair = packed_pair<F>;
    const std::optional<std::uint8_t> got = reduce(in);
    ++r.arrays;
    if (auto c = packed::agreement<F>(p, op, in, got); c && r.failures++ == 0) {
        std::vector<std::uint8_t> lane;
        for (std::uint8_t x : in) lane.push_back(pair::lane(x, int(c->lane)));
        r.replay = std::string(pair::name) + ": " + bits_list<pair>(in);
        std::string bytes;
        for (std::uint8_t x : in) bytes += (bytes.empty() ? "" : ", ") + hex(x, 8);
        r.counterexample = "bytes [" + bytes + "] -> " + (got ? hex(*got, 8) : std::string("nothing")) + ": lane " +
                           std::to_string(c->lane) + " " + describe_reducer_failure<F>(*c, lane);
    }
}
}  // namespace detail

// A reducer of packed pairs of F's codes (reduce: bytes -> the answer byte, or nothing) under
// policy p and op, each lane judged by its own oracle: on every array of `length` bytes, or, with
// `only`, on that array alone.
template <format F, class Reduce>
exhaustive_row check_pair_arrays(std::string subject, policy p, reduce_op op, int length, Reduce&& reduce,
                                 std::optional<std::span<const std::uint8_t>> only = std::nullopt) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    exhaustive_row r{std::move(subject), std::string(packed_pair<F>::name), to_string(p, false), std::string(to_string(op)),
                     only ? int(only->size()) : length, 0, 0, {}, {}};
    if (only) {
        detail::judge_pairs<F>(r, p, op, *only, reduce);
        return r;
    }
    std::vector<std::uint8_t> xs(std::size_t(std::max(length, 0)));  // on the heap, as in check_every_array
    const std::uint64_t total = std::uint64_t(1) << (8 * length);
    for (std::uint64_t t = 0; t < total; ++t) {
        // Bounded by the vector's own size: bounded by `length`, GCC 12 warned of a write past it.
        for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::uint8_t(t >> (8 * (xs.size() - 1 - i)));
        detail::judge_pairs<F>(r, p, op, std::span<const std::uint8_t>(xs), reduce);
    }
    return r;
}

// A registry entry of packed-pair reducers (registry::pair_reducers, their mutants) on every array
// of `length` bytes.
template <class E>
exhaustive_row check_pair_reducer(reduce_op op, int length) {
    using F = typename E::format;
    using Max = typename E::template on<F, reduce_op::max>;
    using Min = typename E::template on<F, reduce_op::min>;
    return check_pair_arrays<F>(std::string(E::name), Max::declared, op, length,
                                [op](std::span<const std::uint8_t> in) { return op == reduce_op::max ? Max::reduce(in) : Min::reduce(in); });
}

// Your reducer of packed pairs (packed::pair_reducer_function: NVFP4/MXFP4 code that reduces two
// fp4 per byte) on every array of 0 to `max_length` bytes (3: 16.8 M arrays, exhaustive), a row
// per length up to the first that fails: each lane must be the oracle's answer over that lane's
// codes under R::declared.
template <packed::pair_reducer_function R>
std::vector<exhaustive_row> check_pair_reducer(int max_length = 3) {
    std::vector<exhaustive_row> rows;
    for (int length = 0; length <= max_length && (rows.empty() || rows.back().passed()); ++length)
        rows.push_back(check_pair_arrays<typename R::format>(std::string(R::name), R::declared, R::op, length,
                                                             [](std::span<const std::uint8_t> in) { return R::reduce(in); }));
    return rows;
}

}  // namespace flipcheck
