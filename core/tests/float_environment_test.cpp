// float_environment.hpp and check/rounding_modes.hpp: a check runs in IEEE's default environment
// whatever the process has (FTZ/DAZ from a -ffast-math object, another rounding mode), restores
// the process's own after, and checks a subject in each rounding mode it declares.
// Built twice: as float_environment_test, and as float_environment_fast_math_test, linked with an
// object compiled with -ffast-math (fast_math_object.cpp), whose start-up code (GCC's
// crtfastmath.o) sets FTZ and DAZ before main.
#include <gtest/gtest.h>

#include <cfenv>
#include <map>
#include <thread>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/float_environment.hpp"
#include "flipcheck/mapping.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define FLIPCHECK_TEST_MXCSR 1
#endif

namespace fc = flipcheck;

namespace {

// The process's environment for the test's length: FTZ and DAZ (x86), a rounding mode.
struct process_environment {
    fc::float_environment was = fc::current_float_environment();
    std::fenv_t saved{};
    process_environment(bool flush, int mode) {
        std::fegetenv(&saved);
#if FLIPCHECK_TEST_MXCSR
        if (flush) _mm_setcsr(_mm_getcsr() | 0x8040u);
#else
        (void)flush;
#endif
        std::fesetround(mode);
    }
    ~process_environment() { std::fesetenv(&saved); }
};

// Binary32 keys around the zeros under the sign flip (-0 is key 0x7fffffff, +0 0x80000000): 2^25
// keys holding every subnormal of both signs, which DAZ reads as zero.
fc::sweep_options subnormal_keys() {
    fc::sweep_options o;
    o.range = fc::key_range{0x7f000000u, 0x81000000u};
    o.threads = 2;
    return o;
}

}  // namespace

#if defined(FLIPCHECK_TEST_FAST_MATH_LINKED)
// The premise of the other tests in this binary: the -ffast-math object's start-up code ran (this
// test runs first, and every other restores the environment it found).
TEST(FloatEnvironment, a_fast_math_object_set_ftz_and_daz_before_main) {
#if FLIPCHECK_TEST_MXCSR && defined(__GNUC__) && !defined(__clang__)
    const fc::float_environment e = fc::current_float_environment();
    EXPECT_TRUE(e.ftz && e.daz) << "crtfastmath.o did not run (" << fc::environment_words(e) << "): this binary proves nothing about it";
#else
    GTEST_SKIP() << "FTZ/DAZ at start-up is GCC's crtfastmath.o on x86";
#endif
}
#endif

TEST(FloatEnvironment, reads_and_words_the_environment) {
    const fc::float_environment e = fc::current_float_environment();
    EXPECT_FALSE(fc::environment_words(e).empty());
    {
        const process_environment p(true, FE_UPWARD);
        const fc::float_environment now = fc::current_float_environment();
        EXPECT_EQ(now.rounding, fc::rounding_mode::upward);
        EXPECT_FALSE(now.ieee_default());
#if FLIPCHECK_TEST_MXCSR
        EXPECT_TRUE(now.ftz && now.daz);
        EXPECT_NE(fc::environment_words(now).find("FTZ and DAZ on"), std::string::npos) << fc::environment_words(now);
#endif
    }
}

TEST(FloatEnvironment, a_check_runs_in_the_default_and_restores_the_process_environment) {
    const process_environment p(true, FE_DOWNWARD);
    const fc::float_environment before = fc::current_float_environment();
    bool inside_default = false, thread_default = false;
    {
        const fc::ieee_environment ieee;
        EXPECT_EQ(ieee.found().rounding, fc::rounding_mode::downward);
        inside_default = fc::current_float_environment().ieee_default() && fc::detail::oracle_probe_passes();
        std::thread t([&] { thread_default = fc::current_float_environment().ieee_default() && fc::detail::oracle_probe_passes(); });
        t.join();
    }
    EXPECT_TRUE(inside_default);
    EXPECT_TRUE(thread_default) << "a thread a check starts must inherit the default environment";
    const fc::float_environment after = fc::current_float_environment();
    EXPECT_EQ(after.rounding, before.rounding);
    EXPECT_EQ(after.ftz, before.ftz);
    EXPECT_EQ(after.daz, before.daz);
}

// The reason for the guard: with DAZ the oracle reads every subnormal as 0, and a correct mapping
// fails successor_order (its keys for denorm_min and 2 * denorm_min are in order; the oracle
// would call them equal). Under the guard the sweep is the default environment's verdict.
TEST(FloatEnvironment, a_correct_mapping_passes_on_subnormals_under_ftz_and_daz) {
    const process_environment p(true, FE_TOWARDZERO);
    const fc::sweep_report r = fc::sweep<fc::sign_flip<fc::binary32>>(subnormal_keys());
    EXPECT_TRUE(r.passed()) << (r.counterexamples.empty() ? "" : "first failing key " + std::to_string(r.counterexamples.front().key));
    EXPECT_EQ(r.keys_checked, std::uint64_t(0x02000000u));
#if FLIPCHECK_TEST_MXCSR
    EXPECT_TRUE(fc::current_float_environment().daz) << "the check must give the process its own environment back";
#endif
}

// What the guard protects against, shown without it: the oracle itself under DAZ.
TEST(FloatEnvironment, without_the_guard_daz_makes_the_oracle_wrong) {
#if FLIPCHECK_TEST_MXCSR
    const process_environment p(true, FE_TONEAREST);
    volatile float a = 1.40129846e-45f, b = 2.80259693e-45f;
    EXPECT_FALSE(fc::oracle::total_less(float(a), float(b))) << "DAZ did not take: this machine proves nothing here";
    EXPECT_FALSE(fc::detail::oracle_probe_passes());
#else
    GTEST_SKIP() << "MXCSR's DAZ is x86's";
#endif
}

// ---- rounding modes ------------------------------------------------------------------------------

namespace {
using quantize_bf16_e4m3 = fc::registry::quantize_bfloat16<fc::float8_e4m3fn>;
using nearbyint_mutant = fc::registry::quantize_nearbyint<fc::float8_e4m3fn>;
using tensor_any = fc::registry::fp8_tensor_scale_any_mode<fc::float8_e4m3fn>;
// The built-in tensor scale, said to need roundTowardPositive: checked in that mode, against the
// oracle's recipe (to nearest), so it fails there, in that mode.
struct tensor_scale_upward : fc::fp8_tensor_scale<fc::float8_e4m3fn> {
    static constexpr fc::rounding_claim rounding_modes = fc::needs_rounding(fc::rounding_mode::upward);
};
struct undeclared_tensor_scale {
    using element = fc::float8_e4m3fn;
    static float tensor_scale(float amax) { return fc::fp8_tensor_scale<fc::float8_e4m3fn>::tensor_scale(amax); }
};
}  // namespace

TEST(RoundingModes, a_builtin_declared_any_passes_in_every_mode) {
    const fc::scaling_report r = fc::check_scaling<quantize_bf16_e4m3>();
    EXPECT_TRUE(r.passed()) << r.counterexample.value_or("");
    EXPECT_EQ(r.rounding, "every rounding mode (declared any)");
    EXPECT_EQ(r.checks, 4u * 65536u) << "to_nearest and the three others, every bfloat16 input each";
}

TEST(RoundingModes, a_quantizer_with_nearbyint_is_killed_in_another_mode) {
    const fc::scaling_report to_nearest_only = [] {
        fc::scaling_options o;
        o.other_rounding_modes = false;
        return fc::check_scaling<nearbyint_mutant>(o);
    }();
    EXPECT_TRUE(to_nearest_only.passed()) << "the mutant is right to nearest: only the other modes kill it";
    const fc::scaling_report r = fc::check_scaling<nearbyint_mutant>();
    ASSERT_FALSE(r.passed());
    EXPECT_NE(r.failed_mode, fc::rounding_mode::to_nearest);
    EXPECT_NE(r.counterexample->find(std::string("under rounding mode ") + fc::to_string(r.failed_mode)), std::string::npos) << *r.counterexample;
}

TEST(RoundingModes, a_tensor_scale_declared_any_is_killed_and_its_case_replays_in_its_mode) {
    const fc::scaling_report r = fc::check_scaling<tensor_any>();
    ASSERT_FALSE(r.passed());
    ASSERT_NE(r.failed_mode, fc::rounding_mode::to_nearest);
    EXPECT_FALSE(fc::check_scaling_case<tensor_any>(r.replay, r.failed_mode).passed()) << r.replay;
    EXPECT_TRUE(fc::check_scaling_case<tensor_any>(r.replay, fc::rounding_mode::to_nearest).passed()) << r.replay;
    // The built-in says it needs to_nearest: checked there, it passes.
    const fc::scaling_report builtin = fc::check_scaling<fc::fp8_tensor_scale<fc::float8_e4m3fn>>();
    EXPECT_TRUE(builtin.passed()) << builtin.counterexample.value_or("");
    EXPECT_EQ(builtin.rounding, "to_nearest only (declared)");
}

TEST(RoundingModes, a_subject_is_checked_in_the_mode_it_needs) {
    const fc::scaling_report r = fc::check_scaling<tensor_scale_upward>();
    EXPECT_FALSE(r.passed()) << "its calls ran to nearest, not in the mode it declared";
    EXPECT_EQ(r.failed_mode, fc::rounding_mode::upward);
    EXPECT_EQ(r.rounding, "upward only (declared)");
    const fc::scaling_report u = fc::check_scaling<undeclared_tensor_scale>();
    EXPECT_TRUE(u.passed()) << u.counterexample.value_or("");
    EXPECT_EQ(u.rounding, "to_nearest only (no rounding_modes declared)");
}

// A caller's mode does not leak into the oracle: a check started under FE_UPWARD judges as one
// started to nearest (the built-in tensor scale, right to nearest only, still passes).
TEST(RoundingModes, the_callers_mode_does_not_reach_the_oracle) {
    const process_environment p(false, FE_UPWARD);
    EXPECT_TRUE(fc::check_scaling<fc::fp8_tensor_scale<fc::float8_e4m3fn>>().passed());
    EXPECT_EQ(fc::current_float_environment().rounding, fc::rounding_mode::upward);
}

// The scope a subject's call runs in: each mode as <cfenv> reads it and as float and long double
// arithmetic (SSE's and x87's registers on x86) round, and the mode found restored after; both
// outside a check (the scope reads the registers) and inside one (it writes the default's values,
// which ieee_environment noted), where it also undoes whatever else the call changed (FTZ).
static void expect_scope_sets_each_mode(int restored, bool subject_sets_ftz) {
    const auto third = [](auto one) {
        volatile decltype(one) n = one, d = 3;  // volatile: computed at run time, in the scope's mode
        return n / d;
    };
    const std::pair<fc::rounding_mode, int> modes[] = {{fc::rounding_mode::to_nearest, FE_TONEAREST},
                                                       {fc::rounding_mode::upward, FE_UPWARD},
                                                       {fc::rounding_mode::downward, FE_DOWNWARD},
                                                       {fc::rounding_mode::toward_zero, FE_TOWARDZERO}};
    std::map<fc::rounding_mode, std::pair<float, long double>> got;
    for (const auto& [mode, fe] : modes) {
        {
            const fc::rounding_scope scope(mode);
            EXPECT_EQ(std::fegetround(), fe) << fc::to_string(mode);
            got[mode] = {third(1.0f), third(1.0L)};
#if FLIPCHECK_TEST_MXCSR
            if (subject_sets_ftz) _mm_setcsr(_mm_getcsr() | 0x8040u);
#endif
        }
        EXPECT_EQ(std::fegetround(), restored) << "the mode found, restored after " << fc::to_string(mode);
        if (subject_sets_ftz) {
            EXPECT_TRUE(fc::current_float_environment().ieee_default()) << "FTZ/DAZ set by the call, undone";
        }
    }
    // 1/3 is inexact in both: upward lands above downward, toward zero on downward (it is positive),
    // and to nearest on one of them, the compiler's own constant.
    const auto& up = got[fc::rounding_mode::upward];
    const auto& down = got[fc::rounding_mode::downward];
    EXPECT_GT(up.first, down.first) << "float (SSE on x86)";
    EXPECT_GT(up.second, down.second) << "long double (x87 on x86)";
    EXPECT_EQ(got[fc::rounding_mode::toward_zero], down);
    EXPECT_EQ(got[fc::rounding_mode::to_nearest].first, 1.0f / 3);
    EXPECT_EQ(got[fc::rounding_mode::to_nearest].second, 1.0L / 3);
}

TEST(RoundingModes, a_rounding_scope_sets_the_mode_for_float_and_long_double_and_restores_it) {
    const process_environment p(false, FE_TOWARDZERO);
    expect_scope_sets_each_mode(FE_TOWARDZERO, false);
    const fc::ieee_environment check;  // as in a check: the default's registers known
    expect_scope_sets_each_mode(FE_TONEAREST, true);
}
