#include "flipcheck/shader/subjects.hpp"

#include <algorithm>
#include <stdexcept>

namespace flipcheck::shader {
namespace detail {
extern const std::pair<std::string_view, std::string_view> shader_sources[];
extern const std::size_t shader_source_count;
}  // namespace detail

std::string_view shader_text(std::string_view file) {
    for (std::size_t i = 0; i < detail::shader_source_count; ++i)
        if (detail::shader_sources[i].first == file) return detail::shader_sources[i].second;
    throw std::out_of_range("flipcheck has no shader file named " + std::string(file));
}
std::vector<std::string_view> shader_files() {
    std::vector<std::string_view> v;
    for (std::size_t i = 0; i < detail::shader_source_count; ++i) v.push_back(detail::shader_sources[i].first);
    return v;
}

namespace {
constexpr policy undefined_nan{nan_policy::undefined, zero_policy::ordered};
constexpr policy ignore_nan{nan_policy::ignore, zero_policy::ordered};
constexpr policy propagate_nan{nan_policy::propagate, zero_policy::ordered};
constexpr std::string_view seed = "seed 001 (000): Interlocked min/max on HLSL single precision floats";
}  // namespace

const std::vector<shader_subject>& shader_subjects() {
    using enum reduce_op;
    using enum language;
    static const std::vector<shader_subject> all{
        {0xa1, "seed001_interlocked_max", {"seed001_interlocked.hlsl"}, hlsl, max, undefined_nan, "binary32", 0, needs::nothing, seed,
         "the article's first listing verbatim (branches, groupshared InterlockedMax), NaN option 3"},
        {0xa2, "seed001_interlocked_min", {"seed001_interlocked.hlsl"}, hlsl, min, undefined_nan, "binary32", 0, needs::nothing, seed,
         "the article's first listing verbatim (branches, groupshared InterlockedMin), NaN option 3"},
        {0xa3, "seed001_branchless_ignore_max", {"seed001_branchless_map.hlsl", "keys_reduce.hlsl"}, hlsl, max, ignore_nan, "binary32", 1,
         needs::nothing, seed, "the branchless pair; NaN option 1: isnan, then skip the interlocked operation"},
        {0xa4, "seed001_branchless_ignore_min", {"seed001_branchless_map.hlsl", "keys_reduce.hlsl"}, hlsl, min, ignore_nan, "binary32", 1,
         needs::nothing, seed, "the branchless pair; NaN option 1: isnan, then skip the interlocked operation"},
        {0xa5, "seed001_branchless_propagate_max", {"seed001_branchless_map.hlsl", "keys_reduce.hlsl"}, hlsl, max, propagate_nan, "binary32",
         2, needs::nothing, seed, "the branchless pair; NaN option 2: isnan, then set the sign so the NaN wins"},
        {0xa6, "seed001_branchless_propagate_min", {"seed001_branchless_map.hlsl", "keys_reduce.hlsl"}, hlsl, min, propagate_nan, "binary32",
         2, needs::nothing, seed, "the branchless pair; NaN option 2: isnan, then set the sign so the NaN wins"},
        {0xa7, "seed001_branchless_undefined_max", {"seed001_branchless_map.hlsl", "keys_reduce.hlsl"}, hlsl, max, undefined_nan, "binary32",
         3, needs::nothing, seed, "the branchless pair; NaN option 3: nothing"},
        {0xa8, "seed001_branchy_propagate_max", {"seed001_branchy_map.hlsl", "keys_reduce.hlsl"}, hlsl, max, propagate_nan, "binary32", 2,
         needs::nothing, seed, "the first listing's branches as a mapping; NaN option 2"},
        {0xa9, "glsl_keys_propagate_max", {"branchless_map.comp", "keys_reduce.comp"}, glsl, max, propagate_nan, "binary32", 2,
         needs::nothing, seed, "the GLSL spelling: shared atomicMax on the branchless keys; NaN option 2"},
        {0xaa, "glsl_keys_ignore_min", {"branchless_map.comp", "keys_reduce.comp"}, glsl, min, ignore_nan, "binary32", 1, needs::nothing,
         seed, "the GLSL spelling: shared atomicMin on the branchless keys; NaN option 1"},
        {0xab, "glsl_subgroup_propagate_max", {"branchless_map.comp", "keys_subgroup.comp"}, glsl, max, propagate_nan, "binary32", 2,
         needs::subgroups, seed, "subgroupMax on keys, one shared atomicMax per subgroup; NaN option 2"},
        {0xac, "glsl_subgroup_ignore_min", {"branchless_map.comp", "keys_subgroup.comp"}, glsl, min, ignore_nan, "binary32", 1,
         needs::subgroups, seed, "subgroupMin on keys, one shared atomicMin per subgroup; NaN option 1"},
        {0xad, "glsl_float16_propagate_max", {"keys_reduce_f16.comp"}, glsl, max, propagate_nan, "binary16", 2, needs::float16, seed,
         "float16_t elements, 16-bit keys (the pair at width 16); NaN option 2"},
        {0xae, "glsl_float16_ignore_min", {"keys_reduce_f16.comp"}, glsl, min, ignore_nan, "binary16", 1, needs::float16, seed,
         "float16_t elements, 16-bit keys (the pair at width 16); NaN option 1"},
        {0xaf, "driver_max", {"max_intrinsic.comp"}, glsl, max, undefined_nan, "binary32", 0, needs::nothing,
         "SPIR-V GLSL.std.450 FMax", "the driver's max() on floats, folded left to right (the audit's row)", true},
        {0xb0, "driver_min", {"max_intrinsic.comp"}, glsl, min, undefined_nan, "binary32", 0, needs::nothing,
         "SPIR-V GLSL.std.450 FMin", "the driver's min() on floats, folded left to right (the audit's row)", true},
        {0xc1, "raw_bits_max", {"raw_bits_max.comp"}, glsl, max, propagate_nan, "binary32", 0, needs::nothing,
         "the bug class every seed warns about", "atomicMax on a float's raw bits, no mapping: must fail", false, true},
    };
    return all;
}

const shader_subject& shader_subject_named(std::string_view name) {
    for (const auto& s : shader_subjects())
        if (s.name == name) return s;
    throw std::out_of_range("flipcheck has no shader subject named " + std::string(name));
}

bool runs_on(const shader_subject& s, const device_info& d, std::string* why) {
    std::string lack;
    if (s.device_needs == needs::float16 && !d.float16) lack = "shaderFloat16 and shaderInt16";
    if (s.device_needs == needs::subgroups && !d.subgroup_arithmetic) lack = "subgroup arithmetic in compute shaders";
    if (why) *why = lack.empty() ? "" : d.name + " lacks " + lack;
    return lack.empty();
}

reducer_shader reducer_of(const shader_subject& s) {
    reducer_shader r;
    r.name = std::string(s.name);
    for (auto f : s.files) r.code.text += std::string(shader_text(f)) + "\n";
    r.code.name = std::string(s.files.back());
    r.code.lang = s.lang;
    if (s.nan_option) r.code.defines.emplace_back("FLIPCHECK_NAN_OPTION", std::to_string(s.nan_option));
    r.op = s.op;
    r.declared = s.declared;
    return r;
}

const std::vector<mapping_shader_entry>& mapping_shaders() {
    using enum language;
    static const std::vector<mapping_shader_entry> all{
        {"seed001_branchless_map", "seed001_branchless_map.hlsl", hlsl, "sign_flip_branchless", false,
         "seed 001's branchless pair, verbatim (HLSL)"},
        {"seed001_branchy_map", "seed001_branchy_map.hlsl", hlsl, "sign_flip", false, "seed 001's first listing's branches (HLSL)"},
        {"glsl_branchless_map", "branchless_map.comp", glsl, "sign_flip_branchless", false, "the GLSL spelling of the pair"},
        {"sign_bit_only_map", "sign_bit_only_map.comp", glsl, "sign_bit_only", true, "flips only the sign bit (GLSL): must fail"},
    };
    return all;
}

}  // namespace flipcheck::shader
