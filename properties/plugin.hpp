// Check your own mapping with one line in a GoogleTest file:
//
//     #include "plugin.hpp"   // from flipcheck's properties/ folder
//     struct my_key { using format = flipcheck::binary16; ... encode ... decode ... };
//     FLIPCHECK_CHECK_MAPPING(MyKey, my_key);
//
// It defines one TEST per mapping law (Suite.round_trip_key ... Suite.nan_ignore), each a
// RapidCheck property over gen::bits<F>() (edge values, NaN payloads, random patterns), and one
// sweep test named after its domain: Suite.exhaustive runs the CPU sweep over every key of a
// format up to 32 bits wide; for binary64 it is Suite.sampled, the sampled sweep over every
// exponent's edges and random mantissas (sampled.hpp: about 7e-13 of the key space, not a
// proof). Either prints the first counterexamples. A 16-bit
// sweep takes milliseconds anywhere; a binary32 one, 2^32 keys, takes seconds in Release but
// many minutes under sanitizers, so give a binary32 mapping's tests an optimised build.
// Link rapidcheck and GTest::gtest_main; plugin_example_test.cpp is a complete example.
//
// Reproducing a failure: RapidCheck prints the shrunk counterexample and, when the test binary
// exits, a line
//     Some of your RapidCheck properties had failures. To reproduce these, run with:
//     RC_PARAMS="reproduce=BchdlNGdvJ3XzBXY..."
// Run the same binary with that string to replay exactly the shrunk case, without new draws:
//     RC_PARAMS="reproduce=BchdlNGdvJ3XzBXY..." ./build/release/properties/plugin_example_test
// Other RC_PARAMS keys: max_success=N (cases per property), seed=N, noshrink=1, verbose_progress=1.
#pragma once
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <string>
#include <utility>

#include "flipcheck/law.hpp"
#include "flipcheck/sampled.hpp"
#include "flipcheck/sweep.hpp"
#include "generators.hpp"

namespace flipcheck::props {

inline std::string hex(std::uint64_t v, int width) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llx", width / 4, static_cast<unsigned long long>(v));
    return buf;
}

// One line that says what went wrong, in terms of the law (see counterexample in law.hpp).
template <mapping M>
std::string describe(const counterexample& c) {
    using F = typename M::format;
    using S = typename F::storage;
    auto bits = [](std::uint64_t v) { return gen::show<F>(S(v)); };
    auto key = [](std::uint64_t v) { return hex(v, F::width); };
    std::string s = std::string(M::name) + " over " + std::string(F::name) + ": " + std::string(to_string(c.law)) + " fails: ";
    switch (c.law) {
        case law_id::round_trip_key:
            return s + "key " + key(c.key) + " decodes to " + bits(c.bits) + ", which encodes to " + key(c.actual);
        case law_id::round_trip_bits:
            return s + "pattern " + bits(c.bits) + " comes back from encode/decode as " + bits(c.actual);
        case law_id::successor_order:
            return s + "key " + key(c.key) + " decodes to " + bits(c.bits) + " and the next key to " + bits(c.other) +
                   ", which does not follow it in totalOrder";
        case law_id::zero_placement:
            return s + "-0 has key " + key(c.key) + (c.other ? ", the last key" : ", but the next key decodes to " + bits(c.actual)) +
                   " (expected +0 right above -0)";
        default:  // the NaN laws: a key on the wrong side of a bound
            return s + "key " + key(c.actual) + " of " + bits(c.bits) + " is on the wrong side of bound key " + key(c.expected);
    }
}

// The property of law l: it holds at the key of a drawn pattern, at the key just below (so the
// successor law also covers the step into every edge value) and at the pattern read as a key.
template <mapping M>
auto law_property(law_id l) {
    return [l] {
        using F = typename M::format;
        using S = typename F::storage;
        const S b = *gen::bits<F>();
        const S k = M::encode(b);
        for (S at : {k, S(k - 1), b})
            if (!mapping_laws<M>::holds(l, at))
                RC_FAIL(describe<M>(mapping_laws<M>::explain(l, at)) + " [drawn pattern " + gen::show<F>(b) + "]");
    };
}

// Runs a property outside GoogleTest's reporting and returns RapidCheck's verdict, e.g. to assert
// that a law set FAILS on a mutant. A FailureResult holds the shrunk counterexample. Nothing is
// printed and nothing joins the reproduce line printed at exit.
template <class Testable>
rc::detail::TestResult run_quietly(Testable&& t, std::uint64_t seed = 1, int max_success = 100, bool shrink = true) {
    rc::detail::TestParams params;
    params.seed = seed;
    params.maxSuccess = max_success;
    params.disableShrinking = !shrink;
    rc::detail::TestListenerAdapter quiet;
    return rc::detail::checkTestable(std::forward<Testable>(t), rc::detail::TestMetadata{}, params, quiet);
}

template <mapping M>
sweep_report sweep_report_for(std::size_t limit = 8) {
    sweep_options o;
    o.limit = limit;
    if constexpr (M::format::width == 64) return sampled_sweep<M>(o);
    else return sweep<M>(o);
}

template <mapping M>
void check_law(law_id l) {
    rc::detail::checkGTest(law_property<M>(l));
}

template <mapping M>
void check_sweep() {
    const sweep_report r = sweep_report_for<M>();
    std::string text;
    for (const counterexample& c : r.counterexamples) text += "  " + describe<M>(c) + "\n";
    ASSERT_TRUE(r.passed()) << M::name << " over " << M::format::name << " (" << r.domain << " sweep): "
                            << r.failing_keys << " failing keys among " << r.keys_checked << " checked\n"
                            << text;
}

// Registers Suite.exhaustive, or Suite.sampled where the format is too wide to sweep whole, so a
// test's name never claims more than it checked (GoogleTest's public RegisterTest).
template <mapping M>
bool register_sweep(const char* suite, const char* file, int line) {
    struct sweep_test : ::testing::Test {
        void TestBody() override { check_sweep<M>(); }
    };
    const char* name = M::format::width == 64 ? "sampled" : "exhaustive";
    ::testing::RegisterTest(suite, name, nullptr, nullptr, file, line, []() -> ::testing::Test* { return new sweep_test; });
    return true;
}

}  // namespace flipcheck::props

// __VA_ARGS__ so that a mapping type with commas in its template arguments needs no parentheses;
// the closing static_assert takes the caller's semicolon (a stray one is an error under -Wpedantic).
#define FLIPCHECK_CHECK_MAPPING(Suite, ...)                                                                 \
    TEST(Suite, round_trip_key) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::round_trip_key); } \
    TEST(Suite, round_trip_bits) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::round_trip_bits); } \
    TEST(Suite, successor_order) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::successor_order); } \
    TEST(Suite, zero_placement) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::zero_placement); } \
    TEST(Suite, nan_total_order) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::nan_total_order); } \
    TEST(Suite, nan_propagate) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::nan_propagate); } \
    TEST(Suite, nan_ignore) { ::flipcheck::props::check_law<__VA_ARGS__>(::flipcheck::law_id::nan_ignore); } \
    [[maybe_unused]] static const bool Suite##_sweep_registered =                                           \
        ::flipcheck::props::register_sweep<__VA_ARGS__>(#Suite, __FILE__, __LINE__);                        \
    static_assert(::flipcheck::mapping<__VA_ARGS__>, "FLIPCHECK_CHECK_MAPPING needs a flipcheck::mapping")
