// `flipcheck check --shader` and `flipcheck audit --shaders-only`, run as a user would: the
// examples' shaders (one right, one wrong), flipcheck's own mapping shaders, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "../../shader/tests/device.hpp"
#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

namespace {
const std::string examples = FLIPCHECK_EXAMPLES "/shaders/", ours = FLIPCHECK_SHADERS "/";
bool has(const std::string& out, const std::string& what) { return out.find(what) != std::string::npos; }
}  // namespace

TEST(shader_check, a_right_shader_passes_and_a_wrong_one_fails_with_a_repro_that_fails_again) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    auto ok = run_flipcheck("check --shader " + examples + "max_keys.hlsl --op max --format binary32 --policy nan=propagate "
                            "--workgroup 64 --cases 200");
    EXPECT_EQ(ok.exit_code, 0) << ok.output;
    EXPECT_TRUE(has(ok.output, "Vulkan device: ")) << ok.output;
    auto bad = run_flipcheck("check --shader " + examples + "wrong_nan_max.comp --op max --format binary32 --policy nan=propagate");
    EXPECT_EQ(bad.exit_code, 1) << bad.output;
    EXPECT_TRUE(has(bad.output, "FAIL")) << bad.output;
    const auto at = bad.output.find("repro: ");
    ASSERT_NE(at, std::string::npos) << bad.output;
    const std::string repro = bad.output.substr(at + 7, bad.output.find('\n', at) - at - 7);
    ASSERT_EQ(repro.rfind("flipcheck ", 0), 0u) << repro;
    auto again = run_flipcheck(repro.substr(10));
    EXPECT_EQ(again.exit_code, 1) << again.output;
    EXPECT_TRUE(has(again.output, "replay")) << again.output;
}

TEST(shader_check, a_mapping_shader_is_swept_and_a_wrong_one_fails_with_its_first_key) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    auto ok = run_flipcheck("check --shader " + ours + "seed001_branchless_map.hlsl --mapping --keys 0x7f000000:0x81000000");
    EXPECT_EQ(ok.exit_code, 0) << ok.output;
    auto bad = run_flipcheck("check --shader " + ours + "sign_bit_only_map.comp --mapping --keys 0x7f000000:0x81000000");
    EXPECT_EQ(bad.exit_code, 1) << bad.output;
    EXPECT_TRUE(has(bad.output, "successor_order: 16777215 failing keys, the first 0x7f000000")) << bad.output;
}

TEST(shader_check, bad_input_is_refused_with_exit_code_2) {
    const std::string right = examples + "max_keys.hlsl";
    std::ofstream("broken_shader.comp") << "#version 450\nvoid main() { nope = 1; }\n";
    std::ofstream("shader.txt") << "void main() {}\n";
    for (const std::string& args : std::vector<std::string>{
             "check --shader /no/such/file.hlsl --op max --policy nan=propagate",
          "check --shader broken_shader.comp --op max --policy nan=propagate",
          "check --shader shader.txt --op max --policy nan=propagate",
          "check --shader " + right + " --op max",
          "check --shader " + right + " --op max --policy nan=sometimes",
          "check --shader " + right + " --op max --policy zero=equal",
          "check --shader " + right + " --op maximum --policy nan=propagate",
          "check --shader " + right + " --op max --policy nan=propagate --workgroup 1",
          "check --shader " + right + " --op max --policy nan=propagate --format binary64",
          "check --shader " + right + " --op max --policy nan=propagate --define 'A B'",
          "check --shader " + right + " --mapping --keys 0:1000",
          "check --shader " + right + " --plugin x.so --op max --policy nan=propagate",
          "check --op max"}) {
        const auto r = run_flipcheck(args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_TRUE(has(r.output, "flipcheck: ")) << args << "\n" << r.output;
    }
    EXPECT_TRUE(has(run_flipcheck("check --shader broken_shader.comp --op max --policy nan=propagate").output, "nope"));
    // glslang itself only warns about a missing entry point: said as such, not as a workgroup too small.
    std::ofstream("empty.hlsl") << "";
    for (const auto& [args, said] : {std::pair{std::string("check --shader empty.hlsl --op max --policy nan=propagate"),
                                               std::string("empty.hlsl has no entry point named 'main'")},
                                     std::pair{"check --shader " + right + " --entry nosuch --op max --policy nan=propagate",
                                               std::string("has no entry point named 'nosuch'")}}) {
        const auto r = run_flipcheck(args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_TRUE(has(r.output, said)) << args << "\n" << r.output;
    }
}

// The shader's check runs in a process of its own: a shader that never returns (here on 1.0) is
// killed at --timeout and fails, where it would hang flipcheck with the device.
TEST(shader_check, a_shader_that_never_returns_fails_at_its_timeout) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    std::ifstream in(examples + "max_keys.hlsl");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string before = "    if (isnan(asfloat(bits)))";
    ASSERT_NE(text.find(before), std::string::npos);
    text.replace(text.find(before), 0, "    uint spin;\n    while (asfloat(bits) == 1.0f) { InterlockedAdd(best, 0, spin); }\n");
    std::ofstream("spins_on_one.hlsl") << text;
    const auto r = run_flipcheck("check --shader spins_on_one.hlsl --op max --policy nan=propagate --workgroup 64 --timeout 3");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "shader spins_on_one.hlsl: FAIL: its check did not return within --timeout 3 s (killed) during "))
        << r.output;
    EXPECT_TRUE(has(r.output, "verdict: FAIL")) << r.output;
}

TEST(shader_check, no_vulkan_device_is_exit_code_3_not_a_pass) {
    const auto none = flipcheck::test::run_flipcheck_env("FLIPCHECK_VULKAN_DEVICE=no-such-device",
                                                         "check --shader " + examples + "max_keys.hlsl --op max --policy nan=propagate");
    EXPECT_EQ(none.exit_code, 3) << none.output;
    EXPECT_TRUE(has(none.output, "no Vulkan device")) << none.output;
}

TEST(shader_check, the_audit_reports_the_drivers_max_and_the_seed_listing) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    auto r = run_flipcheck("audit --shaders-only --randoms 20");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has(r.output, "shader max() on ")) << r.output;
    EXPECT_TRUE(has(r.output, "shader seed001_interlocked_max on ")) << r.output;
    EXPECT_TRUE(has(r.output, "Vulkan: ")) << r.output;
}
