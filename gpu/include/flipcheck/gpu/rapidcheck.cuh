// GoogleTest cases for your own code on the GPU, one line each, in a .cu file (components
// flipcheck::gpu and flipcheck::rapidcheck). The tests each macro defines:
//
//   FLIPCHECK_GPU_CHECK_MAPPING(Suite, my_key);    Suite.gpu_exhaustive: gpu::sweep over every key
//                                                  (binary64: Suite.gpu_sampled, the sampled domain
//                                                  plus 2^34 random keys)
//   FLIPCHECK_GPU_CHECK_ATOMIC(Suite, my_atomic);  Suite.gpu_warp, Suite.gpu_block_shared, Suite.gpu_grid:
//                                                  the strategy on real atomics (check.cuh), every
//                                                  stage of check/reducers.hpp in each launch shape; and
//                                                  Suite.gpu_replay
//   FLIPCHECK_GPU_CHECK_REDUCER(Suite, my_reducer); a reducer function that launches your own kernel:
//                                                  Suite.gpu_edge_battery, .gpu_random_arrays,
//                                                  .gpu_order_independence, .gpu_large_arrays (check/reducers.hpp's
//                                                  stages; the random one is check/reducers.hpp's seeded draw,
//                                                  since a RapidCheck property cannot skip); and
//                                                  Suite.gpu_replay
//
// A failure prints the counterexample and a line that replays exactly that case:
//     FLIPCHECK_CASE='binary32: 0x80000000' ./my_test --gtest_filter=Suite.gpu_replay
// (an atomic strategy's case runs in all three launch shapes; the hardware picks the interleaving,
// so a case that failed by one may pass again: the CPU macros' Suite.replay, where the order is
// the case's, is printed too). FLIPCHECK_RANDOM_CASES=N sets the random arrays per stage (default
// 2000); each test records how many cases it checked (`cases` in --gtest_output=xml).
// Each test is SKIPPED when no CUDA device is present, FAILS when FLIPCHECK_REQUIRE_GPU=1 is set
// and none is, and fails on a device that errors; FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE() does the same
// in a TEST of your own. Use them beside the CPU macros of flipcheck/rapidcheck.hpp (other test
// names in the same suite are fine).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/gpu/check.cuh"
#include "flipcheck/gpu/detail/device_probe.hpp"
#include "flipcheck/gpu/sweep_launch.cuh"
#include "flipcheck/rapidcheck.hpp"

namespace flipcheck::gpu::testing {

// "" when a device is usable; a reason to skip otherwise (throws on a broken or required one).
inline std::string skip_reason() { return detail::device_skip_reason(); }

template <mapping M>
void mapping_sweep(const char* suite) {
    using F = typename M::format;
    sweep_options o;
    o.limit = 8;
    const sweep_report r = gpu::sweep<M>(o);
    std::string text = mapping_text<M>(r);
    if (!r.passed())
        text += "\n  replay the first on the CPU: " +
                rapidcheck::replay_line("FLIPCHECK_KEY", hex(r.counterexamples.front().key, F::width), suite);
    ASSERT_TRUE(r.passed()) << text;
}

// Registers Suite.gpu_exhaustive, or Suite.gpu_sampled for binary64, so that no test is named for
// more than it checks and none is skipped for being the wrong one (as flipcheck/rapidcheck.hpp).
template <mapping M>
bool register_sweep(const char* suite, const char* file, int line) {
    struct sweep_test : ::testing::Test {
        const char* suite_name;
        explicit sweep_test(const char* s) : suite_name(s) {}
        void TestBody() override {
            if (const std::string why = skip_reason(); !why.empty()) GTEST_SKIP() << why;
            mapping_sweep<M>(suite_name);
        }
    };
    const char* name = M::format::width == 64 ? "gpu_sampled" : "gpu_exhaustive";
    ::testing::RegisterTest(suite, name, nullptr, nullptr, file, line, [suite]() -> ::testing::Test* { return new sweep_test(suite); });
    return true;
}

// The options of a GPU test: the defaults, with FLIPCHECK_RANDOM_CASES's count of random arrays.
inline check_options options() {
    check_options o;
    if (const char* v = std::getenv("FLIPCHECK_RANDOM_CASES")) {
        std::uint64_t n = 0;
        if (!read_number(v, std::uint64_t(1) << 32, n) || n == 0)
            throw input_error("FLIPCHECK_RANDOM_CASES='" + std::string(v) + "': expected a count of random arrays, 1 to 2^32");
        o.random_cases = std::size_t(n);
    }
    return o;
}

// The verdict as a test's: the report, and where it failed, the lines that replay its case.
inline void expect_pass(const check_report& r, const char* suite, bool cpu_replay) {
    ::testing::Test::RecordProperty("cases", std::to_string(r.cases()));
    if (r.passed()) return;
    std::string text = r.text() + "\n  replay: " + std::string("FLIPCHECK_CASE='") + r.failure->replay + "' " +
                       rapidcheck::program() + " --gtest_filter=" + suite + ".gpu_replay";
    if (cpu_replay) text += "\n  or on the CPU, in this order (where " + std::string(suite) + " also has FLIPCHECK_CHECK_ATOMIC): " +
                            rapidcheck::replay_line("FLIPCHECK_CASE", r.failure->replay, suite);
    FAIL() << text;
}

template <class R>
void reducer_stage(check_stage st, const char* suite) {
    check_options o = options();
    o.stages = {st};
    expect_pass(::flipcheck::check(::flipcheck::subject_of<R>(), o), suite, false);
}

template <class A>
void atomic_form_check(atomic_form form, const char* suite) {
    expect_pass(::flipcheck::check(gpu::subject_of<A>(form), options()), suite, true);
}

// Suite.gpu_replay: FLIPCHECK_CASE's case on the device (an atomic strategy in every launch shape).
template <format F>
void replay(const std::vector<reducer_subject<F>>& subjects, const char* suite) {
    const char* text = std::getenv("FLIPCHECK_CASE");
    if (!text) GTEST_SKIP() << "set FLIPCHECK_CASE='<bits, comma-separated>' (as a failure prints it) to check that one case";
    std::pair<std::vector<typename F::storage>, std::vector<std::size_t>> c;
    try {
        c = parse_case<F>(text);
    } catch (const input_error& e) {
        FAIL() << "FLIPCHECK_CASE: " << e.what();
    }
    if (is_step_schedule(c.second)) FAIL() << "FLIPCHECK_CASE: a schedule of atomic steps replays on the CPU only (" << suite << ".replay)";
    for (const auto& s : subjects) expect_pass(check_case(s, c.first, c.second), suite, false);
}
template <class A>
std::vector<reducer_subject<typename A::format>> atomic_subjects() {
    std::vector<reducer_subject<typename A::format>> v;
    for (atomic_form f : atomic_forms) v.push_back(gpu::subject_of<A>(f));
    return v;
}

}  // namespace flipcheck::gpu::testing

// In a TEST of your own: SKIPPED without a CUDA device, a failure with FLIPCHECK_REQUIRE_GPU=1,
// an error on a device that errors.
#define FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE()                                                           \
    if (const std::string why = ::flipcheck::gpu::testing::skip_reason(); !why.empty()) GTEST_SKIP() << why
#define FLIPCHECK_DETAIL_GPU_SKIP() FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE()  // its first name

#define FLIPCHECK_GPU_CHECK_MAPPING(Suite, ...)                                                       \
    static_assert(::flipcheck::mapping<__VA_ARGS__>, "FLIPCHECK_GPU_CHECK_MAPPING needs a flipcheck::mapping"); \
    [[maybe_unused]] static const bool Suite##_gpu_sweep_registered =                                 \
        ::flipcheck::gpu::testing::register_sweep<__VA_ARGS__>(#Suite, __FILE__, __LINE__);           \
    static_assert(true)

#define FLIPCHECK_GPU_CHECK_ATOMIC(Suite, ...)                                                        \
    static_assert(::flipcheck::atomic::atomic_strategy<__VA_ARGS__> || ::flipcheck::atomic::arg_atomic_strategy<__VA_ARGS__>, \
                  "FLIPCHECK_GPU_CHECK_ATOMIC needs an atomic strategy (atomic.hpp)");                \
    TEST(Suite, gpu_warp) {                                                                           \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::warp, #Suite); \
    }                                                                                                 \
    TEST(Suite, gpu_block_shared) {                                                                   \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::block_shared, #Suite); \
    }                                                                                                 \
    TEST(Suite, gpu_grid) {                                                                           \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::grid, #Suite); \
    }                                                                                                 \
    TEST(Suite, gpu_replay) {                                                                         \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::replay(::flipcheck::gpu::testing::atomic_subjects<__VA_ARGS__>(), #Suite); \
    }                                                                                                 \
    static_assert(true)

#define FLIPCHECK_DETAIL_GPU_STAGE(Suite, Stage, ...)                                                  \
    TEST(Suite, gpu_##Stage) {                                                                        \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::reducer_stage<__VA_ARGS__>(::flipcheck::check_stage::Stage, #Suite); \
    }

#define FLIPCHECK_GPU_CHECK_REDUCER(Suite, ...)                                                       \
    static_assert(::flipcheck::reducer_function<__VA_ARGS__> || ::flipcheck::arg_reducer_function<__VA_ARGS__>, \
                  "FLIPCHECK_GPU_CHECK_REDUCER needs a reducer function (check.hpp)");                \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, edge_battery, __VA_ARGS__)                                      \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, random_arrays, __VA_ARGS__)                                     \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, order_independence, __VA_ARGS__)                                \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, large_arrays, __VA_ARGS__)                                      \
    TEST(Suite, gpu_replay) {                                                                         \
        FLIPCHECK_GPU_SKIP_WITHOUT_DEVICE();                                                          \
        ::flipcheck::gpu::testing::replay(std::vector{::flipcheck::subject_of<__VA_ARGS__>()}, #Suite); \
    }                                                                                                 \
    static_assert(true)
