// Mappings written in shaders, swept through Vulkan and held against the CPU's sweep of their C++
// twins: each law's failure count and the first failing key must be the same. On lavapipe the
// domain is three slices of binary32's keys (the test name says which); on a GPU, all 2^32.
#include <gtest/gtest.h>

#include "device.hpp"
#include "flipcheck/shader/subjects.hpp"
#include "flipcheck/shader/sweep.hpp"

namespace fs = flipcheck::shader;
using flipcheck::key_range;

namespace {

fs::source mapping_source(const fs::mapping_shader_entry& m) {
    return {std::string(fs::shader_text(m.file)), std::string(m.name), m.lang};
}

// Where the laws bite: the bottom (-NaN, -inf), the middle (every key of -0, +0, the subnormals
// of both signs and the smallest normals) and the top (+inf, +NaN, the last key).
const std::vector<key_range> slices{{0, 1u << 22}, {0x7f000000u, 0x81000000u}, {(1ull << 32) - (1u << 22), 1ull << 32}};

void sweep_and_compare(const fs::mapping_shader_entry& m, const std::vector<key_range>& ranges) {
    bool failed = false;
    for (const key_range& r : ranges) {
        const auto gpu = fs::sweep_mapping(mapping_source(m), r);
        const auto cpu = fs::cpu_sweep(m.cpu_twin, r);
        EXPECT_EQ(fs::compare_with_cpu(gpu, cpu), "") << gpu.text();
        failed |= !gpu.passed();
        std::cout << gpu.text() << "\n";
    }
    EXPECT_EQ(failed, m.known_wrong) << m.name << (m.known_wrong ? " is known wrong and passed" : " failed");
}

}  // namespace

class ShaderSweep : public ::testing::TestWithParam<std::string> {};

TEST_P(ShaderSweep, agrees_with_the_cpu_on_2e25_keys_around_the_zeros_and_both_ends) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    for (const auto& m : fs::mapping_shaders())
        if (m.name == GetParam()) sweep_and_compare(m, slices);
}

// All 2^32 keys in one call: a GPU's work (lavapipe would take minutes on CI's cores).
TEST_P(ShaderSweep, agrees_with_the_cpu_on_all_2e32_keys_on_a_gpu) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    if (vk.info().name.find("llvmpipe") != std::string::npos) GTEST_SKIP() << "lavapipe runs on the CPU: 2^32 keys are a GPU's job";
    for (const auto& m : fs::mapping_shaders())
        if (m.name == GetParam()) sweep_and_compare(m, {{0, 1ull << 32}});
}

std::vector<std::string> mapping_names() {
    std::vector<std::string> v;
    for (const auto& m : fs::mapping_shaders()) v.emplace_back(m.name);
    return v;
}
INSTANTIATE_TEST_SUITE_P(Shaders, ShaderSweep, ::testing::ValuesIn(mapping_names()), [](const auto& info) { return info.param; });

TEST(ShaderSweep, a_range_that_is_not_whole_workgroups_is_refused) {
    const auto& m = fs::mapping_shaders().front();
    EXPECT_THROW(fs::sweep_mapping(mapping_source(m), {0, 1000}), std::invalid_argument);
    EXPECT_THROW(fs::sweep_mapping(mapping_source(m), {0, (1ull << 32) + 16384}), std::invalid_argument);
}
