// P3008's fetch operations on a CPU word, for every format: on every pair of edge values the
// stored result is what the oracle says under the declared policy and the returned value is the
// old one; reducing an array in many orders always agrees with the oracle. A wrong combine (float
// compares that call -0 == +0, or the NaN handling of the other family) must be caught.
#include "flipcheck/p3008.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"

namespace fc = flipcheck;
namespace p3 = flipcheck::p3008;

namespace {

// The first edge pair (old, operand) whose stored result or returned value is wrong, if any.
template <fc::format F, class Apply>
std::optional<std::pair<typename F::storage, typename F::storage>> first_wrong_pair(p3::kind k, Apply apply) {
    using S = typename F::storage;
    const auto edges = fc::edge_values<F>();
    for (S a : edges)
        for (S b : edges) {
            fc::atomic::sequential_word<S> w{a};
            const S old = apply(w, b);
            const S xs[] = {a, b};
            if (old != a || fc::reducer_laws<F>::agreement(p3::declared(k), p3::op_of(k), xs, w.value)) return {{a, b}};
        }
    return std::nullopt;
}

template <fc::format F>
void expect_every_kind_right() {
    using S = typename F::storage;
    std::mt19937_64 rng(11);
    for (p3::kind k : p3::all_operations) {
        const auto wrong = first_wrong_pair<F>(k, [k](auto& w, S v) { return p3::apply<F>(k, w, v); });
        EXPECT_FALSE(wrong) << F::name << " " << p3::to_string(k) << " on old=0x" << std::hex << wrong->first
                            << " operand=0x" << wrong->second;
        // A whole array folded into one object in random orders (each fetch is one atomic step).
        std::vector<S> xs = fc::edge_values<F>();
        for (int round = 0; round < 40; ++round) {
            std::shuffle(xs.begin(), xs.end(), rng);
            const std::size_t n = 1 + rng() % xs.size();
            fc::atomic::sequential_word<S> w{xs[0]};
            for (std::size_t i = 1; i < n; ++i) p3::apply<F>(k, w, xs[i]);
            const std::span<const S> s(xs.data(), n);
            const auto c = fc::reducer_laws<F>::agreement(p3::declared(k), p3::op_of(k), s, w.value);
            EXPECT_FALSE(c) << F::name << " " << p3::to_string(k) << ": expected 0x" << std::hex << c->expected
                            << " got 0x" << c->actual;
            if (c) return;
        }
    }
}

}  // namespace

TEST(p3008, binary16) { expect_every_kind_right<fc::binary16>(); }
TEST(p3008, bfloat16) { expect_every_kind_right<fc::bfloat16>(); }
TEST(p3008, binary32) { expect_every_kind_right<fc::binary32>(); }
TEST(p3008, binary64) { expect_every_kind_right<fc::binary64>(); }

// IEEE maximum/minimum give a quiet NaN, and maximumNumber/minimumNumber of two NaNs too. The
// oracle's propagate accepts any NaN, so this is checked here: over every edge pair (signalling
// NaNs stored or as operands included) a NaN result of fetch_fmaximum/fetch_fminimum and their
// _num forms has its quiet bit set. (The audit's P3008 rows found the _num forms keeping a stored
// signalling NaN when the operand was a NaN too.)
template <fc::format F>
void expect_quiet_nan_results() {
    using S = typename F::storage;
    const auto edges = fc::edge_values<F>();
    int signalling_inputs = 0;
    for (p3::kind k : {p3::kind::fmaximum, p3::kind::fminimum, p3::kind::fmaximum_num, p3::kind::fminimum_num})
        for (S a : edges)
            for (S b : edges) {
                signalling_inputs += F::classify(a).kind == fc::fp_class::signaling_nan;
                fc::atomic::sequential_word<S> w{a};
                p3::apply<F>(k, w, b);
                if (F::is_nan_bits(w.value)) {
                    EXPECT_TRUE(w.value & F::quiet_bit) << F::name << " " << p3::to_string(k) << " stored a signalling NaN 0x"
                                                        << std::hex << w.value << " from old=0x" << a << " operand=0x" << b;
                }
            }
    EXPECT_GT(signalling_inputs, 0) << "the edge values hold no signalling NaN: this test would prove nothing";
}
TEST(p3008, nan_results_are_quiet) {
    expect_quiet_nan_results<fc::binary16>();
    expect_quiet_nan_results<fc::bfloat16>();
    expect_quiet_nan_results<fc::binary32>();
    expect_quiet_nan_results<fc::binary64>();
}

TEST(p3008, declared_policies_are_the_papers) {
    EXPECT_EQ(p3::declared(p3::kind::max).nan, fc::nan_policy::undefined);
    EXPECT_EQ(p3::declared(p3::kind::fminimum).nan, fc::nan_policy::propagate);
    EXPECT_EQ(p3::declared(p3::kind::fmaximum_num).nan, fc::nan_policy::ignore);
    for (p3::kind k : p3::all_operations) EXPECT_EQ(p3::declared(k).zero, fc::zero_policy::ordered);
    EXPECT_EQ(p3::op_of(p3::kind::fminimum_num), fc::reduce_op::min);
}

// The checks can fail: a fetch_fmaximum built on float compares (as `a > b ? a : b` with a NaN
// test) keeps -0 over +0, and a fetch_fmaximum that ignores NaNs is the _num variant, not maximum.
TEST(p3008, catches_wrong_combines) {
    using F = fc::binary32;
    using S = std::uint32_t;
    auto float_compare = [](auto& w, S v) {
        const S old = w.load();
        const float a = F::to_value(old), b = F::to_value(v);
        if (a != a) return old;
        if (b != b || b > a) w.cas(old, b != b ? S(v | F::quiet_bit) : v);
        return old;
    };
    const auto zero = first_wrong_pair<F>(p3::kind::fmaximum, float_compare);
    ASSERT_TRUE(zero);
    EXPECT_EQ(fc::oracle::isnan(F::to_value(zero->first)) || fc::oracle::isnan(F::to_value(zero->second)), false);
    auto ignoring = [](auto& w, S v) { return p3::fetch<F, p3::kind::fmaximum_num>::apply(w, v); };
    EXPECT_TRUE(first_wrong_pair<F>(p3::kind::fmaximum, ignoring));
}
