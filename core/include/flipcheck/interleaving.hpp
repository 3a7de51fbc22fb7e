// Atomic steps interleaved on the CPU. Replaying whole update() calls in several orders proves a
// strategy whose update is one read-modify-write, but not one whose update takes several steps:
// a compare-and-swap loop that retries from a value it read before the loop loses an update only
// when another thread's step falls between two of its own. Here each element of an array is a
// simulated thread running the strategy's update on one shared word, and every operation on the
// word (load, fetch_max, fetch_min, their signed forms, cas) is a step. One thread runs at a time:
// real threads hand a baton, so the strategy's code runs unchanged (noexcept, loops and all), and a
// schedule (the thread that takes each step) replays exactly.
//
// The next step goes to the schedule's next entry while there is one (a replay, or the prefix of
// an exhaustive search), then to the lowest waiting thread (seed 0) or to a seeded random one.
// A run longer than `limit` steps is stopped as a livelock: its threads are left parked for good
// (they are never woken, so they touch nothing again) and the run reports finished = false.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/hd.hpp"
#include "flipcheck/random.hpp"

namespace flipcheck::atomic {

struct step_plan {
    std::vector<std::size_t> prefix;  // the threads that take the first steps, in order
    std::uint64_t seed = 0;           // after the prefix: 0 the lowest waiting thread, else random
    bool keep_waiting = false;        // record which threads waited before each step (a search needs it)
    std::size_t limit = 4096;         // steps before a run counts as a livelock
};

struct step_trace {
    std::vector<std::size_t> steps;                 // the thread that took each step
    std::vector<std::vector<std::size_t>> waiting;  // with keep_waiting: the threads waiting before each step
    bool finished = true;                           // false: stopped at plan.limit steps
};

namespace detail {

// What the simulated threads share; each thread holds it too, so that a livelocked run's parked
// threads outlive the call that gave up on them.
template <class W>
struct baton {
    static constexpr std::size_t none = ~std::size_t(0);
    std::mutex m;
    std::condition_variable to_scheduler;
    std::vector<std::unique_ptr<std::condition_variable>> to_thread;
    std::size_t turn = none;          // the thread that may run; none: the scheduler
    std::vector<char> waiting, done;  // per thread: parked at a step; its update returned
    W value{};
    step_trace trace;
    std::exception_ptr thrown;  // the first exception an update let out
};

}  // namespace detail

// The word one simulated thread sees: each operation waits for the thread's turn, then is one step.
// Host only; its methods are FLIPCHECK_HD, as sequential_word's, only so that a CUDA source, which
// compiles a strategy's update for both sides, may step it on the host too.
template <class W>
class stepped_word {
public:
    stepped_word(std::shared_ptr<detail::baton<W>> b, std::size_t thread) : b_(std::move(b)), t_(thread) {}
    FLIPCHECK_HD W load() { return step([](W& v) { return v; }); }
    FLIPCHECK_HD W fetch_max(W x) { return step([x](W& v) { const W o = v; v = x > v ? x : v; return o; }); }
    FLIPCHECK_HD W fetch_min(W x) { return step([x](W& v) { const W o = v; v = x < v ? x : v; return o; }); }
    FLIPCHECK_HD W fetch_max_signed(W x) {
        return step([x](W& v) { const W o = v; v = as_signed(x) > as_signed(v) ? x : v; return o; });
    }
    FLIPCHECK_HD W fetch_min_signed(W x) {
        return step([x](W& v) { const W o = v; v = as_signed(x) < as_signed(v) ? x : v; return o; });
    }
    FLIPCHECK_HD W cas(W expected, W desired) { return step([=](W& v) { const W o = v; if (o == expected) v = desired; return o; }); }

private:
    FLIPCHECK_HD static auto as_signed(W v) { return std::make_signed_t<W>(v); }
    template <class Op>
    FLIPCHECK_HD W step([[maybe_unused]] Op op) {
#if defined(__CUDA_ARCH__)
        __trap();  // never on a device: the simulated threads are host threads
        return W{};
#else
        std::unique_lock l(b_->m);
        b_->waiting[t_] = 1;
        b_->turn = detail::baton<W>::none;
        b_->to_scheduler.notify_one();
        b_->to_thread[t_]->wait(l, [&] { return b_->turn == t_; });
        b_->waiting[t_] = 0;
        return op(b_->value);
#endif
    }
    std::shared_ptr<detail::baton<W>> b_;
    std::size_t t_;
};

// Runs body(t, word) for t in [0, n) as n simulated threads on one word that starts at `init`,
// stepped as `plan` says. Returns the final word (nullopt for a livelock) and the trace. Throws
// input_error when the plan's prefix names a thread that is not waiting at a step.
template <class W, class Body>
std::pair<std::optional<W>, step_trace> run_stepped(std::size_t n, W init, const step_plan& plan, Body&& body) {
    using B = detail::baton<W>;
    auto b = std::make_shared<B>();
    b->value = init;
    b->waiting.assign(n, 0);
    b->done.assign(n, 0);
    for (std::size_t t = 0; t < n; ++t) b->to_thread.push_back(std::make_unique<std::condition_variable>());
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (std::size_t t = 0; t < n; ++t)
        threads.emplace_back([b, t, &body] {
            {
                std::unique_lock l(b->m);
                b->to_thread[t]->wait(l, [&] { return b->turn == t; });
            }
            stepped_word<W> w(b, t);
            std::exception_ptr thrown;
            try {
                body(t, w);
            } catch (...) {
                thrown = std::current_exception();
            }
            std::lock_guard l(b->m);
            if (thrown && !b->thrown) b->thrown = thrown;
            b->done[t] = 1;
            b->turn = B::none;
            b->to_scheduler.notify_one();
        });
    // Hands the baton to t and waits until t parks at its next step or returns.
    auto go = [&](std::unique_lock<std::mutex>& l, std::size_t t) {
        b->turn = t;
        b->to_thread[t]->notify_one();
        b->to_scheduler.wait(l, [&] { return b->turn == B::none; });
    };
    flipcheck::detail::splitmix64 random{plan.seed};
    bool livelock = false;
    std::string bad_prefix;
    {
        std::unique_lock l(b->m);
        for (std::size_t t = 0; t < n; ++t) go(l, t);  // each runs up to its first step (its own work only)
        for (;;) {
            std::vector<std::size_t> ready;
            for (std::size_t t = 0; t < n; ++t)
                if (b->waiting[t]) ready.push_back(t);
            if (ready.empty()) break;
            const std::size_t k = b->trace.steps.size();
            if (k >= plan.limit) {
                livelock = true;
                break;
            }
            std::size_t next = ready[0];
            if (k < plan.prefix.size()) {
                next = plan.prefix[k];
                if (next >= n || !b->waiting[next]) {
                    bad_prefix = "the schedule gives step " + std::to_string(k) + " to thread " + std::to_string(next) +
                                 ", which is not waiting at a step (the array has " + std::to_string(n) + " threads)";
                    livelock = true;  // the run cannot go on as asked: its threads are abandoned like a livelock's
                    break;
                }
            } else if (plan.seed != 0) {
                next = ready[random.below(ready.size())];
            }
            if (plan.keep_waiting) b->trace.waiting.push_back(ready);
            b->trace.steps.push_back(next);
            go(l, next);
        }
    }
    if (livelock) {
        for (auto& t : threads) t.detach();  // parked for good; they hold `b`
        if (!bad_prefix.empty()) throw input_error(bad_prefix);
        step_trace tr = b->trace;
        tr.finished = false;
        return {std::nullopt, std::move(tr)};
    }
    for (auto& t : threads) t.join();
    if (b->thrown) std::rethrow_exception(b->thrown);
    return {b->value, b->trace};
}

// Every schedule of a run, each once: the lowest waiting thread by default, and at each step of a
// run every higher waiting thread as an alternative prefix (depth first). `run(plan)` makes one run
// (run_stepped or replay_steps); `visit(answer, trace, prefix)` returns false to stop, where the
// prefix alone replays the run (after it, each step goes to the lowest waiting thread). At most
// `max_runs` runs; returns true when every schedule was visited.
template <class Run, class Visit>
bool for_each_schedule(Run&& run, Visit&& visit, std::size_t max_runs, std::size_t limit = 4096) {
    std::vector<std::vector<std::size_t>> prefixes{{}};
    for (std::size_t runs = 0; !prefixes.empty(); ++runs) {
        if (runs == max_runs) return false;
        step_plan plan;
        plan.prefix = std::move(prefixes.back());
        prefixes.pop_back();
        plan.keep_waiting = true;
        plan.limit = limit;
        const auto [answer, trace] = run(plan);
        if (!visit(answer, trace, std::as_const(plan.prefix))) return false;
        // Alternatives after the prefix: at step k, each waiting thread above the one taken.
        for (std::size_t k = trace.steps.size(); k-- > plan.prefix.size();)
            for (std::size_t t : trace.waiting[k])
                if (t > trace.steps[k]) {
                    std::vector<std::size_t> p(trace.steps.begin(), trace.steps.begin() + std::ptrdiff_t(k));
                    p.push_back(t);
                    prefixes.push_back(std::move(p));
                }
    }
    return true;
}

// An atomic strategy (atomic.hpp) over xs, each element a simulated thread applying its update to
// one word of the strategy's own type, stepped as `plan` says: the answer's bits (a value
// strategy) or index (an arg strategy), nothing for an empty input or a livelock, and the trace.
template <class R, class S = typename R::format::storage>
std::pair<std::optional<std::uint64_t>, step_trace> replay_steps(std::span<const S> xs, const step_plan& plan) {
    if (xs.empty()) return {std::nullopt, step_trace{}};
    // (No structured bindings here: clang 14 refuses one named inside a requires-expression.)
    if constexpr (requires { &R::index; }) {
        using W = word_of<R, std::uint64_t>;
        auto run = run_stepped<W>(xs.size(), W(R::init()), plan,
                                  [&](std::size_t t, stepped_word<W>& word) { R::update(word, xs[t], std::uint32_t(t)); });
        if (!run.first) return {std::nullopt, std::move(run.second)};
        return {std::uint64_t(R::index(*run.first)), std::move(run.second)};
    } else {
        using W = word_of<R, S>;
        W init = W(xs[0]);  // as replay(): without init(), the word holds the first element
        if constexpr (requires { R::init(); }) init = R::init();
        auto run = run_stepped<W>(xs.size(), init, plan, [&](std::size_t t, stepped_word<W>& word) { R::update(word, xs[t]); });
        if (!run.first) return {std::nullopt, std::move(run.second)};
        if constexpr (requires(W w) { R::result(w); }) return {std::uint64_t(S(R::result(*run.first))), std::move(run.second)};
        else return {std::uint64_t(S(*run.first)), std::move(run.second)};
    }
}

}  // namespace flipcheck::atomic
