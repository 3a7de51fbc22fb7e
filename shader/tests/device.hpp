// The shader tests' one rule about the device: no Vulkan is SKIPPED (with the reason), unless
// FLIPCHECK_REQUIRE_VULKAN or FLIPCHECK_REQUIRE_GPU is set (CMake sets the first where the build
// machine has a Vulkan driver, the device scripts the second): then it is a failure. A device
// that errors is always a failure.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "flipcheck/shader/vulkan.hpp"

namespace flipcheck::shader::testing {

inline bool required() {
    for (const char* v : {"FLIPCHECK_REQUIRE_VULKAN", "FLIPCHECK_REQUIRE_GPU"})
        if (const char* s = std::getenv(v); s && *s && std::string(s) != "0") return true;
    return false;
}

// The device, or nullptr after GTEST_SKIP / a failure has been recorded.
inline vulkan* device_or_skip(std::string& skip_reason) {
    try {
        vulkan& vk = vulkan::get();
        return &vk;
    } catch (const vulkan_unavailable& e) {
        if (required()) ADD_FAILURE() << "no Vulkan device, and one is required: " << e.what();
        skip_reason = e.what();
        return nullptr;
    }
}

}  // namespace flipcheck::shader::testing

// In a test body: the device as `vk`, or the test skips (or fails, where Vulkan is required).
#define FLIPCHECK_VULKAN_OR_SKIP(vk)                                            \
    std::string flipcheck_skip_reason;                                          \
    ::flipcheck::shader::vulkan* vk##_ptr =                                     \
        ::flipcheck::shader::testing::device_or_skip(flipcheck_skip_reason);    \
    if (!vk##_ptr) {                                                            \
        if (::flipcheck::shader::testing::required()) return;                   \
        GTEST_SKIP() << flipcheck_skip_reason;                                  \
    }                                                                           \
    [[maybe_unused]] ::flipcheck::shader::vulkan& vk = *vk##_ptr
