#include "flipcheck/shader/sweep.hpp"

#include <algorithm>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/shader/subjects.hpp"
#include "flipcheck/shader/vulkan.hpp"

namespace flipcheck::shader {
namespace {
constexpr std::uint64_t keys_per_group = 256 * 64;  // the harness's workgroup times its keys per invocation
constexpr std::uint32_t groups_per_dispatch = 16384;  // 2^28 keys: under the 65535 Vulkan guarantees
}  // namespace

std::string shader_sweep_report::text() const {
    std::string s = mapping + " over binary32 keys [" + hex(range.begin, 64) + ", " + hex(range.end, 64) + ") on " + device + ": ";
    s += passed() ? "pass" : "FAIL";
    s += " (" + std::to_string(range.size()) + " keys, " + std::to_string(gpu_ms) + " ms of GPU time)";
    for (int l = 0; l < shader_sweep_laws; ++l)
        if (failures_by_law[std::size_t(l)])
            s += "\n  " + std::string(law_names[std::size_t(l)]) + ": " + std::to_string(failures_by_law[std::size_t(l)]) +
                 " failing keys, the first " + hex(*first_failing_key[std::size_t(l)], 32);
    return s;
}

shader_sweep_report sweep_mapping(const source& mapping, key_range keys) {
    if (keys.begin % keys_per_group || keys.end % keys_per_group || keys.end > (std::uint64_t(1) << 32) || keys.begin >= keys.end)
        throw std::invalid_argument("a shader sweep takes keys [begin, end) in whole multiples of 16384, up to 2^32");
    source s = mapping;
    const bool hlsl = s.lang == language::hlsl;
    s.text += "\n" + std::string(shader_text(hlsl ? "sweep_harness.hlsl" : "sweep_harness.comp"));
    s.entry = hlsl ? "flipcheck_sweep" : "main";
    const std::vector<std::uint32_t> spirv = compile(s);
    job j{spirv, s.entry, {}, {}, 8 + shader_sweep_laws, {}};
    for (std::uint64_t k = keys.begin; k < keys.end;) {
        const std::uint64_t groups = std::min<std::uint64_t>(groups_per_dispatch, (keys.end - k) / keys_per_group);
        j.dispatches.push_back({std::uint32_t(groups), {std::uint32_t(k)}});
        k += groups * keys_per_group;
    }
    vulkan& vk = vulkan::get();
    const job_result r = vk.run(j);
    shader_sweep_report rep;
    rep.mapping = mapping.name;
    rep.device = vk.info().text();
    rep.range = keys;
    rep.gpu_ms = r.gpu_ms;
    for (std::size_t l = 0; l < shader_sweep_laws; ++l) {
        rep.failures_by_law[l] = r.output[2 * l] | std::uint64_t(r.output[2 * l + 1]) << 32;
        if (rep.failures_by_law[l]) rep.first_failing_key[l] = ~r.output[8 + l];
    }
    return rep;
}

std::string compare_with_cpu(const shader_sweep_report& gpu, const sweep_report& cpu) {
    std::string diff;
    for (std::size_t l = 0; l < shader_sweep_laws; ++l)
        if (gpu.failures_by_law[l] != cpu.failures_by_law[l])
            diff += std::string(law_names[l]) + ": " + std::to_string(gpu.failures_by_law[l]) + " failing keys on the device, " +
                    std::to_string(cpu.failures_by_law[l]) + " on the CPU\n";
    std::optional<std::uint64_t> gpu_first, cpu_first;
    for (const auto& k : gpu.first_failing_key)
        if (k) gpu_first = std::min<std::uint64_t>(gpu_first.value_or(*k), *k);
    for (const auto& c : cpu.counterexamples)
        if (c.law < law_id(shader_sweep_laws)) cpu_first = std::min<std::uint64_t>(cpu_first.value_or(c.key), c.key);
    if (gpu_first != cpu_first)
        diff += "first failing key: " + (gpu_first ? hex(*gpu_first, 32) : std::string("none")) + " on the device, " +
                (cpu_first ? hex(*cpu_first, 32) : std::string("none")) + " on the CPU\n";
    return diff;
}

sweep_report cpu_sweep(std::string_view twin, key_range keys) {
    sweep_options o;
    o.laws = shader_sweep_law_set;
    o.range = keys;
    o.all = true;
    o.limit = 16;
    std::optional<sweep_report> r;
    auto run = [&]<class E>() { r = sweep<typename E::template on<binary32>>(o); };
    if (!registry::with_name<registry::mappings>(twin, run)) registry::with_name<registry::mapping_mutants>(twin, run);
    if (!r) throw std::out_of_range("flipcheck's registry has no binary32 mapping named " + std::string(twin));
    return *r;
}

}  // namespace flipcheck::shader
