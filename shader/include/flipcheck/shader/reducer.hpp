// A compute shader as a reducer subject: checked by the same laws, stages and shrinking as every
// other reducer (check/reducers.hpp), through Vulkan.
//
// flipcheck's reducer convention, the "binding layout" a user's shader declares:
//   binding 0  readonly storage buffer of uint: the input, one element per 32-bit word
//              (a 16-bit format's bits in the low half)
//   binding 1  storage buffer of uint: workgroup g writes its answer's bits to word g
//   workgroup g reduces words [g * W, (g + 1) * W), W its workgroup size (local_size_x; y = z = 1)
//   flipcheck defines FLIPCHECK_OP_MAX or FLIPCHECK_OP_MIN (to 1), and FLIPCHECK_WORKGROUP_SIZE: a
//   shader that takes its size from it is checked at several sizes, a fixed-size one at its own.
// An array of n elements is padded to whole workgroups by repeating its first element (max and min
// are idempotent, so no policy's answer changes) and reduced in passes of the same shader over the
// previous pass's answers until one is left, as a multi-pass GPU reduction does. An empty array
// has no answer (nothing to dispatch).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/shader/compile.hpp"
#include "flipcheck/shader/vulkan.hpp"

namespace flipcheck::shader {

struct reducer_shader {
    std::string name;
    source code;  // flipcheck adds its defines to code.defines
    reduce_op op = reduce_op::max;
    policy declared{};
};

// The module at one workgroup size.
struct compiled_reducer {
    std::vector<std::uint32_t> spirv;
    std::string entry;
    std::uint32_t workgroup_size = 0;
};

// local_size_x of the module's compute entry point, from OpExecutionMode LocalSize. Throws
// compile_error where the module has none, or a y or z other than 1.
std::uint32_t local_size_x(std::span<const std::uint32_t> spirv);

compiled_reducer compile_reducer(const reducer_shader& s, std::uint32_t requested_size);

// The sizes to check: each of `candidates` the shader takes (and fits the device), once; a shader
// whose size is fixed gives its own size.
std::vector<std::uint32_t> workgroup_sizes(const reducer_shader& s, std::span<const std::uint32_t> candidates);
// 2, 3, 7, 31, 32, 33, 64, 65, 128, 255, 256, 1024: powers of two around the subgroup sizes (8,
// 32, 64) and their odd neighbours, which catch a reduction that assumes whole subgroups. (A
// workgroup of 1 reduces nothing: each pass would give back as many answers as it was given.)
std::vector<std::uint32_t> default_workgroup_sizes();

// Each array's answer (its word), nothing for an empty array.
std::vector<std::optional<std::uint32_t>> reduce_arrays(const compiled_reducer& c,
                                                        const std::vector<std::vector<std::uint32_t>>& arrays);

template <format F>
reducer_subject<F> subject_of(const reducer_shader& s, std::uint32_t workgroup_size) {
    static_assert(F::width <= 32, "the shader convention carries one element per 32-bit word");
    using S = typename F::storage;
    auto compiled = std::make_shared<compiled_reducer>(compile_reducer(s, workgroup_size));
    reducer_subject<F> r;
    r.name = s.name + " (workgroup " + std::to_string(compiled->workgroup_size) + ")";
    r.op = s.op;
    r.declared = s.declared;
    r.run_batch = [compiled](const std::vector<std::vector<S>>& arrays) {
        std::vector<std::vector<std::uint32_t>> words(arrays.size());
        for (std::size_t i = 0; i < arrays.size(); ++i) words[i].assign(arrays[i].begin(), arrays[i].end());
        std::vector<std::optional<std::uint64_t>> out;
        for (const auto& a : reduce_arrays(*compiled, words))
            out.push_back(a ? std::optional<std::uint64_t>(S(*a)) : std::nullopt);
        return out;
    };
    r.run = [batch = r.run_batch](std::span<const S> xs, std::span<const std::size_t>) {
        return batch({std::vector<S>(xs.begin(), xs.end())})[0];
    };
    return r;
}

}  // namespace flipcheck::shader

namespace flipcheck::shader {

// check/reducers.hpp's check of the shader at one workgroup size, for a format named at run time
// ("binary32" or "binary16"; std::invalid_argument for another).
check_report check_shader(const reducer_shader& s, std::string_view format, std::uint32_t workgroup_size,
                          const check_options& o = {});
// The formats the convention carries (one element per word, so up to 32 bits).
std::vector<std::string_view> shader_formats();

}  // namespace flipcheck::shader
