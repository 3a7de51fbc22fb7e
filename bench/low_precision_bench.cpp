// The low-precision formats' share of the main job and of the release tests, against a baseline in
// the same run (one binary16 sweep of the format-aware key: all 65536 keys, every law):
//   laws     every (mapping, format) instance of registry::low_precision_sweepable, every law
//   pairs    every byte reducer and keyed fold under every policy, on every array of <= 2 codes,
//            plus the packed fp4 pairs (what the main job runs)
//   triples  the same on every array of 3 codes (the release test suite)
// Prints the median of --repeats runs of each and its ratio to the baseline.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "flipcheck/catalog/byte_reducers.hpp"
#include "flipcheck/check/sweep.hpp"
#include "bench_options.hpp"

namespace fc = flipcheck;

namespace {

std::uint64_t sink = 0;  // keeps the work observable

void laws() {
    fc::registry::for_each<fc::registry::low_precision_sweepable>([]<class I>() {
        fc::sweep_options o;
        o.threads = 1;
        sink += fc::sweep<typename I::type>(o).failing_keys;
    });
}

void arrays(int max_length, int min_length) {
    fc::registry::for_each<fc::registry::low_precision_formats>([&]<class E>() {
        for (int n = min_length; n <= max_length; ++n)
            for (const auto& r : fc::check_byte_reducers<typename E::type>(n)) sink += r.failures;
    });
    fc::registry::for_each<fc::registry::pair_reducers>([&]<class E>() {
        for (int n = min_length; n <= max_length; ++n)
            for (fc::reduce_op op : {fc::reduce_op::max, fc::reduce_op::min}) sink += fc::check_pair_reducer<E>(op, n).failures;
    });
}

void baseline() {
    fc::sweep_options o;
    o.threads = 1;
    sink += fc::sweep<fc::format_key<fc::binary16>>(o).failing_keys;
}

}  // namespace

int main(int argc, char** argv) {
    const bench_options opt = read_bench_options(argc, argv, "low_precision_bench [--repeats N] [--no-triples]", 5, false, {"--no-triples"});
    const int repeats = opt.repeats;
    const bool triples = !opt.has("--no-triples");
    std::vector<double> base, law, pair, triple;
    for (int r = 0; r < repeats; ++r) {  // interleaved, so drift hits all alike
        base.push_back(seconds_of(baseline));
        law.push_back(seconds_of(laws));
        pair.push_back(seconds_of([] { arrays(2, 0); }));
        if (triples) triple.push_back(seconds_of([] { arrays(3, 3); }));
    }
    const double b = median(base);
    std::printf("low-precision formats, median of %d runs (baseline: binary16 format_key sweep, 1 thread, %.3f ms)\n", repeats, b * 1e3);
    std::printf("  %-52s %10.3f ms  %8.2fx baseline\n", "every law, every (mapping, format) instance, 1 thread", median(law) * 1e3, median(law) / b);
    std::printf("  %-52s %10.3f ms  %8.2fx baseline\n", "every byte reducer x policy on all arrays n <= 2", median(pair) * 1e3, median(pair) / b);
    if (triples)
        std::printf("  %-52s %10.3f s   %8.2fx baseline\n", "the same on all arrays n = 3", median(triple), median(triple) / b);
    std::printf("  main job share (laws + pairs): %.3f s of the 1 s budget\n", median(law) + median(pair));
    return sink == ~std::uint64_t(0) ? 1 : 0;
}
