// Seed 003's YAMR on the device: how often the race gives a wrong maximum (arrays of 1024 distinct
// positive floats, where the sentinel cannot matter), for the kernel as written and with
// `volatile`, and the sentinel bug. Run it under `compute-sanitizer --tool racecheck` to see the
// race flagged. Exit status 0; the numbers are the result.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/hd.hpp"
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/yamr.hpp"

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
    try {
        if (const std::string why = flipcheck::gpu::skip_reason(); !why.empty()) return std::printf("SKIPPED: %s\n", why.c_str()), 0;
    } catch (const flipcheck::device_error& e) {
        return std::fprintf(stderr, "yamr_demo: %s\n", e.what()), 3;
    }
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(1.0f, 1e6f);
    for (bool vol : {false, true}) {
        int wrong = 0;
        for (int r = 0; r < rounds; ++r) {
            std::vector<std::uint32_t> xs(1024);
            float best = 0;
            for (auto& x : xs) {
                const float f = dist(rng);
                best = f > best ? f : best;
                x = flipcheck::bit_cast<std::uint32_t>(f);
            }
            wrong += flipcheck::gpu::yamr(xs, vol) != flipcheck::bit_cast<std::uint32_t>(best);
        }
        std::printf("YAMR%s: %d of %d launches of 1024 threads returned a value that is not the maximum (%.3f%%)\n",
                    vol ? " (volatile)" : "", wrong, rounds, 100.0 * wrong / rounds);
    }
    const std::uint32_t below = flipcheck::gpu::yamr({0xff7fffffu, 0xff800000u}, false);
    std::printf("YAMR sentinel: [-FLT_MAX, -inf] -> 0x%08x (expected 0xff7fffff)\n", below);
    return 0;
}
