// Every pair (a, b) of a 16-bit format, 2^32 of them: max and min of {a, b} folded through the
// mapping's keys (keyed_reducer, the 2-element sequential fold) must agree with the oracle under
// the total_order, propagate and ignore NaN policies (zero policy ordered; --zero-equal adds
// equal, doubling the time). The hot loop calls the same per-element helpers as
// keyed_reducer::sequential and the oracle's own arg_reduce/same_result on the pair; a pair that
// disagrees is re-checked through reducer_laws::agreement, which writes the counterexample.
// Measured in Release on the 2-core development machine: about 120 s of CPU time per format (61 s
// wall for bfloat16 on both cores; bench/RESULTS.md, issue 58).
//
//   exhaustive_pairs [--threads N] [--zero-equal] [--expect-failure] [FORMAT...]   (default: every 16-bit format)
//
// --expect-failure runs the check on mutants::zeros_swapped instead and succeeds only if it fails.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/reducer.hpp"
#include "flipcheck/catalog/registry.hpp"

namespace fc = flipcheck;
using fc::nan_policy;
using fc::reduce_op;
using fc::zero_policy;

namespace {

struct failure {
    fc::policy p;
    reduce_op op;
    std::uint16_t a, b;
    fc::counterexample c;
};

struct findings {
    std::mutex mu;
    std::vector<failure> first;
    std::atomic<std::uint64_t> count{0};
    static constexpr std::size_t limit = 8;
};

// binary16::to_value rebuilds the binary32 fields with branches, which doubled the run time; the
// oracle is handed the same format with to_value memoized in a 2^16-entry table instead.
template <fc::format F>
struct memoized : F {
    using value_type = typename F::value_type;
    static inline const std::vector<value_type> table = [] {
        std::vector<value_type> t(std::size_t(1) << F::width);
        for (std::size_t b = 0; b < t.size(); ++b) t[b] = F::to_value(typename F::storage(b));
        return t;
    }();
    static value_type to_value(typename F::storage b) noexcept { return table[b]; }
};

template <fc::mapping M>
void record(fc::policy p, reduce_op op, typename M::format::storage a, typename M::format::storage b, findings& out) {
    using F = typename M::format;
    using S = typename F::storage;
    const S xs[2] = {a, b};
    const std::span<const S> pair(xs, 2);
    const auto c = fc::reducer_laws<F>::agreement(p, op, pair, fc::keyed_reducer<M>::sequential(p, op, pair));
    ++out.count;
    std::lock_guard g(out.mu);
    if (c && out.first.size() < findings::limit) out.first.push_back({p, op, a, b, *c});
}

// Does {a, b} folded through the keys agree with the oracle under (P, Z, Op)? The same steps as
// keyed_reducer::sequential and oracle::reduce, minus the spans and optionals.
template <fc::mapping M, nan_policy P, zero_policy Z, reduce_op Op>
inline bool agrees(const typename M::format::storage (&xs)[2]) {
    using F = typename M::format;
    using O = memoized<F>;  // the oracle's view of F
    using R = fc::keyed_reducer<M>;
    constexpr fc::policy p{P, Z, fc::tie_policy::lowest_index};
    const auto r = R::merge(Op, R::lift(p, Op, xs[0]), R::lift(p, Op, xs[1]));
    const auto got = r.seen ? M::decode(r.word) : F::quiet_nan;  // what keyed_reducer::finish returns
    const std::size_t best = fc::oracle::arg_reduce<O>(p, Op, xs, 2);
    const auto want = xs[best == fc::oracle::npos ? 0 : best];  // what oracle::reduce returns
    return fc::oracle::same_result<O>(p, want, got);
}

// Which of the six (NaN policy, op) checks {a, b} passes, a bit each.
template <fc::mapping M, zero_policy Z>
inline unsigned passes(const typename M::format::storage (&xs)[2]) {
    constexpr nan_policy T = nan_policy::total_order, P = nan_policy::propagate, I = nan_policy::ignore;
    constexpr reduce_op mx = reduce_op::max, mn = reduce_op::min;
    return unsigned(agrees<M, T, Z, mx>(xs)) | unsigned(agrees<M, T, Z, mn>(xs)) << 1 | unsigned(agrees<M, P, Z, mx>(xs)) << 2 |
           unsigned(agrees<M, P, Z, mn>(xs)) << 3 | unsigned(agrees<M, I, Z, mx>(xs)) << 4 | unsigned(agrees<M, I, Z, mn>(xs)) << 5;
}

// All b for one a, every (NaN policy, op) in one loop so the decoded values are shared. A first
// loop only asks whether any pair of the row fails (no call and no exit inside it, so that it can
// vectorize); a row with a failure is walked again pair by pair to record them.
template <fc::mapping M, zero_policy Z>
void row(std::uint16_t a, findings& out) {
    using S = typename M::format::storage;
    constexpr nan_policy T = nan_policy::total_order, P = nan_policy::propagate, I = nan_policy::ignore;
    constexpr reduce_op mx = reduce_op::max, mn = reduce_op::min;
    unsigned all = 0x3f;
    for (std::uint32_t i = 0; i <= 0xffff; ++i) {
        const S xs[2] = {a, S(i)};
        all &= passes<M, Z>(xs);
    }
    if (all == 0x3f) [[likely]]
        return;
    for (std::uint32_t i = 0; i <= 0xffff; ++i) {
        const S xs[2] = {a, S(i)};
        const unsigned ok = passes<M, Z>(xs);
        if (ok == 0x3f) [[likely]]
            continue;
        for (unsigned k = 0; k < 6; ++k)
            if (!(ok >> k & 1)) record<M>({nan_policy(k / 2 == 0 ? T : k / 2 == 1 ? P : I), Z, fc::tie_policy::lowest_index},
                                          k % 2 ? mn : mx, a, S(i), out);
    }
}

// Returns the number of disagreeing (pair, policy, op) checks.
template <fc::mapping M>
std::uint64_t check(unsigned threads, bool zero_equal, bool stop_early) {
    using F = typename M::format;
    const auto t0 = std::chrono::steady_clock::now();
    findings out;
    std::atomic<std::uint32_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (std::uint32_t a; (a = next.fetch_add(1)) <= 0xffff;) {
                if (stop_early && out.count.load() > 0) return;  // a mutant: the first failures will do
                row<M, zero_policy::ordered>(std::uint16_t(a), out);
                if (zero_equal) row<M, zero_policy::equal>(std::uint16_t(a), out);
            }
        });
    for (auto& t : pool) t.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int policies = zero_equal ? 12 : 6;
    std::printf("%s %s: %s2^32 pairs x %d (policy, op): %llu disagreements, %.1f s on %u threads\n",
                std::string(F::name).c_str(), std::string(M::name).c_str(), stop_early ? "up to " : "", policies,
                static_cast<unsigned long long>(out.count.load()), s, threads);
    for (const failure& f : out.first)
        std::printf("  %s under nan=%s zero=%s of {%s, %s}: expected %s, got %s\n", std::string(fc::to_string(f.op)).c_str(),
                    std::string(fc::to_string(f.p.nan)).c_str(), std::string(fc::to_string(f.p.zero)).c_str(),
                    fc::hex(f.a, 16).c_str(), fc::hex(f.b, 16).c_str(), f.c.expected_empty ? "none" : fc::hex(f.c.expected, 16).c_str(),
                    f.c.actual_empty ? "none" : fc::hex(f.c.actual, 16).c_str());
    return out.count.load();
}

template <fc::format F>
std::uint64_t run(bool mutant, unsigned threads, bool zero_equal) {
    if (mutant) return check<fc::mutants::zeros_swapped<F>>(threads, zero_equal, true);
    return check<fc::key_mapping<F>>(threads, zero_equal, false);
}

}  // namespace

int main(int argc, char** argv) {
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    bool zero_equal = false, expect_failure = false;
    std::vector<std::string> formats;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::max(1, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--zero-equal")) zero_equal = true;
        else if (!std::strcmp(argv[i], "--expect-failure")) expect_failure = true;
        else formats.emplace_back(argv[i]);
    }
    using pairable = fc::registry::formats_between<1, 16>;  // 2^32 pairs at most
    std::string names;
    fc::registry::for_each<pairable>([&]<class E>() { names += (names.empty() ? "" : " or ") + std::string(E::name); });
    if (formats.empty()) fc::registry::for_each<pairable>([&]<class E>() { formats.emplace_back(E::name); });
    int status = 0;
    for (const std::string& f : formats) {
        std::uint64_t bad = 0;
        if (!fc::registry::with_name<pairable>(f, [&]<class E>() { bad = run<typename E::type>(expect_failure, threads, zero_equal); })) {
            std::fprintf(stderr, "unknown format %s (%s)\n", f.c_str(), names.c_str());
            return 2;
        }
        if ((bad != 0) != expect_failure) status = 1;
    }
    if (expect_failure && status) std::printf("FAILED: the mutant was not caught\n");
    return status;
}
