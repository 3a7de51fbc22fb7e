// Atomic interleavings: the bytes choose a format, an operation, a strategy and its policy, an
// array, how it is split over threads, and a schedule that says which thread takes its next
// atomic step. The word's final value must be what the oracle accepts under the strategy's
// declared policy. Single read-modify-writes are one step; CAS loops (the fmax baseline and P3008's
// fetch_* operations) are split into their load and their compare-and-swap steps, so a fuzzer
// schedule can slip another thread in between.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/p3008.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;
namespace fa = flipcheck::atomic;
using fc::reduce_op;

namespace {

constexpr unsigned max_threads = 8;

// P3008's operations as strategies. The object starts at the first element (there is no identity
// to start from); as CAS steps, combine is what the loop would store; as one atomic step, update
// is fetch<F, K>::apply (seed 004's single atomic for fetch_max/fetch_min on 32 bits and wider).
template <class F, fc::p3008::kind K>
struct p3008_strategy {
    using format = F;
    using S = typename F::storage;
    static constexpr reduce_op op = fc::p3008::op_of(K);
    static constexpr fc::policy declared = fc::p3008::declared(K);
    static constexpr std::string_view name = fc::p3008::to_string(K);
    static S combine(S old, S v) { return fc::p3008::fetch<F, K>::combine(old, v); }
    template <class Word>
    static void update(Word& w, S v) { fc::p3008::fetch<F, K>::apply(w, v); }
    static S result(S word) { return word; }
};

template <class Strategy, class S>
S initial(const std::vector<S>& xs) {
    if constexpr (requires { Strategy::init(); }) return Strategy::init();
    else return xs[0];
}

template <class F>
[[noreturn]] void report(const char* strategy, const std::vector<typename F::storage>& xs, const fc::counterexample& c) {
    std::fprintf(stderr, "%s %s: %zu elements:", std::string(F::name).c_str(), strategy, xs.size());
    for (auto x : xs) std::fprintf(stderr, " 0x%" PRIx64, std::uint64_t(x));
    std::fprintf(stderr, "\n  expected 0x%" PRIx64 "%s, got 0x%" PRIx64 "\n", c.expected, c.expected_empty ? " (none)" : "", c.actual);
    fc::fuzz::fail("atomic strategy disagrees with the oracle");
}

// Threads own contiguous slices; schedule bytes pick the thread that steps next.
template <class Strategy>
void run_rmw(fc::fuzz::input& in, const std::vector<typename Strategy::format::storage>& xs, unsigned threads) {
    using F = typename Strategy::format;
    using S = typename F::storage;
    fa::sequential_word<S> w{initial<Strategy>(xs)};
    std::vector<std::size_t> next(threads), end(threads);
    for (unsigned t = 0; t < threads; ++t) next[t] = xs.size() * t / threads, end[t] = xs.size() * (t + 1) / threads;
    for (std::size_t done = 0; done < xs.size();) {
        unsigned t = in.byte() % threads;
        while (next[t] == end[t]) t = (t + 1) % threads;
        Strategy::update(w, xs[next[t]++]);
        ++done;
    }
    if (auto c = fc::reducer_laws<F>::agreement(Strategy::declared, Strategy::op, xs, Strategy::result(w.value)))
        report<F>(std::string(Strategy::name).c_str(), xs, *c);
}

// The CAS loop, one step at a time: a thread either loads (starting an element) or tries its CAS.
template <class Strategy>
void run_cas(fc::fuzz::input& in, const std::vector<typename Strategy::format::storage>& xs, unsigned threads) {
    using F = typename Strategy::format;
    using S = typename F::storage;
    fa::sequential_word<S> w{initial<Strategy>(xs)};
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
        const S want = Strategy::combine(s.old, xs[s.next]);
        const S seen = want == s.old ? s.old : w.cas(s.old, want);
        if (seen == s.old) ++s.next, s.loaded = false;  // stuck (or nothing to do): next element
        else s.old = seen;                              // lost the race: retry with what it saw
    }
    if (auto c = fc::reducer_laws<F>::agreement(Strategy::declared, Strategy::op, xs, Strategy::result(w.value)))
        report<F>(std::string(Strategy::name).c_str(), xs, *c);
}

template <class F, reduce_op Op>
void by_strategy(unsigned which, fc::fuzz::input& in, unsigned threads) {
    using S = typename F::storage;
    const std::size_t n = 1 + in.byte() % 48;
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    using M = fc::sign_flip_branchless<F>;
    constexpr bool mx = Op == reduce_op::max;
    using fc::p3008::kind;
    switch (which % 8) {
        case 0: return run_rmw<fa::mapped<M, fc::nan_policy::total_order, Op>>(in, xs, threads);
        case 1: return run_rmw<fa::mapped<M, fc::nan_policy::propagate, Op>>(in, xs, threads);
        case 2: return run_rmw<fa::mapped<M, fc::nan_policy::ignore, Op>>(in, xs, threads);
        case 3: return run_rmw<fa::signbit_dispatch<F, Op>>(in, xs, threads);
        case 4: return run_cas<fa::cas_loop<F, Op>>(in, xs, threads);
        case 5: return run_cas<p3008_strategy<F, mx ? kind::fmaximum : kind::fminimum>>(in, xs, threads);
        case 6: return run_cas<p3008_strategy<F, mx ? kind::fmaximum_num : kind::fminimum_num>>(in, xs, threads);
        default:
            if (in.byte() & 1) return run_cas<p3008_strategy<F, mx ? kind::max : kind::min>>(in, xs, threads);
            return run_rmw<p3008_strategy<F, mx ? kind::max : kind::min>>(in, xs, threads);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fc::fuzz::input in(data, size);
    const unsigned head = in.byte();
    const unsigned threads = 1 + in.byte() % max_threads;
    const bool max = head & 1;
    switch ((head >> 1) % 3) {
        case 0: max ? by_strategy<fc::binary32, reduce_op::max>(head >> 3, in, threads)
                    : by_strategy<fc::binary32, reduce_op::min>(head >> 3, in, threads); break;
        case 1: max ? by_strategy<fc::binary16, reduce_op::max>(head >> 3, in, threads)
                    : by_strategy<fc::binary16, reduce_op::min>(head >> 3, in, threads); break;
        default: max ? by_strategy<fc::bfloat16, reduce_op::max>(head >> 3, in, threads)
                     : by_strategy<fc::bfloat16, reduce_op::min>(head >> 3, in, threads); break;
    }
    return 0;
}
