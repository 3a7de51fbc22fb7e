// GoogleTest cases for your own code on the GPU, one line each, in a .cu file (components
// flipcheck::gpu and flipcheck::rapidcheck):
//
//   FLIPCHECK_GPU_CHECK_MAPPING(Suite, my_key);    Suite.gpu_exhaustive: gpu::sweep over every key
//                                                  (binary64: Suite.gpu_sampled, the sampled domain
//                                                  plus 2^34 random keys)
//   FLIPCHECK_GPU_CHECK_ATOMIC(Suite, my_atomic);  Suite.gpu_warp, Suite.gpu_block_shared, Suite.gpu_grid:
//                                                  the strategy on real atomics (check.cuh), every
//                                                  stage of check.hpp in each launch shape
//   FLIPCHECK_GPU_CHECK_REDUCER(Suite, my_reducer); a reducer function that launches your own kernel:
//                                                  Suite.gpu_edge_battery, .gpu_random_arrays,
//                                                  .gpu_order_independence, .gpu_large_arrays (check.hpp's
//                                                  stages; the random one is check.hpp's seeded draw,
//                                                  since a RapidCheck property cannot skip)
//
// Each test is SKIPPED when no CUDA device is present, FAILS when FLIPCHECK_REQUIRE_GPU=1 is set
// and none is, and fails on a device that errors. Use them beside the CPU macros of
// flipcheck/rapidcheck.hpp (other test names in the same suite are fine).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/check.hpp"
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

template <class R>
void reducer_stage(check_stage st) {
    check_options o;
    o.stages = {st};
    const check_report r = ::flipcheck::check(::flipcheck::subject_of<R>(), o);
    ASSERT_TRUE(r.passed()) << r.text();
}

template <class A>
void atomic_form_check(atomic_form form) {
    const check_report r = ::flipcheck::check(gpu::subject_of<A>(form));
    ASSERT_TRUE(r.passed()) << r.text();
}

}  // namespace flipcheck::gpu::testing

#define FLIPCHECK_DETAIL_GPU_SKIP()                                                                   \
    if (const std::string why = ::flipcheck::gpu::testing::skip_reason(); !why.empty()) GTEST_SKIP() << why

#define FLIPCHECK_GPU_CHECK_MAPPING(Suite, ...)                                                       \
    static_assert(::flipcheck::mapping<__VA_ARGS__>, "FLIPCHECK_GPU_CHECK_MAPPING needs a flipcheck::mapping"); \
    [[maybe_unused]] static const bool Suite##_gpu_sweep_registered =                                 \
        ::flipcheck::gpu::testing::register_sweep<__VA_ARGS__>(#Suite, __FILE__, __LINE__);           \
    static_assert(true)

#define FLIPCHECK_GPU_CHECK_ATOMIC(Suite, ...)                                                        \
    static_assert(::flipcheck::atomic::atomic_strategy<__VA_ARGS__> || ::flipcheck::atomic::arg_atomic_strategy<__VA_ARGS__>, \
                  "FLIPCHECK_GPU_CHECK_ATOMIC needs an atomic strategy (atomic.hpp)");                \
    TEST(Suite, gpu_warp) {                                                                           \
        FLIPCHECK_DETAIL_GPU_SKIP();                                                                  \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::warp); \
    }                                                                                                 \
    TEST(Suite, gpu_block_shared) {                                                                   \
        FLIPCHECK_DETAIL_GPU_SKIP();                                                                  \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::block_shared); \
    }                                                                                                 \
    TEST(Suite, gpu_grid) {                                                                           \
        FLIPCHECK_DETAIL_GPU_SKIP();                                                                  \
        ::flipcheck::gpu::testing::atomic_form_check<__VA_ARGS__>(::flipcheck::gpu::atomic_form::grid); \
    }                                                                                                 \
    static_assert(true)

#define FLIPCHECK_DETAIL_GPU_STAGE(Suite, Stage, ...)                                                  \
    TEST(Suite, gpu_##Stage) {                                                                        \
        FLIPCHECK_DETAIL_GPU_SKIP();                                                                  \
        ::flipcheck::gpu::testing::reducer_stage<__VA_ARGS__>(::flipcheck::check_stage::Stage);       \
    }

#define FLIPCHECK_GPU_CHECK_REDUCER(Suite, ...)                                                       \
    static_assert(::flipcheck::reducer_function<__VA_ARGS__> || ::flipcheck::arg_reducer_function<__VA_ARGS__>, \
                  "FLIPCHECK_GPU_CHECK_REDUCER needs a reducer function (check.hpp)");                \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, edge_battery, __VA_ARGS__)                                      \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, random_arrays, __VA_ARGS__)                                     \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, order_independence, __VA_ARGS__)                                \
    FLIPCHECK_DETAIL_GPU_STAGE(Suite, large_arrays, __VA_ARGS__)                                      \
    static_assert(true)
