// GoogleTest cases for your own code, one line each (installed component flipcheck::rapidcheck:
// link it, and it brings RapidCheck and GoogleTest). RapidCheck's public API only.
//
//   FLIPCHECK_CHECK_MAPPING(Suite, my_key);      a flipcheck::mapping (mapping.hpp)
//   FLIPCHECK_CHECK_ATOMIC(Suite, my_atomic);    an atomic::atomic_strategy, arg_atomic_strategy or
//                                                lane_atomic_strategy (atomic.hpp)
//   FLIPCHECK_CHECK_REDUCER(Suite, my_reducer);  a reducer_function or arg_reducer_function (check/reducers.hpp)
//   FLIPCHECK_CHECK_SCALING(Suite, my_amax);     an amax, scale (under its recipe), decoder, MX block pipeline (check/scaling.hpp)
//   FLIPCHECK_CHECK_QUANTIZER(Suite, my_to_e4m3);  a quantizer (check/quantizers.hpp)
//   FLIPCHECK_CHECK_KEY(Suite, my_index_key);    a canonical sort or index key (check/canonical_keys.hpp)
//   FLIPCHECK_CHECK_PAIR_REDUCER(Suite, my_fp4x2_max);  a reducer of packed fp4 pairs (packed_reducer.hpp)
//
// A mapping gets Suite.<law> for each of the seven mapping laws (a RapidCheck property over
// gen::bits: edge values, NaN payloads, random patterns) and Suite.exhaustive (every key of a
// format up to 32 bits; it stops at the first chunk that fails) or, for binary64, Suite.sampled
// (sampled.hpp: evidence, not a proof).
// A reducer or an atomic strategy gets the stages of check/reducers.hpp, in order: Suite.edge_battery (every
// singleton, pair and triple of edge values: seed-independent), Suite.random_arrays (RapidCheck,
// with shrinking; an atomic strategy also gets a drawn interleaving), for an atomic strategy
// Suite.interleaved_steps (its loads, fetches and CASes as steps of simulated threads: every
// schedule of small arrays), Suite.order_independence and Suite.large_arrays (2^20 elements).
// Fail fast: once a stage of a suite fails, its later stages are SKIPPED and say which failed.
// A scaling subject gets Suite.against_the_oracle: check/scaling.hpp's check for its shape (every
// array of up to three codes of a byte format; the edge battery and random arrays otherwise), and
// Suite.replay (check_scaling_case: the failing case alone).
// A quantizer or a canonical key gets Suite.against_the_oracle (the same check), Suite.drawn_inputs
// (RapidCheck: two drawn inputs, every law between them and their negations, shrunk) and Suite.replay.
// A reducer of packed pairs gets Suite.every_array (every array of up to three bytes, each lane
// judged by its own oracle: exhaustive) and Suite.replay.
// Each mapping and reducer also gets Suite.replay. A failure prints the counterexample (bits, value, class, law) and
// a line that replays exactly that case:
//     FLIPCHECK_CASE='binary32: 0x80000000,0x00000000' ./my_test --gtest_filter=Suite.replay
//     FLIPCHECK_KEY=0xffef ./my_test --gtest_filter=Suite.replay         (a mapping's key)
// Without the variable, Suite.replay is SKIPPED. RapidCheck's own RC_PARAMS work as usual
// (max_success=N, seed=N, reproduce=...). A RapidCheck failure shows what was drawn as flipcheck
// writes it (bits, value and class; an array as its case), and the line of the user's test that
// declared the suite, not flipcheck's own source: the properties return their failure, and the
// macro, expanded in the user's file, fails with it.
#pragma once
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/exhaustive.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/rapidcheck/generators.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/check/sweep.hpp"

namespace flipcheck::rapidcheck {

inline std::string program() {
#if defined(__GLIBC__)
    return program_invocation_name;
#else
    return "./<this test>";
#endif
}

// What a property drew, as RapidCheck shows it in a failure (showValue, RapidCheck's public way to
// print a type): a pattern with its value and class, an array as the case that replays it. The
// generators stay gen::bits and gen::arrays; the properties draw through these maps.
template <format F>
struct drawn_bits {
    typename F::storage bits;
};
template <format F>
void showValue(const drawn_bits<F>& d, std::ostream& os) {
    os << show<F>(d.bits);
}
template <format F>
struct drawn_array {
    std::vector<typename F::storage> xs;
};
template <format F>
void showValue(const drawn_array<F>& d, std::ostream& os) {
    os << format_case<F>(std::span<const typename F::storage>(d.xs), {});
}
struct drawn_schedule {
    std::uint64_t seed;  // of the order an atomic strategy's updates are applied in
};
inline void showValue(const drawn_schedule& d, std::ostream& os) { os << "the order drawn from seed " << hex(d.seed, 64); }
template <format F>
typename F::storage draw_bits() {
    return (*::rc::gen::map(gen::bits<F>(), [](typename F::storage b) { return drawn_bits<F>{b}; })).bits;
}
template <format F>
std::vector<typename F::storage> draw_array() {
    return (*::rc::gen::map(gen::arrays<F>(), [](std::vector<typename F::storage> xs) { return drawn_array<F>{std::move(xs)}; })).xs;
}

inline std::string replay_line(const char* variable, const std::string& value, const char* suite) {
    return std::string(variable) + "='" + value + "' " + program() + " --gtest_filter=" + suite + ".replay";
}
// A scaling subject's replay line: its case, and the rounding mode the case fails in when that is
// not to_nearest (FLIPCHECK_ROUNDING, which Suite.replay reads).
inline std::string replay_line(const scaling_report& r, const char* suite) {
    const std::string line = replay_line("FLIPCHECK_CASE", r.replay, suite);
    if (r.failed_mode == rounding_mode::to_nearest) return line;
    return std::string("FLIPCHECK_ROUNDING=") + to_string(r.failed_mode) + " " + line;
}
// FLIPCHECK_ROUNDING's mode for a replay (to_nearest when unset); an unknown name is an input_error.
inline rounding_mode replay_rounding_mode() {
    const char* text = std::getenv("FLIPCHECK_ROUNDING");
    rounding_mode m = rounding_mode::to_nearest;
    if (text && !parse_rounding_mode(text, m))
        throw input_error("FLIPCHECK_ROUNDING='" + std::string(text) + "': expected to_nearest, upward, downward or toward_zero");
    return m;
}

// ---- fail fast ----------------------------------------------------------------------------------
// Once a stage of a suite has failed, its later stages are skipped and say so: the counterexample
// is in, and a 2^32 sweep after it would only delay the report. A GoogleTest listener notes each
// suite's first failed test; every stage asks before it runs.
inline std::vector<std::pair<std::string, std::string>>& failed_suites() {
    static std::vector<std::pair<std::string, std::string>> f;  // (suite, its first failed test)
    return f;
}
struct fail_fast_listener : ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& t) override {
        if (!t.result()->Failed()) return;
        for (const auto& [suite, test] : failed_suites())
            if (suite == t.test_suite_name()) return;
        failed_suites().emplace_back(t.test_suite_name(), t.name());
    }
};
inline const bool fail_fast_listening = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new fail_fast_listener);
    return true;
}();
// True (and the test marked SKIPPED, once) when an earlier stage of the suite failed.
inline bool skipped_after_failure(const char* suite) {
    for (const auto& [s, test] : failed_suites())
        if (s == suite) {
            if (!::testing::Test::IsSkipped() && !::testing::Test::HasFailure())
                [&] { GTEST_SKIP() << suite << "." << test << " failed: the suite's later stages are skipped (run one with --gtest_filter)"; }();
            return true;
        }
    return false;
}

// ---- mappings -----------------------------------------------------------------------------------

// Law l holds at the key of a drawn pattern, at the key just below (so the successor law also
// covers the step into every edge value) and at the pattern read as a key. Returns the failure
// ("": none), which the macro's RC_FAIL reports from the user's file.
template <mapping M>
std::string mapping_law(law_id l, const char* suite) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using F = typename M::format;
    using S = typename F::storage;
    if (skipped_after_failure(suite)) return "";
    const S b = draw_bits<F>();
    const S k = M::encode(b);
    const char* how[] = {"the key of", "the key below the key of", "the bits read as a key of"};
    int i = 0;
    for (S at : {k, S(k - 1), b}) {
        if (!mapping_laws<M>::holds(l, at)) {
            const counterexample c = mapping_laws<M>::explain(l, at);
            return describe<M>(c) + " [key " + hex(at, F::width) + ": " + how[i] + " the drawn pattern " + show<F>(b) +
                   "]\n  replay: " + replay_line("FLIPCHECK_KEY", hex(c.key, F::width), suite);
        }
        ++i;
    }
    return "";
}

template <mapping M>
void mapping_sweep(const char* suite) {
    using F = typename M::format;
    if (skipped_after_failure(suite)) return;
    const sweep_report r = check_mapping<M>();
    std::string text = mapping_text<M>(r);
    if (!r.passed()) text += "\n  replay the first: " + replay_line("FLIPCHECK_KEY", hex(r.counterexamples.front().key, F::width), suite);
    ASSERT_TRUE(r.passed()) << text;
}

template <mapping M>
void mapping_replay() {
    using F = typename M::format;
    const char* key = std::getenv("FLIPCHECK_KEY");
    if (!key) GTEST_SKIP() << "set FLIPCHECK_KEY=<key in hex> to check every law at that key";
    // number.hpp's parser, as for `flipcheck sweep --key`: decimal or 0x-hex, never octal.
    std::uint64_t k = 0;
    ASSERT_TRUE(read_number(key, std::uint64_t(F::all_ones), k))
        << "FLIPCHECK_KEY='" << key << "' is not a key of " << F::name << ": decimal or 0x-hex up to "
        << hex(F::all_ones, F::width) << " (e.g. " << hex(F::one, F::width) << ")";
    const sweep_report r = check_mapping_key<M>(typename F::storage(k));
    ASSERT_TRUE(r.passed()) << mapping_text<M>(r);
}

// Registers Suite.exhaustive, or Suite.sampled where the format is too wide to sweep whole, so a
// test's name never claims more than it checked (GoogleTest's public RegisterTest).
template <mapping M>
bool register_sweep(const char* suite, const char* file, int line) {
    struct sweep_test : ::testing::Test {
        const char* suite_name;
        explicit sweep_test(const char* s) : suite_name(s) {}
        void TestBody() override { mapping_sweep<M>(suite_name); }
    };
    const char* name = M::format::width == 64 ? "sampled" : "exhaustive";
    ::testing::RegisterTest(suite, name, nullptr, nullptr, file, line, [suite]() -> ::testing::Test* { return new sweep_test(suite); });
    return true;
}

// ---- reducers and atomic strategies ---------------------------------------------------------

// One of check/reducers.hpp's deterministic stages, with the defaults.
template <class R>
void stage(check_stage s, const char* suite) {
    if (skipped_after_failure(suite)) return;
    check_options o;
    o.stages = {s};
    const check_report r = check(subject_of<R>(), o);
    ASSERT_TRUE(r.passed()) << r.text() << "\n  replay: " << replay_line("FLIPCHECK_CASE", r.failure->replay, suite);
}

// RapidCheck's stage: a drawn array (and, for an atomic strategy, a drawn interleaving of it).
template <format F>
std::string random_case(const reducer_subject<F>& subject, const char* suite) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    if (skipped_after_failure(suite)) return "";
    const std::vector<S> xs = draw_array<F>();
    std::vector<std::size_t> order(xs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (subject.interleaved) {
        detail::splitmix64 g{(*::rc::gen::map(::rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t s) { return drawn_schedule{s}; })).seed};
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[g.below(i)]);
    }
    const check_report r = check_case(subject, xs, order);
    if (r.passed()) return "";
    return r.text() + "\n  replay: " + replay_line("FLIPCHECK_CASE", r.failure->replay, suite);
}

template <class R>
void reducer_replay(const char* suite) {
    using F = typename R::format;
    const char* text = std::getenv("FLIPCHECK_CASE");
    if (!text) GTEST_SKIP() << "set FLIPCHECK_CASE='<bits, comma-separated> [order i,j,...]' to check that one case";
    std::pair<std::vector<typename F::storage>, std::vector<std::size_t>> c;
    try {
        c = parse_case<F>(text);
    } catch (const input_error& e) {
        FAIL() << "FLIPCHECK_CASE: " << e.what();
    }
    const check_report r = check_case(subject_of<R>(), c.first, c.second);
    ASSERT_TRUE(r.passed()) << r.text() << "\n  replay: " << replay_line("FLIPCHECK_CASE", r.failure->replay, suite);
}

// ---- reducers of packed pairs --------------------------------------------------------------------

inline std::string pair_text(const exhaustive_row& r) {
    return r.subject + " (" + r.format + ", " + r.op + ", " + r.policy + ", " + std::to_string(r.arrays) + " arrays of " +
           std::to_string(r.length) + " bytes): " + (r.passed() ? "pass" : std::to_string(r.failures) + " fail, the first: " + r.counterexample);
}

template <packed::pair_reducer_function R>
void pair_arrays(const char* suite) {
    for (const exhaustive_row& r : check_pair_reducer<R>())
        ASSERT_TRUE(r.passed()) << pair_text(r) << "\n  replay: " << replay_line("FLIPCHECK_CASE", r.replay, suite);
}

template <packed::pair_reducer_function R>
void pair_replay(const char* suite) {
    using F = typename R::format;
    const char* text = std::getenv("FLIPCHECK_CASE");
    if (!text) GTEST_SKIP() << "set FLIPCHECK_CASE='" << packed_pair<F>::name << ": <bytes, comma-separated>' to check that one array";
    std::vector<std::uint8_t> bytes;
    try {
        bytes = parse_case<packed_pair<F>>(text).first;
    } catch (const input_error& e) {
        FAIL() << "FLIPCHECK_CASE: " << e.what();
    }
    const exhaustive_row r = check_pair_arrays<F>(std::string(R::name), R::declared, R::op, 0,
                                                  [](std::span<const std::uint8_t> in) { return R::reduce(in); },
                                                  std::span<const std::uint8_t>(bytes));
    ASSERT_TRUE(r.passed()) << pair_text(r) << "\n  replay: " << replay_line("FLIPCHECK_CASE", r.replay, suite);
}

// ---- quantizers and canonical keys -----------------------------------------------------------------

template <class X>
concept many_to_one_subject = quantizer_subject<X> || scaled_quantizer_subject<X> || canonical_key_subject<X>;

// What a case lists: the inputs' bits in the subject's format, or a scaled quantizer's (x, s)
// pairs as binary32 patterns.
template <class X>
using case_format = std::conditional_t<scaled_quantizer_subject<X>, binary32, typename X::format>;

// The subject's check on the listed inputs alone (check/quantizers.hpp's, check/scaled_quantizers.hpp's
// and check/canonical_keys.hpp's `only`: their magnitudes, both signs, every law between them).
template <many_to_one_subject X>
scaling_report judge_inputs(const std::vector<typename case_format<X>::storage>& only) {
    const ieee_environment ieee;
    using F = typename X::format;
    using S = typename F::storage;
    if constexpr (scaled_quantizer_subject<X>) {
        using E = typename X::element;
        return check_scaled_quantizer_of<F, E>(X::declared, [](S x, float s) { return code_t<E>(X::quantize_scaled(x, s)); }, {}, only);
    } else if constexpr (quantizer_subject<X>) {
        using E = typename X::element;
        return check_quantizer_of<F, E>(X::declared, [](S x) { return code_t<E>(X::quantize(x)); }, {}, only);
    } else {
        return check_canonical_key_of<F>(X::declared, [](S x) { return X::key(x); }, [](const auto& k) { return key_check::show_key(k); }, {},
                                         only);
    }
}
// The same with X's calls in rounding mode m; `every_declared`: in each mode X declares instead
// (to_nearest, then the three others for a subject right in any mode), the first failure kept.
template <many_to_one_subject X>
scaling_report judge_inputs_in(const std::vector<typename case_format<X>::storage>& only, rounding_mode m) {
    scaling_report r = with_rounding_mode(m, [&]<rounding_mode M>() {
        if constexpr (M == rounding_mode::to_nearest) return judge_inputs<X>(only);
        else return judge_inputs<in_rounding_mode<X, M>>(only);
    });
    r.failed_mode = m;
    return r;
}
template <many_to_one_subject X>
scaling_report judge_inputs_declared(const std::vector<typename case_format<X>::storage>& only) {
    constexpr rounding_claim claim = declared_rounding<X>();
    if constexpr (!claim.any) return judge_inputs_in<X>(only, claim.needs);
    std::uint64_t checks = 0;
    scaling_report r;
    for (rounding_mode m : all_rounding_modes) {
        r = judge_inputs_in<X>(only, m);
        checks += r.checks;
        if (!r.passed()) {
            if (m != rounding_mode::to_nearest) r.counterexample = std::string("under rounding mode ") + to_string(m) + ": " + *r.counterexample;
            break;
        }
    }
    r.checks = checks;
    return r;
}

inline std::string scaling_text(const scaling_report& r) {
    return r.shape + " (" + r.claim + "): " + (r.passed() ? "pass" : "FAIL: " + r.counterexample.value_or("")) + "\n  (" +
           std::to_string(r.checks) + " inputs: " + r.domain + (r.rounding.empty() ? "" : "; rounding: " + r.rounding) + ")";
}

template <many_to_one_subject X>
void against_the_oracle(const char* suite) {
    if (skipped_after_failure(suite)) return;
    const scaling_report r = check_scaling<X>();
    ASSERT_TRUE(r.passed()) << scaling_text(r) << "\n  replay: " << replay_line(r, suite);
}

// RapidCheck's stage: two drawn inputs (gen::bits: edge values, NaN payloads, random patterns), every
// law between them and their negations; RapidCheck shrinks a failure's pair.
// A scaled quantizer's: two drawn inputs under one drawn non-negative scale.
template <many_to_one_subject X>
std::string drawn_inputs(const char* suite) {
    using F = typename X::format;
    if (skipped_after_failure(suite)) return "";
    std::vector<typename case_format<X>::storage> xs;
    if constexpr (scaled_quantizer_subject<X>) {
        const std::uint32_t s = draw_bits<binary32>() & 0x7fffffffu;
        for (int i = 0; i < 2; ++i) xs.insert(xs.end(), {bit_cast<std::uint32_t>(float(F::to_value(draw_bits<F>()))), s});
    } else {
        xs = {draw_bits<F>(), draw_bits<F>()};
    }
    const scaling_report r = judge_inputs_declared<X>(xs);
    if (r.passed()) return "";
    return scaling_text(r) + "\n  replay: " + replay_line(r, suite);
}

template <many_to_one_subject X>
void many_to_one_replay(const char* suite) {
    using F = case_format<X>;
    const char* text = std::getenv("FLIPCHECK_CASE");
    if (!text)
        GTEST_SKIP() << "set FLIPCHECK_CASE='" << F::name << ": <bits, comma-separated" << (scaled_quantizer_subject<X> ? ": x,s pairs" : "")
                     << ">' to check those inputs";
    std::vector<typename F::storage> xs;
    try {
        xs = parse_case<F>(text).first;
    } catch (const input_error& e) {
        FAIL() << "FLIPCHECK_CASE: " << e.what();
    }
    if (xs.empty()) FAIL() << "FLIPCHECK_CASE lists no input";
    if (scaled_quantizer_subject<X> && xs.size() % 2) FAIL() << "FLIPCHECK_CASE lists (x, s) pairs: an even count";
    rounding_mode m = rounding_mode::to_nearest;
    try {
        m = replay_rounding_mode();
    } catch (const input_error& e) {
        FAIL() << e.what();
    }
    const scaling_report r = judge_inputs_in<X>(xs, m);
    ASSERT_TRUE(r.passed()) << scaling_text(r) << "\n  replay: " << replay_line(r, suite);
}

// ---- the scaling path ---------------------------------------------------------------------------

template <scaling_subject X>
void scaling_against_the_oracle(const char* suite) {
    const scaling_report r = check_scaling<X>();
    EXPECT_TRUE(r.passed()) << suite << " " << scaling_text(r) << (r.replay.empty() ? "" : "\n  replay: " + replay_line(r, suite));
}

template <scaling_subject X>
void scaling_replay(const char* suite) {
    if constexpr (many_to_one_subject<X>) {
        many_to_one_replay<X>(suite);  // (a quantizer or a key given to FLIPCHECK_CHECK_SCALING)
    } else {
        const char* text = std::getenv("FLIPCHECK_CASE");
        if (!text) GTEST_SKIP() << "set FLIPCHECK_CASE='<format>: <bits, comma-separated>' (as a failure's replay line gives it) to check that case";
        scaling_report r;
        try {
            r = check_scaling_case<X>(text, replay_rounding_mode());
        } catch (const input_error& e) {
            FAIL() << "FLIPCHECK_CASE: " << e.what();
        }
        ASSERT_TRUE(r.passed()) << suite << " " << scaling_text(r) << "\n  replay: " << replay_line(r, suite);
    }
}

}  // namespace flipcheck::rapidcheck

// __VA_ARGS__ so that a type with commas in its template arguments needs no parentheses; the
// closing static_assert takes the caller's semicolon.
#define FLIPCHECK_DETAIL_MAPPING_LAW(Suite, Law, ...) \
    RC_GTEST_PROP(Suite, Law, ()) {                                                   \
        const std::string what_failed = ::flipcheck::rapidcheck::mapping_law<__VA_ARGS__>(::flipcheck::law_id::Law, #Suite); \
        if (!what_failed.empty()) RC_FAIL(what_failed);                                               \
    }

#define FLIPCHECK_CHECK_MAPPING(Suite, ...)                                                          \
    static_assert(::flipcheck::mapping<__VA_ARGS__>,                                                 \
                  "FLIPCHECK_CHECK_MAPPING needs a flipcheck::mapping: format, name, encode, decode (mapping.hpp)"); \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, round_trip_key, __VA_ARGS__)                                 \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, round_trip_bits, __VA_ARGS__)                                \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, successor_order, __VA_ARGS__)                                \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, zero_placement, __VA_ARGS__)                                 \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, nan_total_order, __VA_ARGS__)                                \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, nan_propagate, __VA_ARGS__)                                  \
    FLIPCHECK_DETAIL_MAPPING_LAW(Suite, nan_ignore, __VA_ARGS__)                                     \
    TEST(Suite, replay) { ::flipcheck::rapidcheck::mapping_replay<__VA_ARGS__>(); }                  \
    [[maybe_unused]] static const bool Suite##_sweep_registered =                                    \
        ::flipcheck::rapidcheck::register_sweep<__VA_ARGS__>(#Suite, __FILE__, __LINE__);            \
    static_assert(true)

#define FLIPCHECK_DETAIL_REDUCER_TESTS(Suite, ...)                                                                  \
    TEST(Suite, edge_battery) { ::flipcheck::rapidcheck::stage<__VA_ARGS__>(::flipcheck::check_stage::edge_battery, #Suite); } \
    RC_GTEST_PROP(Suite, random_arrays, ()) {                                                                       \
        const std::string what_failed = ::flipcheck::rapidcheck::random_case(::flipcheck::subject_of<__VA_ARGS__>(), #Suite); \
        if (!what_failed.empty()) RC_FAIL(what_failed);                                                                             \
    }                                                                                                               \
    TEST(Suite, order_independence) {                                                                               \
        ::flipcheck::rapidcheck::stage<__VA_ARGS__>(::flipcheck::check_stage::order_independence, #Suite);          \
    }                                                                                                               \
    TEST(Suite, large_arrays) { ::flipcheck::rapidcheck::stage<__VA_ARGS__>(::flipcheck::check_stage::large_arrays, #Suite); } \
    TEST(Suite, replay) { ::flipcheck::rapidcheck::reducer_replay<__VA_ARGS__>(#Suite); }

#define FLIPCHECK_CHECK_ATOMIC(Suite, ...)                                                                  \
    static_assert(::flipcheck::atomic::atomic_strategy<__VA_ARGS__> || ::flipcheck::atomic::arg_atomic_strategy<__VA_ARGS__> || \
                      ::flipcheck::atomic::lane_atomic_strategy<__VA_ARGS__>,                                  \
                  "FLIPCHECK_CHECK_ATOMIC needs an atomic strategy: format, op, declared, name, init(), "   \
                  "update(word, bits) and result(word), or update(word, bits, index) and index(word), or a " \
                  "shared_word with update(word, offset, bits) and result(lane) (atomic.hpp)");            \
    FLIPCHECK_DETAIL_REDUCER_TESTS(Suite, __VA_ARGS__)                                                      \
    TEST(Suite, interleaved_steps) {                                                                        \
        ::flipcheck::rapidcheck::stage<__VA_ARGS__>(::flipcheck::check_stage::interleaved_steps, #Suite);   \
    }                                                                                                       \
    static_assert(true)

// The FP8/MX scaling path (check/scaling.hpp): an amax, an e8m0 (MX) or FP8 tensor scale, a
// decoder, an MX block pipeline or an NVFP4 block scale, each by its shape, against the oracle of
// amax.hpp / scale.hpp. The failure message is the smallest counterexample, with its bits.
#define FLIPCHECK_CHECK_SCALING(Suite, ...)                                                                 \
    static_assert(::flipcheck::scaling_subject<__VA_ARGS__>,                                                \
                  "FLIPCHECK_CHECK_SCALING needs a scaling subject: an amax (format, declared, amax(span)), " \
                  "an MX scale (element, scale(uint32_t)), a tensor scale (element, tensor_scale(float)), a " \
                  "decoder (format, decode(uint8_t)), a block scale (format, element, declared, "             \
                  "block_scale(span)), a quantizer (format, element, declared, quantize(storage)), a scale " \
                  "value (element, scale_value(float)) or a canonical key (format, declared, key(storage)) "  \
                  "(check/scaling.hpp)");                                                                    \
    TEST(Suite, against_the_oracle) { ::flipcheck::rapidcheck::scaling_against_the_oracle<__VA_ARGS__>(#Suite); } \
    TEST(Suite, replay) { ::flipcheck::rapidcheck::scaling_replay<__VA_ARGS__>(#Suite); }                   \
    static_assert(true)

// A quantizer (check/quantizers.hpp), a scaled quantizer (check/scaled_quantizers.hpp) or a canonical
// key (check/canonical_keys.hpp): Suite.against_the_oracle (every input of a 16-bit format; binary32's
// and binary64's sample; a scaled quantizer's inputs under every e8m0 and 17 per-tensor scales),
// Suite.drawn_inputs (RapidCheck: two drawn inputs, under one drawn scale for a scaled quantizer, every
// law between them, shrunk) and Suite.replay (FLIPCHECK_CASE's inputs, or x,s pairs).
#define FLIPCHECK_DETAIL_MANY_TO_ONE_TESTS(Suite, ...)                                                               \
    TEST(Suite, against_the_oracle) { ::flipcheck::rapidcheck::against_the_oracle<__VA_ARGS__>(#Suite); }           \
    RC_GTEST_PROP(Suite, drawn_inputs, ()) {                                                                         \
        const std::string what_failed = ::flipcheck::rapidcheck::drawn_inputs<__VA_ARGS__>(#Suite);                              \
        if (!what_failed.empty()) RC_FAIL(what_failed);                                                                              \
    }                                                                                                                \
    TEST(Suite, replay) { ::flipcheck::rapidcheck::many_to_one_replay<__VA_ARGS__>(#Suite); }                        \
    static_assert(true)
#define FLIPCHECK_CHECK_QUANTIZER(Suite, ...)                                                                         \
    static_assert(::flipcheck::quantizer_subject<__VA_ARGS__>,                                                        \
                  "FLIPCHECK_CHECK_QUANTIZER needs a quantizer: format (binary32, bfloat16 or binary16), element, "  \
                  "declared (a quantize_policy) and static code quantize(storage) (check/quantizers.hpp)");           \
    FLIPCHECK_DETAIL_MANY_TO_ONE_TESTS(Suite, __VA_ARGS__)
#define FLIPCHECK_CHECK_SCALED_QUANTIZER(Suite, ...)                                                                  \
    static_assert(::flipcheck::scaled_quantizer_subject<__VA_ARGS__>,                                                 \
                  "FLIPCHECK_CHECK_SCALED_QUANTIZER needs a scaled quantizer: format (binary32, bfloat16 or "         \
                  "binary16), element, declared (a scaled_policy) and static code quantize_scaled(storage, float s) " \
                  "(check/scaled_quantizers.hpp)");                                                                  \
    FLIPCHECK_DETAIL_MANY_TO_ONE_TESTS(Suite, __VA_ARGS__)
#define FLIPCHECK_CHECK_KEY(Suite, ...)                                                                               \
    static_assert(::flipcheck::canonical_key_subject<__VA_ARGS__>,                                                    \
                  "FLIPCHECK_CHECK_KEY needs a canonical key: format, declared (an equivalence) and static K "       \
                  "key(storage), K an unsigned integer or std::array<std::uint8_t, N> (check/canonical_keys.hpp)");   \
    FLIPCHECK_DETAIL_MANY_TO_ONE_TESTS(Suite, __VA_ARGS__)

#define FLIPCHECK_CHECK_REDUCER(Suite, ...)                                                                 \
    static_assert(::flipcheck::reducer_function<__VA_ARGS__> || ::flipcheck::arg_reducer_function<__VA_ARGS__>, \
                  "FLIPCHECK_CHECK_REDUCER needs a reducer function: format, op, declared, name and "       \
                  "static std::optional<bits> reduce(std::span<const bits>) or std::optional<std::size_t> "  \
                  "arg_reduce(std::span<const bits>) (check.hpp)");                                         \
    FLIPCHECK_DETAIL_REDUCER_TESTS(Suite, __VA_ARGS__)                                                      \
    static_assert(true)

// A reducer of packed pairs (two fp4 codes per byte; packed_reducer.hpp's pair_reducer_function).
#define FLIPCHECK_CHECK_PAIR_REDUCER(Suite, ...)                                                            \
    static_assert(::flipcheck::packed::pair_reducer_function<__VA_ARGS__>,                                  \
                  "FLIPCHECK_CHECK_PAIR_REDUCER needs a reducer of packed pairs: format (float4_e2m1fn), "  \
                  "pair (flipcheck::packed_pair<format>), op, declared, name and static "                   \
                  "std::optional<std::uint8_t> reduce(std::span<const std::uint8_t>) (packed_reducer.hpp)"); \
    TEST(Suite, every_array) { ::flipcheck::rapidcheck::pair_arrays<__VA_ARGS__>(#Suite); }               \
    TEST(Suite, replay) { ::flipcheck::rapidcheck::pair_replay<__VA_ARGS__>(#Suite); }                     \
    static_assert(true)
