#include "flipcheck/shader/reducer.hpp"

#include <algorithm>
#include <set>

namespace flipcheck::shader {

std::uint32_t local_size_x(std::span<const std::uint32_t> spirv) {
    constexpr std::uint32_t op_execution_mode = 16, mode_local_size = 17;
    for (std::size_t i = 5; i < spirv.size();) {
        const std::uint32_t count = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
        if (count == 0 || i + count > spirv.size()) break;
        if (opcode == op_execution_mode && count >= 6 && spirv[i + 2] == mode_local_size) {
            if (spirv[i + 4] != 1 || spirv[i + 5] != 1)
                throw compile_error("the shader's workgroup is " + std::to_string(spirv[i + 3]) + "x" + std::to_string(spirv[i + 4]) +
                                    "x" + std::to_string(spirv[i + 5]) + "; flipcheck's reducer convention takes a workgroup of "
                                    "W x 1 x 1 invocations");
            return spirv[i + 3];
        }
        i += count;
    }
    throw compile_error("the shader declares no fixed workgroup size (OpExecutionMode LocalSize): write local_size_x = "
                        "FLIPCHECK_WORKGROUP_SIZE, or [numthreads(FLIPCHECK_WORKGROUP_SIZE, 1, 1)]");
}

compiled_reducer compile_reducer(const reducer_shader& s, std::uint32_t requested_size) {
    source src = s.code;
    src.defines.emplace_back(s.op == reduce_op::max ? "FLIPCHECK_OP_MAX" : "FLIPCHECK_OP_MIN", "1");
    src.defines.emplace_back("FLIPCHECK_WORKGROUP_SIZE", std::to_string(requested_size));
    compiled_reducer c{compile(src), src.entry, 0};
    c.workgroup_size = local_size_x(c.spirv);
    return c;
}

std::vector<std::uint32_t> default_workgroup_sizes() { return {2, 3, 7, 31, 32, 33, 64, 65, 128, 255, 256, 1024}; }

std::vector<std::uint32_t> workgroup_sizes(const reducer_shader& s, std::span<const std::uint32_t> candidates) {
    const std::uint32_t limit = vulkan::get().info().max_workgroup_size;
    std::set<std::uint32_t> sizes;
    for (std::uint32_t want : candidates)
        if (want <= limit) sizes.insert(compile_reducer(s, want).workgroup_size);
    if (sizes.empty()) sizes.insert(compile_reducer(s, 64).workgroup_size);
    for (std::uint32_t w : sizes)
        if (w > limit)
            throw vulkan_error(s.name + " declares a workgroup of " + std::to_string(w) + " invocations; " + vulkan::get().info().name +
                               " takes at most " + std::to_string(limit));
    return {sizes.begin(), sizes.end()};
}

std::vector<std::optional<std::uint32_t>> reduce_arrays(const compiled_reducer& c,
                                                        const std::vector<std::vector<std::uint32_t>>& arrays) {
    const std::size_t w = c.workgroup_size;
    // One invocation per workgroup reduces nothing: every pass would give back as many answers.
    if (w < 2) throw compile_error("a reducer shader needs a workgroup of at least 2 invocations; this one has " + std::to_string(w));
    // Vulkan guarantees 65535 workgroups in x: a longer pass is sent as several jobs, an array's
    // workgroups possibly split between two.
    constexpr std::size_t max_groups = 65535;
    std::vector<std::vector<std::uint32_t>> level = arrays;
    std::vector<std::optional<std::uint32_t>> out(arrays.size());
    for (bool first = true;; first = false) {
        // The arrays with more than one element left; in the first pass every array, so that the
        // shader sees each (a single element too).
        std::vector<std::pair<std::size_t, std::size_t>> groups_of;  // (array, its workgroups)
        std::vector<std::uint32_t> input;
        for (std::size_t i = 0; i < level.size(); ++i) {
            const auto& a = level[i];
            if (a.empty() || (!first && a.size() == 1)) continue;
            const std::size_t n = (a.size() + w - 1) / w;
            input.insert(input.end(), a.begin(), a.end());
            input.insert(input.end(), n * w - a.size(), a.front());
            groups_of.emplace_back(i, n);
        }
        if (groups_of.empty()) break;
        const std::size_t total = input.size() / w;
        std::vector<std::uint32_t> answers;
        answers.reserve(total);
        for (std::size_t g = 0; g < total; g += max_groups) {
            const std::size_t n = std::min(max_groups, total - g);
            const job j{c.spirv, c.entry, {}, std::span<const std::uint32_t>(input).subspan(g * w, n * w), n, {{std::uint32_t(n), {}}}};
            const auto got = vulkan::get().run(j).output;
            answers.insert(answers.end(), got.begin(), got.end());
        }
        std::size_t g = 0;
        for (auto [i, n] : groups_of) {
            level[i].assign(answers.begin() + std::ptrdiff_t(g), answers.begin() + std::ptrdiff_t(g + n));
            g += n;
        }
    }
    for (std::size_t i = 0; i < level.size(); ++i)
        if (!level[i].empty()) out[i] = level[i].front();
    return out;
}

std::vector<std::string_view> shader_formats() { return {binary32::name, binary16::name}; }

check_report check_shader(const reducer_shader& s, std::string_view format, std::uint32_t workgroup_size, const check_options& o) {
    if (format == binary32::name) return check(subject_of<binary32>(s, workgroup_size), o);
    if (format == binary16::name) return check(subject_of<binary16>(s, workgroup_size), o);
    throw std::invalid_argument("a shader reducer takes binary32 or binary16, not " + std::string(format));
}

}  // namespace flipcheck::shader
