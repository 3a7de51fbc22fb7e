// Checking a user's own code: a reducer function, an argmax/argmin function or an atomic strategy,
// each to an exact verdict with a minimal counterexample (a mapping: check/mappings.hpp). Host only; no RapidCheck
// (flipcheck/rapidcheck.hpp adds RapidCheck's stage and the GoogleTest macros on top of this).
//
// A reducer is judged by reducer_laws against the oracle under the policy it declares, in stages
// that stop at the first failure:
//   edge_battery        n = 0, then every singleton, ordered pair and ordered triple of the
//                       format's edge values (edge_values.hpp): 75k arrays for binary32. Exhaustive
//                       over that set, so it does not depend on a seed.
//   random_arrays       draw.hpp's arrays (ties, NaN first/last/middle, all -inf, all NaN, +-0, lengths
//                       around 32 and 1024), seeded: sampled.
//   order_independence  the same multisets again, reversed, rotated and shuffled; for a value
//                       reducer also split in two: f({f(a), f(b)}) must be the oracle's answer for a ++ b.
//   large_arrays        2^20 elements and neighbours of it: the winner tied at the start, the end
//                       and the warp, block and 2^16 boundaries; the winner once, or a NaN, at the
//                       far end, the middle or a boundary; only zeros; NaNs at block boundaries.
// An atomic strategy is replayed on a sequential_word (one atomic step per element), each array in
// several interleavings; the battery's ordered tuples are every interleaving of its multisets.
// Then, for a strategy checked in this process (subject_of), a fifth stage:
//   interleaved_steps   each element a simulated thread, each operation on the word a step
//                       (check/interleaving.hpp): every schedule of every pair of a dozen edge values and
//                       of triples of five, then random schedules of random arrays of 2 to 6. It
//                       finds what whole updates cannot: a compare-and-swap loop that loses an
//                       update, a load then a store, a retry that never ends (a livelock).
//                       Exhaustive over those arrays' schedules; sampled beyond.
// A lane strategy (atomic.hpp: its value shares a word with neighbours) runs every case at every
// lane of the word, with a neighbour in each other lane (a thread of its own in the steps), and
// fails lane_isolation when a neighbour does not end as its own update made it.
// A failure is shrunk (fewer elements, then simpler bits, draw.hpp's order) while it still fails,
// and reported with bits, value, class and law, and with a replay string (format_case) that
// parse_case reads back: the RapidCheck macros and `flipcheck check --case` take it.
#pragma once
#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/atomic.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/draw.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/check/interleaving.hpp"
#include "flipcheck/check/shrink.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/packed_reducer.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/random.hpp"

namespace flipcheck {

// A reducer function: a type with the answer for a whole array, e.g. a wrapper around a user's
// kernel launch, a library call or a CPU loop. Empty input: return std::nullopt.
// (A `name` is optional: subject_of takes one where the type has none.)
template <class R>
concept reducer_function = format<typename R::format> && requires(std::span<const typename R::format::storage> xs) {
    { R::op } -> std::convertible_to<reduce_op>;
    { R::declared } -> std::convertible_to<policy>;
    { R::reduce(xs) } -> std::same_as<std::optional<typename R::format::storage>>;
};
// The argmax/argmin form: the index of the answer (nothing for n = 0, or all NaN under ignore).
// Named arg_reduce, not reduce: for binary64 the bits and an index are both 64-bit words.
template <class R>
concept arg_reducer_function = format<typename R::format> && requires(std::span<const typename R::format::storage> xs) {
    { R::op } -> std::convertible_to<reduce_op>;
    { R::declared } -> std::convertible_to<policy>;
    { R::arg_reduce(xs) } -> std::same_as<std::optional<std::size_t>>;
};

enum class check_stage : std::uint8_t { edge_battery, random_arrays, order_independence, large_arrays, replay, interleaved_steps };
constexpr std::string_view to_string(check_stage s) noexcept {
    switch (s) {
        case check_stage::edge_battery: return "edge_battery";
        case check_stage::random_arrays: return "random_arrays";
        case check_stage::order_independence: return "order_independence";
        case check_stage::large_arrays: return "large_arrays";
        case check_stage::replay: return "replay";
        case check_stage::interleaved_steps: return "interleaved_steps";
    }
    return "?";
}

struct check_options {
    std::uint64_t seed = 1;            // of the random stages (the battery does not depend on it)
    std::size_t random_cases = 2000;   // random arrays
    std::size_t orders = 4;            // interleavings of each random array (atomic strategies)
    std::size_t reorderings = 300;     // arrays re-checked by order_independence
    std::size_t large_cases = 15;      // large arrays (0: skip the stage)
    std::size_t large_length = std::size_t(1) << 20;
    bool shrink = true;
    // Only these stages (empty: all, in order). The RapidCheck macros run one per test.
    std::vector<check_stage> stages{};
    // Called as each stage starts (`flipcheck check` notes it, to name the stage a crash was in).
    std::function<void(check_stage)> on_stage{};
};

// A reducer under check, whatever its shape: its answer (bits, or an index when `arg`) for xs
// taken in `order` (a permutation of xs's indices; only an `interleaved` subject, an atomic
// strategy, looks at it: the others are called on xs in index order).
template <format F>
struct reducer_subject {
    using S = typename F::storage;
    std::string name;
    reduce_op op = reduce_op::max;
    policy declared{};
    bool arg = false;
    bool interleaved = false;
    std::function<std::optional<std::uint64_t>(std::span<const S> xs, std::span<const std::size_t> order)> run;
    // Optional, for an atomic strategy run in this process: xs with each element a simulated
    // thread whose every word operation is a step, stepped as the plan says (check/interleaving.hpp).
    std::function<std::pair<std::optional<std::uint64_t>, atomic::step_trace>(std::span<const S> xs, const atomic::step_plan&)>
        run_steps;
    // Optional, for a subject that is not interleaved: the answers for many arrays in one call,
    // each as run would give it (a GPU subject launches them together). The checker then sends the
    // battery's and the random stages' arrays in batches, and single arrays to `run` to shrink.
    std::function<std::vector<std::optional<std::uint64_t>>(const std::vector<std::vector<S>>&)> run_batch;
    // Optional, for a lane strategy (atomic.hpp): every lane of the last run or run_steps call but
    // the one whose answer it returned (the array at offset 0), asked right after that call. The
    // array's answer at each other offset is judged as the answer is; each neighbour must hold
    // atomic::lane_layout's neighbour_value.
    std::function<std::vector<atomic::lane_value>()> lanes;
    unsigned shared_word_bits = 0;  // a lane strategy's word, for the messages
};

// What one check found. Plain data, format-free (bits as 64-bit words), so a command-line driver
// prints it whatever the subject's format.
struct check_report {
    std::string subject, format;
    reduce_op op = reduce_op::max;
    policy declared{};
    bool arg = false;
    struct stage_run {
        check_stage stage;
        std::uint64_t cases;
    };
    std::vector<stage_run> stages;  // in the order run; the last one failed if `failure` is set
    struct failure_info {
        check_stage stage;
        std::vector<std::uint64_t> input;   // shrunk
        std::vector<std::size_t> order;     // the interleaving (atomic strategies; a step_schedule), else empty
        counterexample law{};               // reducer_agreement or arg_reducer_agreement
        std::size_t original_length = 0;    // before shrinking
        std::string explanation;            // describe_reducer_failure
        std::string replay;                 // format_case: parse_case reads it back
    };
    std::optional<failure_info> failure;
    double seconds = 0;

    bool passed() const noexcept { return !failure.has_value(); }
    std::uint64_t cases() const noexcept {
        std::uint64_t n = 0;
        for (const auto& s : stages) n += s.cases;
        return n;
    }
    // The verdict in a few lines: subject, policy, stages with cases, and the counterexample.
    std::string text() const {
        std::string s = subject + " (" + format + " " + std::string(to_string(op)) + (arg ? " index" : "") +
                        ", declares " + to_string(declared, arg) + "): ";
        s += passed() ? "pass" : "FAIL";
        s += " after";
        for (std::size_t i = 0; i < stages.size(); ++i)
            s += (i ? ", " : " ") + std::to_string(stages[i].cases) + " " + std::string(to_string(stages[i].stage));
        s += " cases";
        if (failure) {
            s += "\n  " + std::string(to_string(failure->law.law)) + " fails in " + std::string(to_string(failure->stage)) +
                 ": " + failure->explanation;
            if (is_step_schedule(failure->order)) {
                s += "\n  in the atomic steps (each the element whose thread took it, first step first):";
                for (std::size_t k = 1; k < failure->order.size(); ++k) s += " " + std::to_string(failure->order[k]);
                s += failure->order.size() > 1 ? ", then" : "";
                s += " each step to the lowest element whose thread waits for one";
                if (failure->order.size() > 1 &&
                    *std::max_element(failure->order.begin() + 1, failure->order.end()) >= failure->input.size())
                    s += " (from " + std::to_string(failure->input.size()) + " on, the neighbours' threads, one per other lane)";
            } else if (!failure->order.empty()) {
                s += "\n  in the interleaving (element indices, first update first):";
                for (std::size_t i : failure->order) s += " " + std::to_string(i);
            }
            if (failure->original_length != failure->input.size())
                s += "\n  (shrunk from an array of " + std::to_string(failure->original_length) + ")";
            s += "\n  case: " + failure->replay;
        }
        return s;
    }
};

namespace detail {

inline std::vector<std::size_t> identity_order(std::size_t n) {
    std::vector<std::size_t> o(n);
    for (std::size_t i = 0; i < n; ++i) o[i] = i;
    return o;
}

template <format F>
class reducer_checker {
public:
    using S = typename F::storage;
    reducer_checker(const reducer_subject<F>& subject, const check_options& o) : r_(subject), o_(o) {
        rep_.subject = subject.name;
        rep_.format = F::name;
        rep_.op = subject.op;
        rep_.declared = subject.declared;
        rep_.arg = subject.arg;
    }

    check_report run() {
        const auto t0 = std::chrono::steady_clock::now();
        const check_stage all[] = {check_stage::edge_battery, check_stage::random_arrays, check_stage::interleaved_steps,
                                   check_stage::order_independence, check_stage::large_arrays};
        std::vector<check_stage> stages = o_.stages.empty() ? std::vector<check_stage>(std::begin(all), std::end(all)) : o_.stages;
        for (check_stage s : stages) {
            if (s == check_stage::large_arrays && o_.large_cases == 0) continue;
            if (s == check_stage::replay) continue;
            if (s == check_stage::interleaved_steps && !r_.run_steps) continue;  // only a strategy run here has steps
            stage_ = s;
            if (o_.on_stage) o_.on_stage(s);
            rep_.stages.push_back({s, 0});
            bool ok = true;
            switch (s) {
                case check_stage::edge_battery: ok = battery(); break;
                case check_stage::random_arrays: ok = random_arrays(); break;
                case check_stage::order_independence: ok = reorderings(); break;
                case check_stage::large_arrays: ok = large_arrays(); break;
                case check_stage::interleaved_steps: ok = interleaved_steps(); break;
                case check_stage::replay: break;
            }
            if (!ok) break;
        }
        rep_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return rep_;
    }

    // One given case (a replay): a report with the stage `replay`.
    check_report replay(const std::vector<S>& xs, std::vector<std::size_t> order) {
        if (order.empty()) order = identity_order(xs.size());
        stage_ = check_stage::replay;
        rep_.stages.push_back({check_stage::replay, 0});
        if (auto c = fails(xs, order)) report(xs, order, *c, false);
        return rep_;
    }

private:
    // The oracle's verdict on one run of the subject: a counterexample, or nothing.
    std::optional<counterexample> fails(std::span<const S> xs, std::span<const std::size_t> order) {
        ++rep_.stages.back().cases;
        livelock_ = false;
        if (!is_step_schedule(order)) return judge(xs, r_.run(xs, order));
        if (!r_.run_steps)
            throw input_error("the case lists atomic steps, which only a strategy checked in this process replays (the "
                              "FLIPCHECK_CHECK_ATOMIC macros, check_atomic); drop its `steps` list to replay whole updates");
        atomic::step_plan plan;
        plan.prefix.assign(order.begin() + 1, order.end());
        const auto [got, trace] = r_.run_steps(xs, plan);
        return stepped_verdict(xs, got, trace);
    }
    // A stepped run's verdict: the oracle's, or a failure of its own for a run that never finished.
    std::optional<counterexample> stepped_verdict(std::span<const S> xs, const std::optional<std::uint64_t>& got,
                                                  const atomic::step_trace& trace) {
        livelock_ = !trace.finished;
        if (!livelock_) return judge(xs, got);
        counterexample c{};  // whatever the oracle wants, a run that never ends gives no answer
        c.law = r_.arg ? law_id::arg_reducer_agreement : law_id::reducer_agreement;
        c.actual_empty = true;
        return c;
    }
    // The answer's verdict, then (a lane strategy) every other lane's; lane_ says which lane failed.
    std::optional<counterexample> judge(std::span<const S> xs, const std::optional<std::uint64_t>& got) {
        lane_.reset();
        auto c = judge_answer(xs, got);
        if (!r_.lanes) return c;
        if (c) {
            lane_ = atomic::lane_value{0, 0, got, true};  // the answer is the placement at offset 0's
            return c;
        }
        for (const atomic::lane_value& l : r_.lanes()) {
            std::optional<counterexample> c;
            if (!l.finished) {
                livelock_ = true;
                c.emplace();
                c->law = law_id::reducer_agreement;
                c->actual_empty = true;
            } else if (l.offset == l.own_offset) {
                c = judge_answer(xs, l.answer);
            } else if (l.answer != std::uint64_t(F::one)) {
                c.emplace();
                c->law = law_id::lane_isolation;
                c->lane = l.offset;
                c->expected = F::one;
                c->actual = l.answer.value_or(0);
                c->actual_empty = !l.answer;
            }
            if (c) {
                lane_ = l;
                return c;
            }
        }
        return std::nullopt;
    }
    // The lane a lane strategy's failure is in, said after the failure.
    std::string lane_note() const {
        if (!lane_) return "";
        const std::string word = std::to_string(r_.shared_word_bits) + "-bit word";
        return lane_->offset == lane_->own_offset
                   ? " (the array's values at byte offset " + std::to_string(lane_->own_offset) + " of their " + word + ")"
                   : "";
    }
    std::string lane_damage(const counterexample& c, std::span<const S> xs) const {
        return "the neighbour at byte offset " + std::to_string(lane_->offset) + " of the " + std::to_string(r_.shared_word_bits) +
               "-bit word, whose one update is " + show<F>(S(F::one)) + ", ends as " +
               (c.actual_empty ? std::string("nothing") : show<F>(S(c.actual))) + " after the updates of " + show<F>(xs) +
               " at byte offset " + std::to_string(lane_->own_offset);
    }
    std::optional<counterexample> judge_answer(std::span<const S> xs, const std::optional<std::uint64_t>& got) {
        using L = reducer_laws<F>;
        if (r_.arg) {
            std::optional<std::size_t> index;
            if (got) index = std::size_t(*got);
            return L::arg_agreement(r_.declared, r_.op, xs, index);
        }
        std::optional<S> value;
        if (got) value = S(*got);
        if (got && *got > std::uint64_t(F::all_ones)) {  // not a pattern of the format at all
            counterexample c{};
            c.law = law_id::reducer_agreement;
            const auto e = L::expect(r_.declared, r_.op, xs);
            if (!e.in_domain) return std::nullopt;
            c.expected_empty = !e.value;
            c.expected = e.value.value_or(0);
            c.actual = *got;
            return c;
        }
        return L::agreement(r_.declared, r_.op, xs, value);
    }

    // Checks xs in `order`; on a failure shrinks and records it, and returns false. With
    // run_batch, arrays in index order wait in a batch, checked when it is full or flush() is
    // called (at the end of each stage), so a failure may be reported a batch later.
    bool check(const std::vector<S>& xs, std::vector<std::size_t> order = {}) {
        if (r_.run_batch && !r_.interleaved && order.empty()) {
            pending_.push_back(xs);
            return pending_.size() < batch_size || flush();
        }
        if (order.empty()) order = identity_order(xs.size());
        if (auto c = fails(xs, order)) {
            report(xs, order, *c, o_.shrink);
            return false;
        }
        return true;
    }

    static constexpr std::size_t batch_size = 4096;
    std::vector<std::vector<S>> pending_;

    bool flush() {
        if (pending_.empty()) return true;
        const std::vector<std::vector<S>> batch = std::move(pending_);
        pending_.clear();
        rep_.stages.back().cases += batch.size();
        const auto got = r_.run_batch(batch);
        if (got.size() != batch.size())
            throw subject_error("subject " + r_.name + "'s run_batch gave " + std::to_string(got.size()) + " answers for " +
                                std::to_string(batch.size()) + " arrays");
        for (std::size_t i = 0; i < batch.size(); ++i)
            if (auto c = judge(batch[i], got[i])) {
                report(batch[i], identity_order(batch[i].size()), *c, o_.shrink);
                return false;
            }
        return true;
    }

    bool battery() {
        const std::vector<S> edges = edge_values<F>();
        if (!r_.interleaved && !check({})) return false;  // n = 0: nothing (a replay has no word to read)
        std::vector<S> xs;
        for (S a : edges)
            if (!check({a})) return false;
        for (S a : edges)
            for (S b : edges)
                if (!check({a, b})) return false;
        for (S a : edges)
            for (S b : edges)
                for (S c : edges)
                    if (!check({a, b, c})) return false;
        return flush();
    }

    struct rng_adapter {
        splitmix64 g;
        std::uint64_t next() { return g(); }
    };
    std::vector<std::size_t> shuffled(std::size_t n, splitmix64& g) {
        std::vector<std::size_t> o = identity_order(n);
        for (std::size_t i = n; i > 1; --i) std::swap(o[i - 1], o[g.below(i)]);
        return o;
    }

    // The random arrays, kept for order_independence (only their seeds: arrays are redrawn).
    bool random_arrays() {
        splitmix64 g{o_.seed};
        for (std::size_t i = 0; i < o_.random_cases; ++i) {
            rng_adapter r{splitmix64{g()}};
            // Sizes grow with the case number, as RapidCheck's do (0..100, then the fixed shapes).
            const std::vector<S> xs = draw::array<F>(r, int(i * 100 / std::max<std::size_t>(o_.random_cases, 1)));
            if (!check(xs)) return false;
            if (r_.interleaved) {
                splitmix64 og{r.g()};
                for (std::size_t k = 1; k < o_.orders; ++k)
                    if (!check(xs, shuffled(xs.size(), og))) return false;
            }
        }
        return flush();
    }

    bool reorderings() {
        splitmix64 g{o_.seed ^ 0x6f72646572ull};
        for (std::size_t i = 0; i < o_.reorderings; ++i) {
            rng_adapter r{splitmix64{g()}};
            std::vector<S> xs = draw::array<F>(r, 100);
            if (xs.size() < 2) continue;
            // Reversed and rotated: the same multiset as a new array (its indices move with it).
            std::vector<S> reversed(xs.rbegin(), xs.rend());
            if (!check(reversed)) return false;
            std::vector<S> rotated(xs);
            std::rotate(rotated.begin(), rotated.begin() + std::ptrdiff_t(xs.size() / 2), rotated.end());
            if (!check(rotated)) return false;
            splitmix64 og{r.g()};
            if (r_.interleaved) {
                if (!check(xs, shuffled(xs.size(), og))) return false;
                continue;
            }
            const std::vector<std::size_t> p = shuffled(xs.size(), og);
            std::vector<S> permuted(xs.size());
            for (std::size_t k = 0; k < xs.size(); ++k) permuted[k] = xs[p[k]];
            if (!check(permuted)) return false;
            if (!r_.arg && !split(xs, 1 + og.below(xs.size() - 1))) return false;
        }
        return flush();
    }

    // Partition independence of a value reducer: the answers of the two parts, reduced together,
    // must be the oracle's answer for the whole (as a block's partial results are, on a GPU).
    bool split(const std::vector<S>& xs, std::size_t at) {
        const std::vector<S> a(xs.begin(), xs.begin() + std::ptrdiff_t(at)), b(xs.begin() + std::ptrdiff_t(at), xs.end());
        const auto ia = identity_order(a.size()), ib = identity_order(b.size());
        rep_.stages.back().cases += 2;
        const auto ra = r_.run(a, ia), rb = r_.run(b, ib);
        if (!ra) return check(a);  // a non-empty part answered nothing: that part is the counterexample
        if (!rb) return check(b);
        const std::vector<S> parts{S(*ra), S(*rb)};
        const auto e = reducer_laws<F>::expect(r_.declared, r_.op, xs);
        if (!e.in_domain) return true;
        ++rep_.stages.back().cases;
        const auto got = r_.run(parts, identity_order(2));
        std::optional<S> value;
        if (got) value = S(*got);
        if (auto c = reducer_laws<F>::agreement(r_.declared, xs, e, value)) {
            // Report the merged pair: the smallest input on which the subject's answer is wrong.
            if (auto direct = fails(parts, identity_order(2))) {
                report(parts, identity_order(2), *direct, o_.shrink);
            } else {
                record(xs, identity_order(xs.size()), *c, xs.size(),
                       "its answers for the parts [0, " + std::to_string(at) + ") and [" + std::to_string(at) + ", n) were " +
                           show<F>(parts[0]) + " and " + show<F>(parts[1]) + "; reduced together: " +
                           describe_reducer_failure<F>(*c, xs));
            }
            return false;
        }
        return true;
    }

    bool large_arrays() {
        splitmix64 g{o_.seed ^ 0x6c61726765ull};
        const std::size_t base = std::max<std::size_t>(o_.large_length, 4);
        const std::size_t lengths[] = {base, base + 1, base - 1, base + 33};
        // Where the special elements go: the ends and the warp, block and 2^16 boundaries.
        std::vector<std::size_t> spots;
        for (std::size_t p : {std::size_t(0), std::size_t(31), std::size_t(32), std::size_t(1023), std::size_t(1024),
                              std::size_t(65535), std::size_t(65536)})
            spots.push_back(p);
        constexpr std::size_t kinds = 5;
        for (std::size_t c = 0; c < o_.large_cases; ++c) {
            const std::size_t n = lengths[(c / kinds) % std::size(lengths)];
            std::vector<S> xs(n);
            // Finite numbers of both signs below 1 in magnitude, so that placed values can win.
            for (S& x : xs) x = S((g() & F::sign_mask) | (g() % F::one));
            const S top = (r_.op == reduce_op::max) ? F::max_finite : S(F::max_finite | F::sign_mask);
            std::vector<std::size_t> at{spots};
            at.push_back(n - 1);
            at.push_back(n / 2);
            // A spot per round, from the far end first: n - 1, n / 2, 65536, ...
            const std::size_t spot = std::min(at[at.size() - 1 - (c / kinds) % at.size()], n - 1);
            switch (c % kinds) {
                case 0:  // the winner tied at every spot: an arg reducer must pick the declared index
                    for (std::size_t p : at) xs[std::min(p, n - 1)] = top;
                    break;
                case 1:  // the winner once
                    xs[spot] = top;
                    break;
                case 2:  // one NaN (its sign alternates by round)
                    xs[spot] = S(F::quiet_nan | (((c / kinds) & 1) ? F::sign_mask : S(0)));
                    break;
                case 3:  // -0 and +0 only: the zeros' order decides
                    for (std::size_t k = 0; k < n; ++k) xs[k] = (g() & 1) ? F::sign_mask : F::zero;
                    break;
                default:  // NaNs at the block boundaries and the winner at the far end
                    xs[n - 1] = top;
                    for (std::size_t p = 1024; p < n; p += std::size_t(1) << 16) xs[p] = F::quiet_nan;
                    break;
            }
            if (!check(xs)) return false;
            if (r_.interleaved) {
                splitmix64 og{g()};
                if (!check(xs, shuffled(n, og))) return false;
            }
        }
        return flush();
    }

    // ---- interleaved_steps: every schedule of small arrays, then random schedules -------------
    // The values whose pairs are stepped: zero, the smallest subnormal, one, the largest finite,
    // infinity and the quiet NaN, of both signs (what the format has of them).
    static std::vector<S> step_values() {
        std::vector<S> v;
        for (S sign : {S(0), F::sign_mask})
            for (S b : {F::zero, F::denorm_min, F::one, F::max_finite, F::infinity, F::quiet_nan}) v.push_back(S(b | sign));
        const auto edges = edge_values<F>();  // only codes the format has
        std::erase_if(v, [&](S b) { return std::find(edges.begin(), edges.end(), b) == edges.end(); });
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    }
    static std::vector<std::size_t> schedule_of(std::span<const std::size_t> steps) {
        std::vector<std::size_t> o{step_schedule};
        o.insert(o.end(), steps.begin(), steps.end());
        return o;
    }
    // The first failing schedule of xs, visiting at most max_runs of them (each a case).
    std::optional<std::pair<std::vector<std::size_t>, counterexample>> failing_schedule(const std::vector<S>& xs, std::size_t max_runs) {
        std::optional<std::pair<std::vector<std::size_t>, counterexample>> found;
        atomic::for_each_schedule([&](const atomic::step_plan& p) { return r_.run_steps(xs, p); },
                                  [&](const std::optional<std::uint64_t>& got, const atomic::step_trace& t,
                                      const std::vector<std::size_t>& prefix) {
                                      ++rep_.stages.back().cases;
                                      // The search's first run has no prefix: its first step (the
                                      // lowest waiting thread's) says it, as a replay line must list one.
                                      if (auto c = stepped_verdict(xs, got, t))
                                          found.emplace(!prefix.empty() ? schedule_of(prefix)
                                                        : t.steps.empty() ? identity_order(xs.size())
                                                                          : schedule_of(std::span(t.steps).first(1)),
                                                        *c);
                                      return !found;
                                  },
                                  max_runs);
        return found;
    }
    bool every_schedule(const std::vector<S>& xs, std::size_t max_runs) {
        auto found = failing_schedule(xs, max_runs);
        if (!found) return true;
        report(xs, std::move(found->first), found->second, o_.shrink);
        return false;
    }
    bool interleaved_steps() {
        const std::vector<S> few = step_values();
        for (S a : few)
            for (S b : few)
                if (!every_schedule({a, b}, 2000)) return false;
        const S four[] = {S(F::one | F::sign_mask), F::sign_mask, F::zero, F::one};  // -1, -0, +0, 1: ties and zeros
        for (S a : four)
            for (S b : four)
                for (S c : four)
                    if (a != b && b != c && a != c && !every_schedule({a, b, c}, 600)) return false;
        splitmix64 g{o_.seed ^ 0x7374657073ull};
        for (std::size_t i = 0; i < std::max<std::size_t>(o_.random_cases / 10, 1); ++i) {
            rng_adapter r{splitmix64{g()}};
            std::vector<S> xs(2 + r.g.below(5));
            for (S& x : xs) x = draw::bits<F>(r);
            for (std::size_t k = 0; k < std::max<std::size_t>(o_.orders, 1); ++k) {
                atomic::step_plan plan;
                plan.seed = r.g() | 1;
                const auto [got, trace] = r_.run_steps(xs, plan);
                ++rep_.stages.back().cases;
                if (auto c = stepped_verdict(xs, got, trace)) {
                    // A random schedule is as long as the run (a livelock's, thousands of steps):
                    // the search's shortest replay of a failure of this array is said instead.
                    auto short_one = failing_schedule(xs, 2000);
                    if (short_one) report(xs, std::move(short_one->first), short_one->second, o_.shrink);
                    else report(xs, schedule_of(trace.steps), *c, o_.shrink);
                    return false;
                }
            }
        }
        return true;
    }
    // A failing schedule's array made smaller, then simpler (check/shrink.hpp), while some schedule
    // of it still fails; bounded by `budget` schedules tried.
    void shrink_steps(std::vector<S>& xs, std::vector<std::size_t>& order, counterexample& c) {
        const std::uint64_t counted = rep_.stages.back().cases;
        std::size_t budget = 5000;
        auto fails_somehow = [&](const shrink_case<S>& y) {
            if (budget < 50) return false;
            const std::uint64_t before = rep_.stages.back().cases;
            auto found = failing_schedule(y.xs, std::min<std::size_t>(600, budget));
            budget -= std::min<std::size_t>(budget, std::size_t(rep_.stages.back().cases - before));
            if (!found) return false;
            order = std::move(found->first), c = found->second;
            return true;
        };
        xs = shrink<F>(shrink_case<S>{xs, {}}, fails_somehow).xs;
        rep_.stages.back().cases = counted;
        livelock_ = false;
        if (auto again = fails(xs, order)) c = *again;  // the kept schedule's verdict (and livelock_) again
        rep_.stages.back().cases = counted;
    }

    // Shrinks (if asked) and records the failure.
    void report(std::vector<S> xs, std::vector<std::size_t> order, counterexample c, bool shrink) {
        const std::size_t original = xs.size();
        if (shrink && is_step_schedule(order)) shrink_steps(xs, order, c);
        else if (shrink) shrink_ordered(xs, order, c);
        if (shrink && !is_step_schedule(order) && r_.lanes) {  // the kept case's lane (shrinking judged others since)
            const std::uint64_t counted = rep_.stages.back().cases;
            if (auto again = fails(xs, order)) c = *again;
            rep_.stages.back().cases = counted;
        }
        std::string explanation = livelock_ ? "the updates of " + show<F>(xs) + " did not finish within " +
                                                  std::to_string(atomic::step_plan{}.limit) +
                                                  " atomic steps: a thread retries for ever (a livelock)"
                                  : c.law == law_id::lane_isolation ? lane_damage(c, xs)
                                                                    : describe_reducer_failure<F>(c, xs);
        record(xs, order, c, original, explanation + lane_note());
    }


    void record(const std::vector<S>& xs, const std::vector<std::size_t>& order, const counterexample& c,
                std::size_t original, std::string explanation) {
        check_report::failure_info f;
        f.stage = stage_;
        f.input.assign(xs.begin(), xs.end());
        bool identity = true;
        for (std::size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == i;
        if (!identity) f.order = order;
        f.law = c;
        f.original_length = original;
        f.explanation = std::move(explanation);
        f.replay = format_case<F>(xs, order);
        rep_.failure = std::move(f);
    }

    // The case made smaller and simpler while it still fails (check/shrink.hpp), with its order:
    // the elements kept keep their relative order. Shrink calls are not cases checked.
    void shrink_ordered(std::vector<S>& xs, std::vector<std::size_t>& order, counterexample& c) {
        const std::uint64_t counted = rep_.stages.back().cases;
        auto still_fails = [&](const shrink_case<S>& y) {
            auto f = fails(y.xs, y.order);
            if (f) c = *f;
            return f.has_value();
        };
        auto small = shrink<F>(shrink_case<S>{xs, order}, still_fails);
        xs = std::move(small.xs);
        order = std::move(small.order);
        rep_.stages.back().cases = counted;
    }

    const reducer_subject<F>& r_;
    check_options o_;
    check_report rep_;
    check_stage stage_ = check_stage::edge_battery;
    bool livelock_ = false;  // the last stepped run never finished (its failure is said as such)
    std::optional<atomic::lane_value> lane_;  // the last judged run's failing lane (a lane strategy)
};

}  // namespace detail

// ---- the entry points ---------------------------------------------------------------------------

template <format F>
check_report check(const reducer_subject<F>& subject, const check_options& o = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    return detail::reducer_checker<F>(subject, o).run();
}
// One case only (a replay line's): the stage is `replay`.
template <format F>
check_report check_case(const reducer_subject<F>& subject, const std::vector<typename F::storage>& xs,
                        const std::vector<std::size_t>& order = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    return detail::reducer_checker<F>(subject, {}).replay(xs, order);
}

// A lane strategy's subject (atomic.hpp) from its two runs, each giving every lane of every
// placement: `whole(xs, order)` (updates replayed whole) and `stepped(xs, plan)` (the lanes and the
// trace). The placement at offset 0 answers `run` and `run_steps`; the other lanes wait for the
// checker's `lanes` call.
template <format F, class Whole, class Stepped>
void set_lane_runs(reducer_subject<F>& s, unsigned shared_word_bits, Whole whole, Stepped stepped) {
    using S = typename F::storage;
    s.interleaved = true;
    s.shared_word_bits = shared_word_bits;
    auto rest = std::make_shared<std::vector<atomic::lane_value>>();
    auto answer = [rest](std::vector<atomic::lane_value> all) -> std::optional<std::uint64_t> {
        if (all.empty()) return rest->clear(), std::nullopt;
        const std::optional<std::uint64_t> a = all.front().answer;
        rest->assign(all.begin() + 1, all.end());
        return a;
    };
    s.run = [answer, whole](std::span<const S> xs, std::span<const std::size_t> order) { return answer(whole(xs, order)); };
    s.run_steps = [answer, stepped](std::span<const S> xs, const atomic::step_plan& plan) {
        auto [all, trace] = stepped(xs, plan);
        return std::pair{answer(std::move(all)), std::move(trace)};
    };
    s.lanes = [rest] { return *rest; };
}

// The subject of a reducer function, an arg reducer function or an atomic strategy type, named
// `name` or, by default, R::name.
template <class R>
auto subject_of(std::string_view name) {
    static_assert(!packed::pair_reducer_function<R>,
                  "subject_of<R>: R reduces packed pairs (it names a `pair`): check it with check_pair_reducer<R>() "
                  "(exhaustive.hpp) or FLIPCHECK_CHECK_PAIR_REDUCER, which judge each lane");
    using F = typename R::format;
    using S = typename F::storage;
    reducer_subject<F> s;
    s.name = std::string(name);
    s.op = R::op;
    s.declared = R::declared;
    if constexpr (reducer_function<R>) {
        s.run = [](std::span<const S> xs, std::span<const std::size_t>) -> std::optional<std::uint64_t> {
            const std::optional<S> r = R::reduce(xs);
            if (!r) return std::nullopt;
            return std::uint64_t(*r);
        };
    } else if constexpr (arg_reducer_function<R>) {
        s.arg = true;
        s.run = [](std::span<const S> xs, std::span<const std::size_t>) -> std::optional<std::uint64_t> {
            const std::optional<std::size_t> r = R::arg_reduce(xs);
            if (!r) return std::nullopt;
            return std::uint64_t(*r);
        };
    } else if constexpr (atomic::arg_atomic_strategy<R> || atomic::atomic_strategy<R>) {
        s.arg = atomic::arg_atomic_strategy<R>;
        s.interleaved = true;
        s.run = [](std::span<const S> xs, std::span<const std::size_t> order) -> std::optional<std::uint64_t> {
            const auto r = atomic::replay<R>(xs, order);
            if (!r) return std::nullopt;
            return std::uint64_t(*r);
        };
        s.run_steps = [](std::span<const S> xs, const atomic::step_plan& plan) { return atomic::replay_steps<R>(xs, plan); };
    } else if constexpr (atomic::lane_atomic_strategy<R>) {
        set_lane_runs(s, unsigned(8 * sizeof(typename R::shared_word)), &atomic::replay_lanes<R>, &atomic::replay_lane_steps<R>);
    } else {
        static_assert(reducer_function<R>, "subject_of<R>: R must be a flipcheck::reducer_function, arg_reducer_function, "
                                           "atomic::atomic_strategy, atomic::arg_atomic_strategy or atomic::lane_atomic_strategy "
                                           "(check.hpp, atomic.hpp)");
    }
    return s;
}
template <class R>
auto subject_of() {
    return subject_of<R>(R::name);
}

template <class R>
check_report check_reducer(const check_options& o = {}) {
    return check(subject_of<R>(), o);
}
template <class A>
check_report check_atomic(const check_options& o = {}) {
    static_assert(atomic::atomic_strategy<A> || atomic::arg_atomic_strategy<A> || atomic::lane_atomic_strategy<A>,
                  "check_atomic<A>: A must be a flipcheck::atomic::atomic_strategy (init, update(word, bits), result), "
                  "an arg_atomic_strategy (init, update(word, bits, index), index) or a lane_atomic_strategy "
                  "(shared_word, init, update(word, offset, bits), result); see atomic.hpp");
    return check(subject_of<A>(), o);
}

}  // namespace flipcheck
