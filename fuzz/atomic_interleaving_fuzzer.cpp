// Atomic interleavings: the bytes choose a format, a reducer (an atomic update strategy) and an
// operation, an array, how it is split over threads, and a schedule that says which thread takes
// its next atomic step. The word's final value (or, for an arg reducer, the index it holds) must
// be what the oracle accepts under the reducer's declared policy.
//
//   byte 0   a format id (registry::formats)
//   byte 1   a reducer id (registry::reducers: every value reducer, P3008's fetch_* included, and
//            the packed arg reducer); ids are stable, so a corpus file keeps its meaning when
//            entries are added. Unknown ids, or a reducer not registered on the format: ignored.
//   byte 2   bit 0: max (else min); bit 1: a reducer with combine() (the fmax CAS loop, P3008's
//            fetch_*) runs as separate load and compare-and-swap steps, so that a schedule can
//            slip another thread in between; else each element is one update() step, the code the
//            kernels run (a single read-modify-write, or a whole CAS loop, is linearizable)
//   byte 3   threads (1 + byte % 8)
//   byte 4   n (1 + byte % 48), then n raw patterns of the format's width
//   rest     the schedule: each byte picks the thread that steps next
// A reducer without init() (P3008) starts from the array's first element, as an atomic object
// holds a value before any fetch; one without result() holds its answer in the word.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;
namespace fa = flipcheck::atomic;
using fc::reduce_op;

namespace {

constexpr unsigned max_threads = 8;

template <class R, class S>
S initial(const std::vector<S>& xs) {
    if constexpr (requires { R::init(); }) return R::init();
    else return xs[0];
}

template <class R, class S>
S result(S word) {
    if constexpr (requires { R::result(word); }) return R::result(word);
    else return word;
}

template <class R>
[[noreturn]] void report(const std::vector<typename R::format::storage>& xs, const fc::counterexample& c) {
    using F = typename R::format;
    std::fprintf(stderr, "%s %s: %zu elements:", std::string(F::name).c_str(), std::string(R::name).c_str(), xs.size());
    for (auto x : xs) std::fprintf(stderr, " 0x%" PRIx64, std::uint64_t(x));
    std::fprintf(stderr, "\n  expected 0x%" PRIx64 "%s, got 0x%" PRIx64 "\n", c.expected, c.expected_empty ? " (none)" : "", c.actual);
    fc::fuzz::fail("atomic strategy disagrees with the oracle");
}

// Threads own contiguous slices; schedule bytes pick the thread that steps next, and step(i)
// applies element i as one atomic step.
template <class Step>
void interleave(fc::fuzz::input& in, std::size_t n, unsigned threads, Step step) {
    std::vector<std::size_t> next(threads), end(threads);
    for (unsigned t = 0; t < threads; ++t) next[t] = n * t / threads, end[t] = n * (t + 1) / threads;
    for (std::size_t done = 0; done < n; ++done) {
        unsigned t = in.byte() % threads;
        while (next[t] == end[t]) t = (t + 1) % threads;
        step(next[t]++);
    }
}

template <class R>
void run_rmw(fc::fuzz::input& in, const std::vector<typename R::format::storage>& xs, unsigned threads) {
    using F = typename R::format;
    fa::sequential_word<typename F::storage> w{initial<R>(xs)};
    interleave(in, xs.size(), threads, [&](std::size_t i) { R::update(w, xs[i]); });
    if (auto c = fc::reducer_laws<F>::agreement(R::declared, R::op, xs, result<R>(w.value))) report<R>(xs, *c);
}

// An arg reducer: element i goes in with its index; the word's index is judged.
template <class R>
void run_arg(fc::fuzz::input& in, const std::vector<typename R::format::storage>& xs, unsigned threads) {
    using F = typename R::format;
    fa::sequential_word<decltype(R::init())> w{R::init()};
    interleave(in, xs.size(), threads, [&](std::size_t i) { R::update(w, xs[i], std::uint32_t(i)); });
    if (auto c = fc::reducer_laws<F>::arg_agreement(R::declared, R::op, xs, std::size_t(R::index(w.value))))
        report<R>(xs, *c);
}

// The CAS loop, one step at a time: a thread either loads (starting an element) or tries its CAS.
template <class R>
void run_cas(fc::fuzz::input& in, const std::vector<typename R::format::storage>& xs, unsigned threads) {
    using F = typename R::format;
    using S = typename F::storage;
    fa::sequential_word<S> w{initial<R>(xs)};
    struct thread_state {
        std::size_t next, end;
        bool loaded = false;
        S old = 0;
    };
    std::vector<thread_state> th(threads);
    for (unsigned t = 0; t < threads; ++t) th[t] = {xs.size() * t / threads, xs.size() * (t + 1) / threads};
    auto busy = [&] {
        for (auto& s : th)
            if (s.next < s.end) return true;
        return false;
    };
    while (busy()) {
        unsigned t = in.byte() % threads;
        while (th[t].next == th[t].end) t = (t + 1) % threads;
        auto& s = th[t];
        if (!s.loaded) {
            s.old = w.load();
            s.loaded = true;
            continue;
        }
        const S want = R::combine(s.old, xs[s.next]);
        const S seen = want == s.old ? s.old : w.cas(s.old, want);
        if (seen == s.old) ++s.next, s.loaded = false;  // stuck (or nothing to do): next element
        else s.old = seen;                              // lost the race: retry with what it saw
    }
    if (auto c = fc::reducer_laws<F>::agreement(R::declared, R::op, xs, result<R>(w.value))) report<R>(xs, *c);
}

template <class E, class F, reduce_op Op>
void run(fc::fuzz::input& in, bool cas_steps) {
    using R = typename E::template on<F, Op>;
    using S = typename F::storage;
    const unsigned threads = 1 + in.byte() % max_threads;
    const std::size_t n = 1 + in.byte() % 48;
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    if constexpr (E::arg) {
        run_arg<R>(in, xs, threads);
    } else if constexpr (requires(S a) { R::combine(a, a); }) {
        if (cas_steps) run_cas<R>(in, xs, threads);
        else run_rmw<R>(in, xs, threads);
    } else {
        run_rmw<R>(in, xs, threads);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace reg = fc::registry;
    fc::fuzz::input in(data, size);
    const std::uint8_t format = in.byte(), reducer = in.byte(), how = in.byte();
    reg::with_id<reg::formats>(format, [&]<class FE>() {
        reg::with_id<reg::reducers>(reducer, [&]<class RE>() {
            if constexpr (reg::contains<typename RE::formats, FE>) {
                using F = typename FE::type;
                if (how & 1) run<RE, F, reduce_op::max>(in, how & 2);
                else run<RE, F, reduce_op::min>(in, how & 2);
            }
        });
    });
    return 0;
}
