// The first line of every GPU test: SKIPPED when no device is present, a failure when the device
// is broken (device_error, with CUDA's message) or absent under FLIPCHECK_REQUIRE_GPU=1.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/gpu/device.hpp"

#define FLIPCHECK_REQUIRE_DEVICE()                                                \
    do {                                                                          \
        const std::string flipcheck_skip_reason = ::flipcheck::gpu::skip_reason(); \
        if (!flipcheck_skip_reason.empty()) GTEST_SKIP() << flipcheck_skip_reason; \
    } while (0)
