// Reach: over 100k draws of gen::bits<F>(), every IEEE class and each sign must come up in at
// least 2% of draws, in every format. The same table for RapidCheck's own arbitrary<float>() is
// printed for comparison (it reaches neither NaN, infinity, -0 nor subnormals).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>
#include <cstdio>
#include <iostream>
#include <string>

#include "flipcheck/format.hpp"
#include "flipcheck/rapidcheck/generators.hpp"

namespace fc = flipcheck;

namespace {

constexpr int draws = 100'000;
constexpr std::array<const char*, 9> class_names{"NaN", "+inf", "-inf", "+0", "-0", "subnormal", "normal", "negative", "positive"};
using counts = std::array<int, class_names.size()>;

template <fc::format F>
void count(counts& c, typename F::storage b) {
    const fc::classification k = F::classify(b);
    if (k.is_nan()) ++c[0];
    if (k.kind == fc::fp_class::infinite) ++c[k.negative ? 2 : 1];
    if (k.kind == fc::fp_class::zero) ++c[k.negative ? 4 : 3];
    if (k.kind == fc::fp_class::subnormal) ++c[5];
    if (k.kind == fc::fp_class::normal) ++c[6];
    ++c[k.negative ? 7 : 8];
}

// Draws as RapidCheck does in a run: a fresh split of the random state and a size that sweeps 0..100.
template <class T, class Each>
void sample(const rc::Gen<T>& g, Each each, int n = draws) {
    rc::Random random(20240601);
    for (int i = 0; i < n; ++i) each(g(random.split(), i % (rc::kNominalSize + 1)).value());
}

void print_row(const std::string& name, const counts& c) {
    std::printf("%-22s", name.c_str());
    for (int n : c) std::printf(" %9.2f", 100.0 * n / draws);
    std::printf("\n");
}

void print_header() {
    std::printf("%% of %d draws         ", draws);
    for (const char* n : class_names) std::printf(" %9s", n);
    std::printf("\n");
}

template <fc::format F>
counts reach() {
    counts c{};
    sample(fc::gen::bits<F>(), [&](typename F::storage b) { count<F>(c, b); });
    return c;
}

template <fc::format F>
void expect_reach(const counts& c) {
    for (std::size_t i = 0; i < c.size(); ++i)
        EXPECT_GE(100.0 * c[i] / draws, 2.0) << F::name << ": class " << class_names[i] << " is under 2% of draws";
}

}  // namespace

TEST(generators, bits_reach_every_class_in_every_format) {
    const counts c16 = reach<fc::binary16>(), cbf = reach<fc::bfloat16>(), c32 = reach<fc::binary32>(), c64 = reach<fc::binary64>();
    counts arbitrary{};
    sample(rc::gen::arbitrary<float>(), [&](float f) { count<fc::binary32>(arbitrary, fc::bit_cast<std::uint32_t>(f)); });

    print_header();
    print_row("gen::bits<binary16>", c16);
    print_row("gen::bits<bfloat16>", cbf);
    print_row("gen::bits<binary32>", c32);
    print_row("gen::bits<binary64>", c64);
    print_row("rc arbitrary<float>", arbitrary);
    std::fflush(stdout);

    expect_reach<fc::binary16>(c16);
    expect_reach<fc::bfloat16>(cbf);
    expect_reach<fc::binary32>(c32);
    expect_reach<fc::binary64>(c64);
}

// Arrays reach the shapes the reducers care about, each in at least 0.5% of 10k draws.
TEST(generators, arrays_reach_their_shapes) {
    constexpr int arrays = 10'000;
    using F = fc::binary32;
    int empty = 0, block_edge = 0, large = 0, nan_first = 0, nan_last = 0, all_neg_inf = 0, all_nan = 0, both_zeros = 0;
    sample(fc::gen::arrays<F>(), [&](const std::vector<std::uint32_t>& xs) {
        const auto nan = [](std::uint32_t b) { return F::is_nan_bits(b); };
        empty += xs.empty();
        block_edge += xs.size() == 1023 || xs.size() == 1024 || xs.size() == 1025;
        large += xs.size() > 1025;
        if (xs.size() < 2) return;
        nan_first += nan(xs.front()) && !nan(xs[1]);
        nan_last += nan(xs.back()) && !nan(xs[xs.size() - 2]);
        all_neg_inf += std::all_of(xs.begin(), xs.end(), [](std::uint32_t b) { return b == 0xff800000u; });
        all_nan += std::all_of(xs.begin(), xs.end(), nan);
        both_zeros += std::count(xs.begin(), xs.end(), 0u) > 0 && std::count(xs.begin(), xs.end(), 0x80000000u) > 0;
    }, arrays);
    const char* names[] = {"empty", "1023..1025", "> 1025", "NaN first", "NaN last", "all -inf", "all NaN", "both zeros"};
    int i = 0;
    for (int n : {empty, block_edge, large, nan_first, nan_last, all_neg_inf, all_nan, both_zeros})
        EXPECT_GE(n, arrays / 200) << names[i++];
}

// Shrinking terminates and goes toward simpler patterns: for every binary16 pattern, +0 is the
// first candidate, a NaN offers the canonical quiet NaN, and every candidate is strictly simpler
// under one well-founded order: numbers before NaNs; numbers by (magnitude, sign); NaNs by
// (payload without the quiet bit, signalling, sign).
TEST(generators, shrinking_is_well_founded) {
    using F = fc::binary16;
    using S = F::storage;
    auto rank = [](S b) {
        const unsigned sign = F::negative(b);
        if (!F::is_nan_bits(b)) return std::pair<unsigned, unsigned>(0, unsigned(b & ~F::sign_mask) << 1 | sign);
        const unsigned low = b & (F::quiet_bit - 1u), signalling = !(b & F::quiet_bit);
        return std::pair<unsigned, unsigned>(1, low << 2 | signalling << 1 | sign);
    };
    for (std::uint32_t i = 0; i <= 0xffff; ++i) {
        const S b = S(i);
        auto seq = fc::gen::detail::shrink_bits<F>(b);
        bool first = true, offers_qnan = false;
        while (auto c = seq.next()) {
            if (first) {
                ASSERT_EQ(*c, 0) << "the first shrink of " << fc::gen::show<F>(b) << " is not +0";
            }
            first = false;
            offers_qnan |= *c == F::quiet_nan;
            ASSERT_LT(rank(*c), rank(b)) << fc::gen::show<F>(b) << " shrinks to " << fc::gen::show<F>(*c);
        }
        EXPECT_EQ(first, b == 0) << fc::gen::show<F>(b) << (b ? " has no shrinks" : " shrinks");
        if (F::is_nan_bits(b) && b != F::quiet_nan) {
            EXPECT_TRUE(offers_qnan) << fc::gen::show<F>(b);
        }
    }
}
