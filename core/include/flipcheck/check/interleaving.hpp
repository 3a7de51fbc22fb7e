// Atomic steps interleaved on the CPU. Replaying whole update() calls in several orders proves a
// strategy whose update is one read-modify-write, but not one whose update takes several steps:
// a compare-and-swap loop that retries from a value it read before the loop loses an update only
// when another thread's step falls between two of its own. Here each element of an array is a
// simulated thread running the strategy's update on one shared word, and every operation on the
// word (load, fetch_max, fetch_min, their signed forms, cas) is a step. One thread runs at a time,
// each on a stack of its own (a ucontext fiber on the calling OS thread), so the strategy's code
// runs unchanged (noexcept, loops and all), and a schedule (the thread that takes each step)
// replays exactly. (Real threads handing a baton did the same at 20 us a step, mostly the
// handoffs between OS threads; a fiber switch is well under a microsecond.)
//
// The next step goes to the schedule's next entry while there is one (a replay, or the prefix of
// an exhaustive search), then to the lowest waiting thread (seed 0) or to a seeded random one.
// A run longer than `limit` steps is stopped as a livelock: its threads are left parked for good
// (they are never resumed, so they touch nothing again; their stacks are kept) and the run
// reports finished = false.
#pragma once
#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/hd.hpp"
#include "flipcheck/random.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define FLIPCHECK_DETAIL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLIPCHECK_DETAIL_ASAN 1
#endif
#endif
#if defined(FLIPCHECK_DETAIL_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace flipcheck::atomic {

struct step_plan {
    std::vector<std::size_t> prefix;  // the threads that take the first steps, in order
    std::uint64_t seed = 0;           // after the prefix: 0 the lowest waiting thread, else random
    bool keep_waiting = false;        // record which threads waited before each step (a search needs it)
    std::size_t limit = 4096;         // steps before a run counts as a livelock
    bool strict_prefix = true;        // false: a prefix entry whose thread is not waiting is passed over
};

struct step_trace {
    std::vector<std::size_t> steps;                 // the thread that took each step
    std::vector<std::vector<std::size_t>> waiting;  // with keep_waiting: the threads waiting before each step
    bool finished = true;                           // false: stopped at plan.limit steps
};

namespace detail {

// Fiber stacks, reused across runs on this OS thread; a livelocked run's stay in `parked` for the
// process's life (its fibers' frames still hold what they hold, never to be resumed).
class fiber_stacks {
public:
    static constexpr std::size_t size = std::size_t(256) << 10;
    static std::unique_ptr<char[]> take() {
        auto& free = pool();
        if (free.empty()) return std::unique_ptr<char[]>(new char[size]);
        auto s = std::move(free.back());
        free.pop_back();
#if defined(FLIPCHECK_DETAIL_ASAN)
        ASAN_UNPOISON_MEMORY_REGION(s.get(), size);  // a finished fiber's last frame left its redzones
#endif
        return s;
    }
    static void give(std::unique_ptr<char[]> s) { pool().push_back(std::move(s)); }
    static void park(std::unique_ptr<char[]> s) {
        static std::mutex m;
        static auto* parked = new std::vector<std::unique_ptr<char[]>>;  // never freed, never reused
        std::lock_guard l(m);
        parked->push_back(std::move(s));
    }

private:
    static std::vector<std::unique_ptr<char[]>>& pool() {
        thread_local std::vector<std::unique_ptr<char[]>> free;
        return free;
    }
};

// One stepped run: the word, the trace, and the fibers with the scheduler's context.
template <class W>
struct stepped_run {
    struct fiber {
        ucontext_t context;
        std::unique_ptr<char[]> stack;
        void* fake_stack = nullptr;  // AddressSanitizer's, while the fiber is switched out
        bool waiting = false, done = false;
    };
    W value{};
    step_trace trace;
    std::exception_ptr thrown;  // the first exception an update let out
    std::vector<fiber> fibers;
    ucontext_t scheduler;
    const void* scheduler_stack = nullptr;  // AddressSanitizer's view of the scheduler's stack
    std::size_t scheduler_stack_size = 0;
    void* entering = nullptr;  // the body a starting fiber runs, as entry() finds it

    // Fiber t's context: `entry` on a stack of its own, with this run and t as its arguments.
    [[gnu::noinline]] void prepare(std::size_t t, void (*entry)()) {
        auto& f = fibers[t];
        f.stack = fiber_stacks::take();
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = f.stack.get();
        f.context.uc_stack.ss_size = fiber_stacks::size;
        f.context.uc_link = nullptr;
        const auto self = reinterpret_cast<std::uintptr_t>(this);
        makecontext(&f.context, entry, 3, unsigned(self & 0xffffffffu), unsigned(self >> 32), unsigned(t));
    }
    // From the scheduler into fiber t, back when t parks at a step or finishes. (Out of line:
    // GCC treats swapcontext as setjmp-like and would warn of clobbered locals in the caller.)
    [[gnu::noinline]] void resume(std::size_t t) {
#if defined(FLIPCHECK_DETAIL_ASAN)
        void* fake = nullptr;
        __sanitizer_start_switch_fiber(&fake, fibers[t].stack.get(), fiber_stacks::size);
        swapcontext(&scheduler, &fibers[t].context);
        __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
        swapcontext(&scheduler, &fibers[t].context);
#endif
    }
    // From fiber t back to the scheduler; `finished`: never to be resumed.
    [[gnu::noinline]] void yield(std::size_t t, bool finished) {
#if defined(FLIPCHECK_DETAIL_ASAN)
        __sanitizer_start_switch_fiber(finished ? nullptr : &fibers[t].fake_stack, scheduler_stack, scheduler_stack_size);
        swapcontext(&fibers[t].context, &scheduler);
        __sanitizer_finish_switch_fiber(fibers[t].fake_stack, nullptr, nullptr);
#else
        (void)finished;
        swapcontext(&fibers[t].context, &scheduler);
#endif
    }
    // A fiber's first moment: tell AddressSanitizer it arrived from the scheduler's stack.
    void arrived() {
#if defined(FLIPCHECK_DETAIL_ASAN)
        __sanitizer_finish_switch_fiber(nullptr, &scheduler_stack, &scheduler_stack_size);
#endif
    }
};

}  // namespace detail

// The word one simulated thread sees: each operation parks the thread until its turn, then is one
// step. Host only; its methods are FLIPCHECK_HD, as sequential_word's, only so that a CUDA source,
// which compiles a strategy's update for both sides, may step it on the host too.
template <class W>
class stepped_word {
public:
    stepped_word(detail::stepped_run<W>* run, std::size_t thread) : r_(run), t_(thread) {}
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
        r_->fibers[t_].waiting = true;
        r_->yield(t_, false);
        r_->fibers[t_].waiting = false;
        return op(r_->value);
#endif
    }
    detail::stepped_run<W>* r_;
    std::size_t t_;
};

namespace detail {
// A fiber's entry: makecontext passes ints only, so the run and the body come through the run's
// `entering` and a pointer split in two halves.
template <class W, class Body>
void fiber_entry(unsigned run_lo, unsigned run_hi, unsigned thread) {
    auto* run = reinterpret_cast<stepped_run<W>*>(std::uintptr_t(run_lo) | std::uintptr_t(run_hi) << 32);
    run->arrived();
    Body& body = *static_cast<Body*>(run->entering);
    {
        stepped_word<W> w(run, thread);
        try {
            body(std::size_t(thread), w);
        } catch (...) {
            if (!run->thrown) run->thrown = std::current_exception();
        }
    }
    run->fibers[thread].done = true;
    run->yield(thread, true);  // never resumed
}
}  // namespace detail

// Runs body(t, word) for t in [0, n) as n simulated threads on one word that starts at `init`,
// stepped as `plan` says. Returns the final word (nullopt for a livelock) and the trace. Throws
// input_error when the plan's prefix names a thread that is not waiting at a step.
template <class W, class Body>
std::pair<std::optional<W>, step_trace> run_stepped(std::size_t n, W init, const step_plan& plan, Body&& body) {
    using B = std::remove_reference_t<Body>;
    detail::stepped_run<W> run;
    run.value = init;
    run.fibers.resize(n);
    run.entering = const_cast<void*>(static_cast<const void*>(&body));
    for (std::size_t t = 0; t < n; ++t) run.prepare(t, reinterpret_cast<void (*)()>(&detail::fiber_entry<W, B>));
    flipcheck::detail::splitmix64 random{plan.seed};
    bool livelock = false;
    std::string bad_prefix;
    for (std::size_t t = 0; t < n; ++t) run.resume(t);  // each runs up to its first step (its own work only)
    std::vector<std::size_t> ready;
    for (;;) {
        ready.clear();
        for (std::size_t t = 0; t < n; ++t)
            if (run.fibers[t].waiting) ready.push_back(t);
        if (ready.empty()) break;
        const std::size_t k = run.trace.steps.size();
        if (k >= plan.limit) {
            livelock = true;
            break;
        }
        std::size_t next = ready[0];
        if (k < plan.prefix.size()) {
            next = plan.prefix[k];
            if (!plan.strict_prefix && (next >= n || !run.fibers[next].waiting)) next = ready[0];
            if (next >= n || !run.fibers[next].waiting) {
                bad_prefix = "the schedule gives step " + std::to_string(k) + " to thread " + std::to_string(next) +
                             ", which is not waiting at a step (the array has " + std::to_string(n) + " threads)";
                livelock = true;  // the run cannot go on as asked: its threads are abandoned like a livelock's
                break;
            }
        } else if (plan.seed != 0) {
            next = ready[random.below(ready.size())];
        }
        if (plan.keep_waiting) run.trace.waiting.push_back(ready);
        run.trace.steps.push_back(next);
        run.resume(next);
    }
    for (auto& f : run.fibers) {
        if (f.done) detail::fiber_stacks::give(std::move(f.stack));
        else detail::fiber_stacks::park(std::move(f.stack));  // parked at a step for good
    }
    if (livelock) {
        if (!bad_prefix.empty()) throw input_error(bad_prefix);
        step_trace tr = std::move(run.trace);
        tr.finished = false;
        return {std::nullopt, std::move(tr)};
    }
    if (run.thrown) std::rethrow_exception(run.thrown);
    return {run.value, std::move(run.trace)};
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

// A lane strategy (atomic.hpp) over xs stepped as `plan` says, at every placement: each element a
// simulated thread updating its lane of the shared word, and threads xs.size(), xs.size() + 1, ...
// the neighbours in the other lanes, in offset order. The first placement's run is stepped as
// the plan says and gives the trace (a search enumerates its schedules); each later placement
// replays the same steps, passing over any that its threads cannot take. Every lane of every
// placement as replay_lanes gives them.
template <lane_atomic_strategy R, class S = typename R::format::storage>
std::pair<std::vector<lane_value>, step_trace> replay_lane_steps(std::span<const S> xs, const step_plan& plan) {
    using L = lane_layout<R>;
    using W = typename L::word;
    std::pair<std::vector<lane_value>, step_trace> out;
    if (xs.empty()) return out;
    for (unsigned own = 0; own < L::count; ++own) {
        step_plan p = plan;
        if (own > 0) p.strict_prefix = false, p.keep_waiting = false;
        std::vector<unsigned> neighbours;
        for (unsigned n = 0; n < L::count; ++n)
            if (n != own) neighbours.push_back(L::offset(n));
        auto run = run_stepped<W>(xs.size() + neighbours.size(), L::start(), p, [&](std::size_t t, stepped_word<W>& word) {
            if (t < xs.size()) R::update(word, L::offset(own), xs[t]);
            else R::update(word, neighbours[t - xs.size()], L::neighbour_value);
        });
        for (unsigned n = 0; n < L::count; ++n) {
            lane_value v{L::offset(own), L::offset(n), std::nullopt, run.first.has_value()};
            if (run.first) v.answer = std::uint64_t(S(R::result(L::get(*run.first, L::offset(n)))));
            out.first.push_back(v);
        }
        if (own == 0) out.second = std::move(run.second);
    }
    return out;
}

}  // namespace flipcheck::atomic
