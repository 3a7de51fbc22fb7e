// The CPU sweep against a naive scalar loop, in the same run: one binary32 mapping, all 2^32 keys,
// the same threads. The naive loop checks only the round trip and the successor order, key by key
// with early-exit branches, as one would first write it; the sweep checks all seven laws.
// Prints the median of --repeats runs of each and the ratio.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "flipcheck/check/sweep.hpp"
#include "bench_options.hpp"

namespace fc = flipcheck;
using M = fc::key_mapping<fc::binary32>;  // the key the reducers use (its name is printed)

// One key at a time, with branches: the loop the compiler cannot vectorize.
static std::uint64_t naive_range(std::uint64_t begin, std::uint64_t end) {
    std::uint64_t bad = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
        const auto k = std::uint32_t(i);
        const auto b = M::decode(k);
        if (M::encode(b) != k) { ++bad; continue; }
        if (M::decode(M::encode(k)) != k) { ++bad; continue; }
        if (k != 0xffffffffu && !fc::oracle::total_less(fc::binary32::to_value(b), fc::binary32::to_value(M::decode(k + 1)))) ++bad;
    }
    return bad;
}

static double naive_sweep(unsigned threads, std::uint64_t& bad) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> out(threads);
    {
        std::vector<std::jthread> pool;
        const std::uint64_t n = 1ull << 32, step = n / threads;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] { out[t] = naive_range(t * step, t + 1 == threads ? n : (t + 1) * step); });
    }
    bad = 0;
    for (auto x : out) bad += x;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char** argv) {
    const bench_options opt = read_bench_options(argc, argv, "sweep_bench [--repeats N] [--threads T]", 5, true);
    const int repeats = opt.repeats;
    const unsigned threads = opt.threads;
    std::vector<double> sweep_s, naive_s;
    for (int r = 0; r < repeats; ++r) {  // interleaved, so drift hits both alike
        fc::sweep_options o;
        o.threads = threads;
        const fc::sweep_report rep = fc::sweep<M>(o);
        if (!rep.passed()) return std::fprintf(stderr, "sweep did not pass\n"), 1;
        sweep_s.push_back(rep.seconds);
        std::uint64_t bad = 0;
        naive_s.push_back(naive_sweep(threads, bad));
        if (bad) return std::fprintf(stderr, "naive loop found %llu bad keys\n", (unsigned long long)bad), 1;
    }
    const double s = median(sweep_s), n = median(naive_s), keys = 4294967296.0;
    std::printf("binary32 %s, all 2^32 keys, %u threads, median of %d runs\n", std::string(M::name).c_str(), threads, repeats);
    std::printf("%-34s %10s %12s\n", "loop", "seconds", "keys/s");
    std::printf("%-34s %10.3f %10.2f G\n", "flipcheck sweep (all 7 laws)", s, keys / s / 1e9);
    std::printf("%-34s %10.3f %10.2f G\n", "naive scalar (round trip + order)", n, keys / n / 1e9);
    std::printf("ratio naive/sweep: %.1fx\n", n / s);
    return 0;
}
