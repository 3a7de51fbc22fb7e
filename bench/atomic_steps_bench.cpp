// What the interleaved_steps stage (check/reducers.hpp, check/interleaving.hpp) costs an atomic strategy's check,
// against the other four stages of the same check in the same run, and how soon it catches a
// compare-and-swap loop that loses an update (which the other stages pass):
//   atomic_steps_bench [--repeats N]      (median of N runs of each, default 5)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "bench_options.hpp"

namespace fc = flipcheck;

namespace {

// A CAS-loop float max on sign-flip keys; Stale goes on from the value read before its loop.
template <bool Stale>
struct cas_max {
    using format = fc::binary32;
    static constexpr std::string_view name = Stale ? "cas_max_stale" : "cas_max";
    static constexpr fc::reduce_op op = fc::reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::undefined, fc::zero_policy::ordered, fc::tie_policy::any};
    static constexpr std::uint32_t init() noexcept { return 0; }
    static constexpr std::uint32_t key(std::uint32_t b) { return b >> 31 ? ~b : b | 0x80000000u; }
    template <class Word>
    static void update(Word& w, std::uint32_t bits) noexcept {
        const std::uint32_t k = key(bits), first = w.load();
        std::uint32_t seen = first;
        while (k > (Stale ? first : seen)) {
            const std::uint32_t old = w.cas(seen, k);
            if (old == seen) break;
            seen = old;
        }
    }
    static std::uint32_t result(std::uint32_t w) noexcept { return w >> 31 ? w & 0x7fffffffu : ~w; }
};

template <class A>
void measure(int repeats) {
    std::vector<double> others, steps;
    std::uint64_t step_cases = 0;
    bool caught = false;
    for (int r = 0; r < repeats; ++r) {
        for (bool stepped : {false, true}) {
            fc::check_options o;  // push_back: GCC 12 -O3 warns (-Wnonnull) on assigning a braced list here
            if (stepped) o.stages.push_back(fc::check_stage::interleaved_steps);
            else
                for (auto s : {fc::check_stage::edge_battery, fc::check_stage::random_arrays, fc::check_stage::order_independence,
                               fc::check_stage::large_arrays})
                    o.stages.push_back(s);
            const auto t0 = std::chrono::steady_clock::now();
            const fc::check_report rep = fc::check_atomic<A>(o);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            (stepped ? steps : others).push_back(s);
            if (stepped) step_cases = rep.cases(), caught = !rep.passed();
        }
    }
    const double a = median(others), b = median(steps);
    std::printf("  %-32s %9.3f s   %9.3f s  %6.2fx   %7llu runs  %s\n", std::string(A::name).c_str(), a, b, b / a,
                static_cast<unsigned long long>(step_cases), caught ? "FAIL (caught)" : "pass");
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = read_bench_options(argc, argv, "atomic_steps_bench [--repeats N]", 5).repeats;
    std::printf("atomic strategies, median of %d runs: the four other stages, then interleaved_steps alone\n", repeats);
    std::printf("  %-32s %11s   %11s  %7s   %12s\n", "strategy", "4 stages", "steps", "ratio", "steps' runs");
    measure<fc::atomic::mapped<fc::sign_flip_branchless<fc::binary32>, fc::nan_policy::total_order, fc::reduce_op::max>>(repeats);
    measure<fc::atomic::cas_loop<fc::binary32, fc::reduce_op::max>>(repeats);
    measure<cas_max<false>>(repeats);
    measure<cas_max<true>>(repeats);
    return 0;
}
