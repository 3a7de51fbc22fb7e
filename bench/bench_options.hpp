// What the CPU benchmarks share: their arguments, their clock and the median they report. Every
// bench takes --repeats N (N >= 1); those that run threads take --threads T (T >= 1); a bench's own switches
// are words alone (--no-triples). Anything else prints the usage and exits 2, as bad input does
// everywhere in flipcheck.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "flipcheck/number.hpp"

struct bench_options {
    int repeats = 1;
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::string> switches;  // the bench's own, as given
    bool has(std::string_view s) const { return std::find(switches.begin(), switches.end(), s) != switches.end(); }
};

inline bench_options read_bench_options(int argc, char** argv, const char* usage, int default_repeats, bool takes_threads = false,
                                        std::initializer_list<std::string_view> own = {}) {
    bench_options o;
    o.repeats = default_repeats;
    auto refuse = [usage](const std::string& why) {
        std::fprintf(stderr, "%s\nusage: %s\n", why.c_str(), usage);
        std::exit(2);
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool counted = a == "--repeats" || (takes_threads && a == "--threads");
        if (counted) {
            if (i + 1 >= argc) refuse(a + " needs a number");
            try {
                const std::uint64_t n = flipcheck::parse_number(argv[++i], a, 1u << 20);
                if (n < 1) refuse(a + " must be at least 1");
                (a == "--repeats" ? void(o.repeats = int(n)) : void(o.threads = unsigned(n)));
            } catch (const flipcheck::input_error& e) {
                refuse(e.what());
            }
        } else if (std::find(own.begin(), own.end(), a) != own.end()) {
            o.switches.push_back(a);
        } else {
            refuse("unknown argument '" + a + "'");
        }
    }
    return o;
}

// The wall time of f(), in seconds.
inline double seconds_of(auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The median of v (the mean of the two middle values when there are an even number).
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return 0;
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
