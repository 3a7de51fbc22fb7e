// check/scaling.hpp: every built-in of the scaling path passes its check, every mutant of it is
// killed with the counterexample its bug predicts, and a check is only as good as it is able to
// fail (a subject that is right except at one input is caught there).
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"

namespace fc = flipcheck;
namespace reg = flipcheck::registry;

namespace {
fc::scaling_options options() {
    fc::scaling_options o;
#if defined(FLIPCHECK_EVERY_TRIPLE)
    o.every_triple = true;
#endif
    return o;
}
template <class I>
fc::scaling_report run() {
    auto r = fc::check_scaling<typename I::type>(options());
    r.subject = std::string(I::entry::name);
    return r;
}
}  // namespace

TEST(scaling_check, every_built_in_passes) {
    int n = 0;
    reg::for_each<reg::scaling_instances>([&]<class I>() {
        const auto r = run<I>();
        ++n;
        EXPECT_TRUE(r.passed()) << r.subject << " on " << r.claim << ": " << r.counterexample.value_or("");
        EXPECT_GT(r.checks, 0u) << r.subject;
    });
    EXPECT_GE(n, 40);
}

TEST(scaling_check, every_mutant_is_killed) {
    int n = 0;
    reg::for_each<reg::scaling_mutant_instances>([&]<class I>() {
        const auto r = run<I>();
        ++n;
        EXPECT_FALSE(r.passed()) << r.subject << " on " << r.claim << " survived " << r.checks << " checks";
    });
    EXPECT_GE(n, 12);
}

// A failure's case, replayed alone (check_scaling_case: what FLIPCHECK_CHECK_SCALING's
// Suite.replay runs), fails again with the same counterexample, for every shape it serves.
TEST(scaling_check, every_mutants_case_replays_to_the_same_failure) {
    int n = 0;
    reg::for_each<reg::scaling_mutant_instances>([&]<class I>() {
        using X = typename I::type;
        if constexpr (!fc::quantizer_subject<X> && !fc::scaled_quantizer_subject<X> && !fc::canonical_key_subject<X>) {
            const auto r = run<I>();
            ASSERT_FALSE(r.replay.empty()) << I::entry::name;
            // In the rounding mode it failed in (a mutant killed by check/rounding_modes.hpp's
            // dimension names it first: "under rounding mode upward (right to_nearest): ...").
            const auto again = fc::check_scaling_case<X>(r.replay, r.failed_mode);
            ++n;
            std::string want = r.counterexample.value_or("");
            if (r.failed_mode != fc::rounding_mode::to_nearest) want = want.substr(want.find("): ") + 3);
            EXPECT_EQ(again.counterexample.value_or("(passed)"), want) << I::entry::name << " on " << r.replay;
            if (r.failed_mode != fc::rounding_mode::to_nearest) {
                EXPECT_TRUE(fc::check_scaling_case<X>(r.replay, fc::rounding_mode::to_nearest).passed()) << I::entry::name;
            }
            EXPECT_EQ(again.domain, fc::only_words) << I::entry::name;
        }
    });
    EXPECT_GE(n, 10);
    // A case a subject gets right passes, and a case that lists nothing (where an input is needed) is bad input.
    EXPECT_TRUE(fc::check_scaling_case<fc::mutants::std_max_amax<>>("binary32: 0x3f800000,0xc0000000").passed());
    EXPECT_THROW(fc::check_scaling_case<fc::mutants::e8m0_as_exponent_field<>>("float8_e8m0fnu: "), fc::input_error);
    EXPECT_FALSE(fc::check_scaling_case<fc::mutants::e8m0_as_exponent_field<>>("float8_e8m0fnu: 0x00").passed());
}

// Each bug class's own counterexample: the smallest input the description predicts.
TEST(scaling_check, the_counterexamples_are_the_bugs) {
    auto ce = [](auto r) { return r.counterexample.value_or("(passed)"); };
    // -0 alone: the max stays at -inf, so amax = +inf.
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::ge0_split_amax<>>()).find("n=1 [0x80000000 (-0 zero)] is 0x7f800000"), std::string::npos)
        << ce(fc::check_scaling<fc::mutants::ge0_split_amax<>>());
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::unguarded_unsigned_amax<>>()).find("is 0x80000000 (-0 zero)"), std::string::npos);
    // A NaN alone: the number the fold started from comes out.
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::fmaxf_block_amax<>>()).find("n=1 [0x7fc00000 (nan qnan)] is 0x00000000"), std::string::npos);
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::std_max_amax<>>()).find("n=1 [0x7fc00000 (nan qnan)] is 0x00000000"), std::string::npos);
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::bf16x2_hmax_mx_block_scale<fc::float8_e4m3fn>>()).find("; the oracle's (amax then OCP MX 6.3): 0xff (NaN)"),
              std::string::npos);
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::e8m0_from_exponent_field<fc::float8_e4m3fn>>()).find("amax 0x7f800001 (nan snan) for float8_e4m3fn elements is 0xf7"),
              std::string::npos)
        << ce(fc::check_scaling<fc::mutants::e8m0_from_exponent_field<fc::float8_e4m3fn>>());
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::e8m0_as_exponent_field<>>()).find("code 0x00 decodes to 0x00000000"), std::string::npos);
    // The smallest amax whose quotient overflows: the scale is +inf, not FLT_MAX.
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::fp8_scale_unguarded<fc::float8_e4m3fn>>()).find("is 0x7f800000 (inf inf); the oracle's: 0x7f7fffff"),
              std::string::npos) << ce(fc::check_scaling<fc::mutants::fp8_scale_unguarded<fc::float8_e4m3fn>>());
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::nvfp4_scale_truncated<>>()).find("the NVFP4 scale of block amax"), std::string::npos);
    EXPECT_NE(ce(fc::check_scaling<fc::mutants::fnuz_nan_as_negative_zero<fc::float8_e4m3fnuz>>()).find("code 0x80 decodes to 0x80000000"),
              std::string::npos);
}

// Right everywhere but at one amax: the sampled scale domain still holds it (every binade's edges).
struct wrong_at_one_binade {
    using element = fc::float8_e4m3fn;
    static std::uint8_t scale(std::uint32_t a) {
        const std::uint8_t c = fc::mx_scale_bits<element>(a);
        return a == 0x3f800000u ? std::uint8_t(c + 1) : c;
    }
};
TEST(scaling_check, a_one_input_bug_is_found) {
    const auto r = fc::check_scaling<wrong_at_one_binade>();
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("amax 0x3f800000"), std::string::npos) << *r.counterexample;
}

struct declares_total_order {
    using format = fc::binary32;
    static constexpr fc::nan_policy declared = fc::nan_policy::total_order;
    static std::uint32_t amax(std::span<const std::uint32_t>) { return 0; }
};
TEST(scaling_check, total_order_is_refused_for_an_amax) {
    const auto r = fc::check_scaling<declares_total_order>();
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("declare propagate, ignore or undefined"), std::string::npos);
}

// Under ignore an array with no number may give +0 (amax's identity) or a NaN; a number may not.
struct ignore_all_nan_gives_nan {
    using format = fc::binary32;
    static constexpr fc::nan_policy declared = fc::nan_policy::ignore;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        bool number = false;
        for (std::uint32_t x : xs) number = number || (x & 0x7fffffffu) <= 0x7f800000u;
        return !xs.empty() && !number ? 0x7fc00000u : fc::keyed_amax_ignore<fc::binary32>::amax(xs);
    }
};
struct ignore_all_nan_gives_one {
    using format = fc::binary32;
    static constexpr fc::nan_policy declared = fc::nan_policy::ignore;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        const std::uint32_t a = fc::keyed_amax_ignore<fc::binary32>::amax(xs);
        return !xs.empty() && a == 0 && (xs[0] & 0x7fffffffu) > 0x7f800000u ? 0x3f800000u : a;
    }
};
TEST(scaling_check, ignore_accepts_nan_or_zero_for_an_all_nan_array) {
    EXPECT_TRUE(fc::check_scaling<ignore_all_nan_gives_nan>().passed()) << *fc::check_scaling<ignore_all_nan_gives_nan>().counterexample;
    const auto r = fc::check_scaling<ignore_all_nan_gives_one>();
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("is 0x3f800000"), std::string::npos) << *r.counterexample;
}

// A byte format's amax that is right on every array of 0 to 2 codes and wrong on three (it reads
// the first two only): the exhaustive check must reach every triple to kill it, and does. The
// first failing array in the check's order is [0x00, 0x00, 0x01] (+0, +0, the smallest subnormal).
struct amax_of_the_first_two {
    using format = fc::float8_e4m3fn;
    static constexpr fc::nan_policy declared = fc::nan_policy::propagate;
    static std::uint8_t amax(std::span<const std::uint8_t> xs) {
        return fc::keyed_amax_propagate<fc::float8_e4m3fn>::amax(xs.first(std::min<std::size_t>(xs.size(), 2)));
    }
};
TEST(scaling_check, a_byte_amax_wrong_only_on_triples_dies_on_every_triple) {
    fc::scaling_options pairs, triples;
    triples.every_triple = true;
    EXPECT_TRUE(fc::check_scaling<amax_of_the_first_two>(pairs).passed()) << "wrong on a pair?";
    const auto r = fc::check_scaling<amax_of_the_first_two>(triples);
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.counterexample->find("n=3 [0x00 (0 zero), 0x00 (0 zero), 0x01"), std::string::npos) << *r.counterexample;
}
