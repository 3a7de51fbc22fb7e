// A user's test file compiled with --use_fast_math (which turns on -ftz=true): the device oracle
// it instantiates would flush subnormals and judge them wrong, so every GPU check it runs is
// refused (detail/oracle_environment.cuh), before any verdict. SKIPPED without a device.
#include <gtest/gtest.h>

#include "flipcheck/gpu/detail/device_probe.hpp"
#include "flipcheck/gpu/sweep.hpp"
#include "flipcheck/gpu/sweep_launch.cuh"
#include "flipcheck/mapping.hpp"

namespace fc = flipcheck;

namespace {
// A user's mapping (the sign flip under its own name), so the sweep is instantiated in this file.
struct users_key : fc::sign_flip<fc::binary32> {
    static constexpr std::string_view name = "users_key";
};
}  // namespace

TEST(GpuFastMath, a_file_built_with_use_fast_math_is_refused_not_judged) {
    if (const std::string why = fc::gpu::detail::device_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    fc::sweep_options o;
    o.range = fc::key_range{0x7f000000u, 0x81000000u};  // every subnormal of both signs
    try {
        const fc::sweep_report r = fc::gpu::sweep<users_key>(o);
        FAIL() << "a sweep compiled with -ftz=true gave a verdict: " << (r.passed() ? "pass" : "fail");
    } catch (const fc::environment_error& e) {
        EXPECT_NE(std::string(e.what()).find("-ftz=true"), std::string::npos) << e.what();
    }
}
