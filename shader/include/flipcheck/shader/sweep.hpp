// A mapping written in a shader, swept over binary32 keys through Vulkan: the mapping's file
// defines `uint flipcheck_encode(uint bits)` and `uint flipcheck_decode(uint key)` (HLSL or GLSL;
// a GLSL file starts with its #version line), and flipcheck appends its harness in the same
// language (shaders/sweep_harness.*), which checks four of the mapping laws at every key on the
// device: round_trip_key, round_trip_bits, successor_order, zero_placement (law.hpp). 2^32 keys
// take one call; the CPU holds the result against its own sweep (compare_with_cpu).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "flipcheck/law.hpp"
#include "flipcheck/check/report.hpp"
#include "flipcheck/shader/compile.hpp"

namespace flipcheck::shader {

inline constexpr int shader_sweep_laws = 4;  // the first four law_ids
inline constexpr law_set shader_sweep_law_set = (law_set(1) << shader_sweep_laws) - 1;

struct shader_sweep_report {
    std::string mapping, device;
    key_range range;
    std::array<std::uint64_t, shader_sweep_laws> failures_by_law{};
    std::array<std::optional<std::uint32_t>, shader_sweep_laws> first_failing_key{};
    double gpu_ms = 0;  // the dispatches, by the device's timestamps
    bool passed() const noexcept {
        for (auto n : failures_by_law)
            if (n) return false;
        return true;
    }
    std::string text() const;
};

// Keys [begin, end): multiples of 2^14 (one workgroup's keys), end at most 2^32. Throws
// compile_error, vulkan_unavailable, vulkan_error.
shader_sweep_report sweep_mapping(const source& mapping, key_range keys);

// Whether the CPU's sweep of the same laws over the same keys (`cpu`, a sweep_report of the C++
// mapping the shader spells) finds the same failures: each law's count, and the first failing key
// overall. Empty when they agree, else what differs.
std::string compare_with_cpu(const shader_sweep_report& gpu, const sweep_report& cpu);

// The CPU's sweep of the same four laws over the same keys, for a binary32 mapping or mapping
// mutant of flipcheck's registry named `twin` (std::out_of_range if none has that name).
sweep_report cpu_sweep(std::string_view twin, key_range keys);

}  // namespace flipcheck::shader
