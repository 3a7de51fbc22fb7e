// std::strong_order on floats against IEEE totalOrder, on every pair of 16-bit patterns widened
// exactly to float: C++20 [cmp.alg] says strong_order on IEEE floating point "is the ordering
// consistent with the totalOrder operation". Widening keeps totalOrder (payloads move up 13 or 16
// bits in place), so 2^32 pairs of each 16-bit format check every class against every class.
#include "flipcheck/run/claims.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>

#include <fmt/format.h>

namespace flipcheck::run {
namespace {

std::uint32_t widen_binary16(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 31u;
    std::uint32_t man = h & 0x3ffu;
    if (exp == 31) return sign | 0x7f800000u | (man << 13);
    if (exp != 0) return sign | ((exp + 112) << 23) | (man << 13);
    if (man == 0) return sign;
    std::uint32_t e = 113;  // a subnormal man * 2^-24 is normal in float: shift its leading one up
    while (!(man & 0x400u)) man <<= 1, --e;
    return sign | (e << 23) | ((man & 0x3ffu) << 13);
}
std::uint32_t widen_bfloat16(std::uint16_t h) { return std::uint32_t(h) << 16; }

// totalOrder on the 16-bit patterns: sign-magnitude order (IEEE 754-2019 5.10).
int key(std::uint16_t h) { return h & 0x8000u ? 0xffff - h : h + 0x8000; }

struct table {
    std::array<float, 65536> f;
    std::array<int, 65536> k;
};

claim_report check(const char* format, std::uint32_t (*widen)(std::uint16_t), bool quick) {
    auto t = std::make_unique<table>();
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const std::uint32_t w = widen(std::uint16_t(h));
        std::memcpy(&t->f[h], &w, 4);
        t->k[h] = key(std::uint16_t(h));
    }
    const auto agrees = [&](std::uint32_t a, std::uint32_t b) {
        const auto so = std::strong_order(t->f[a], t->f[b]);
        const int d = t->k[a] - t->k[b];
        return (so < 0) == (d < 0) && (so == 0) == (d == 0);
    };
    constexpr std::uint64_t none = ~std::uint64_t(0);
    std::uint64_t first = none, pairs = 0;
    if (quick) {
        std::mt19937_64 rng(7);
        for (pairs = 0; pairs < (1u << 22); ++pairs) {
            const std::uint32_t a = rng() & 0xffff, b = rng() & 0xffff;
            if (!agrees(a, b)) {
                first = std::uint64_t(a) << 16 | b;
                break;
            }
        }
    } else {
        const unsigned n = std::max(1u, std::thread::hardware_concurrency());
        std::vector<std::uint64_t> firsts(n, none);
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < n; ++i)
            pool.emplace_back([&, i] {
                for (std::uint32_t a = i; a < 65536; a += n) {
                    bool ok = true;
                    for (std::uint32_t b = 0; b < 65536; ++b) ok &= agrees(a, b);  // branch-free inner loop
                    if (ok) continue;
                    for (std::uint32_t b = 0; b < 65536; ++b)
                        if (!agrees(a, b)) {
                            firsts[i] = std::uint64_t(a) << 16 | b;
                            return;
                        }
                }
            });
        for (auto& th : pool) th.join();
        first = *std::min_element(firsts.begin(), firsts.end());
        pairs = std::uint64_t(1) << 32;
    }
    claim_report r;
    r.claim = fmt::format("std::strong_order(float) is IEEE totalOrder on every pair of {} values widened to float", format);
    r.exhaustive = !quick;
    r.holds = first == none;
    if (r.holds)
        r.verdict = quick ? fmt::format("holds on {} random pairs (sampled, not exhaustive)", pairs)
                          : fmt::format("holds on all {} pairs (exhaustive)", pairs);
    else {
        const auto a = std::uint16_t(first >> 16), b = std::uint16_t(first);
        const auto so = std::strong_order(t->f[a], t->f[b]);
        r.verdict = fmt::format("BROKEN: strong_order(0x{:04x}, 0x{:04x}) is {}, totalOrder says {}", a, b,
                                so < 0 ? "less" : so > 0 ? "greater" : "equal", t->k[a] < t->k[b] ? "less" : t->k[a] > t->k[b] ? "greater" : "equal");
    }
    return r;
}

}  // namespace

std::vector<claim_report> strong_order_claims(bool quick) {
    return {check("binary16", widen_binary16, quick), check("bfloat16", widen_bfloat16, quick)};
}

}  // namespace flipcheck::run
