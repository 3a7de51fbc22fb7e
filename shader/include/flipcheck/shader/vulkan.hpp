// A small Vulkan compute runner: one SPIR-V module, one input and one output buffer of 32-bit
// words, any number of dispatches, answers read back, GPU time from timestamp queries. It loads
// the Vulkan loader (libvulkan.so.1) at run time, so the flipcheck binary starts on a machine with
// no Vulkan at all and says so instead of failing to load.
//
// Two kinds of failure, kept apart because a test treats them differently:
//   vulkan_unavailable  no loader, or no device: a shader test reports SKIPPED
//   vulkan_error        a device that errors (a failed call, a lost device, a timeout): an error,
//                       never a skip and never a pass
// Pick a device with FLIPCHECK_VULKAN_DEVICE (a substring of its name, e.g. "llvmpipe" or
// "NVIDIA"); the default is the first discrete GPU, else the first device.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace flipcheck::shader {

struct vulkan_unavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct vulkan_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct device_info {
    std::string name, driver, driver_info, api;  // api: "1.3.230"
    std::uint32_t vendor_id = 0;
    bool float16 = false, int16 = false;          // float16_t / int16_t arithmetic in shaders
    bool subgroup_arithmetic = false;             // subgroupMax and friends, in compute
    std::uint32_t subgroup_size = 0;
    std::uint32_t max_workgroup_size = 0;         // x, and the invocations in a workgroup
    bool denorm_preserve32 = false, denorm_flush32 = false, signed_zero_inf_nan32 = false;
    std::string text() const;  // "llvmpipe (LLVM 15.0.6, 256 bits), driver llvmpipe Mesa 22.3.6, Vulkan 1.3.230"
};

// One compute pipeline's work: the module, its entry point, specialization constants (id, value),
// the input words (binding 0, a storage buffer) and the output words (binding 1, zeroed first),
// and the dispatches, each with up to four push-constant words.
struct dispatch {
    std::uint32_t groups = 1;
    std::vector<std::uint32_t> push{};
};
struct job {
    std::span<const std::uint32_t> spirv;
    std::string entry = "main";
    std::vector<std::pair<std::uint32_t, std::uint32_t>> specialization{};
    std::span<const std::uint32_t> input{};
    std::size_t output_words = 1;
    std::vector<dispatch> dispatches{};
};
struct job_result {
    std::vector<std::uint32_t> output;
    double gpu_ms = 0;  // first dispatch's start to the last's end, by timestamps
};

class vulkan {
public:
    // The process's one device (opened on first use; FLIPCHECK_VULKAN_DEVICE picks it).
    // Throws vulkan_unavailable or vulkan_error.
    static vulkan& get();
    const device_info& info() const;
    job_result run(const job& j);
    ~vulkan();

private:
    vulkan();
    struct state;
    std::unique_ptr<state> s_;
};

}  // namespace flipcheck::shader
