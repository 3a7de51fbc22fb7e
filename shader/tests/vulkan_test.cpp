// The runner and the compiler on their own: a dispatch's answers, the device's report, and every
// failure a clear message (compile_error with glslang's log, vulkan_error for what the device
// refuses).
#include "flipcheck/shader/vulkan.hpp"

#include <gtest/gtest.h>

#include "device.hpp"
#include "flipcheck/shader/compile.hpp"
#include "flipcheck/shader/reducer.hpp"

namespace fs = flipcheck::shader;

namespace {
const char* twice_plus_one = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer In { uint in_bits[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_bits[]; };
layout(push_constant) uniform P { uint add; } p;
void main() { out_bits[gl_GlobalInvocationID.x] = in_bits[gl_GlobalInvocationID.x] * 2u + p.add; }
)";
}  // namespace

TEST(Vulkan, a_dispatch_gives_every_answer_and_the_device_says_what_it_is) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    const auto spirv = fs::compile({twice_plus_one, "twice_plus_one.comp", fs::language::glsl});
    std::vector<std::uint32_t> in(64);
    for (std::uint32_t i = 0; i < 64; ++i) in[i] = i * 1000003u;
    const auto r = vk.run({spirv, "main", {}, in, 64, {{8, {7}}}});
    ASSERT_EQ(r.output.size(), 64u);
    for (std::uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.output[i], in[i] * 2u + 7u) << i;
    EXPECT_FALSE(vk.info().name.empty());
    EXPECT_FALSE(vk.info().driver.empty());
    EXPECT_GE(vk.info().max_workgroup_size, 128u);
    std::cout << "Vulkan device: " << vk.info().text() << "\n";
}

TEST(Vulkan, a_module_that_is_not_spirv_is_an_error_not_a_crash) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    const std::vector<std::uint32_t> junk{1, 2, 3, 4, 5, 6};
    try {
        vk.run({junk, "main", {}, {}, 1, {{1, {}}}});
        FAIL() << "no error";
    } catch (const fs::vulkan_error& e) {
        EXPECT_NE(std::string(e.what()).find("not a SPIR-V module"), std::string::npos) << e.what();
    }
}

TEST(Compile, a_source_that_does_not_compile_gives_glslangs_log) {
    try {
        fs::compile({"#version 450\nvoid main() { undeclared = 1; }\n", "broken.comp", fs::language::glsl});
        FAIL() << "no error";
    } catch (const fs::compile_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("broken.comp"), std::string::npos) << m;
        EXPECT_NE(m.find("undeclared"), std::string::npos) << m;
    }
    EXPECT_THROW(fs::compile({"[numthreads(1,1,1)] void main() { nope(); }", "broken.hlsl", fs::language::hlsl}), fs::compile_error);
}

TEST(Compile, the_workgroup_size_is_read_from_the_module) {
    const auto spirv = fs::compile({twice_plus_one, "twice_plus_one.comp", fs::language::glsl});
    EXPECT_EQ(fs::local_size_x(spirv), 8u);
    const auto two_d = fs::compile({"#version 450\nlayout(local_size_x = 4, local_size_y = 2) in;\nvoid main() {}\n", "2d.comp",
                                    fs::language::glsl});
    EXPECT_THROW(fs::local_size_x(two_d), fs::compile_error);
}

TEST(Compile, a_file_name_says_its_language) {
    fs::language l{};
    EXPECT_TRUE(fs::language_of("a/b.hlsl", l));
    EXPECT_EQ(l, fs::language::hlsl);
    EXPECT_TRUE(fs::language_of("x.comp", l));
    EXPECT_EQ(l, fs::language::glsl);
    EXPECT_FALSE(fs::language_of("x.spv", l));
}
