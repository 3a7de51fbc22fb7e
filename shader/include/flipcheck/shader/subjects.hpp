// flipcheck's own shaders, one registry line each: the reducers (seed 001's listing verbatim, the
// branchless pair under the article's three NaN options, the GLSL, subgroup and float16 forms, the
// driver's max()/min()) and the mappings for the sweep. A new shader subject is its file in
// shader/shaders/ plus one line here; every driver (the main job's shader section, `flipcheck
// list`, the audit, the tests) iterates these lists.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/policy.hpp"
#include "flipcheck/shader/compile.hpp"
#include "flipcheck/shader/reducer.hpp"
#include "flipcheck/shader/vulkan.hpp"

namespace flipcheck::shader {

// The text of one of flipcheck's shader files (shader/shaders/NAME), built into the library.
// Throws std::out_of_range for a name it does not have.
std::string_view shader_text(std::string_view file);
std::vector<std::string_view> shader_files();

enum class needs : std::uint8_t { nothing, float16, subgroups };

struct shader_subject {
    std::uint8_t id;                      // stable, never reused
    std::string_view name;
    std::vector<std::string_view> files;  // concatenated in this order (a mapping, then its reduction)
    language lang;
    reduce_op op;
    policy declared;
    std::string_view format;              // binary32 or binary16
    int nan_option;                       // the article's option 1, 2 or 3 (FLIPCHECK_NAN_OPTION); 0: none to pick
    needs device_needs;
    std::string_view origin, description;
    bool audit_only = false;              // declares nothing checkable (the driver's max()): audited, not judged
    bool known_wrong = false;             // a mutant: its check must fail
};
const std::vector<shader_subject>& shader_subjects();
const shader_subject& shader_subject_named(std::string_view name);  // throws std::out_of_range

// Whether the device can run it; `why` says what it lacks.
bool runs_on(const shader_subject& s, const device_info& d, std::string* why = nullptr);
reducer_shader reducer_of(const shader_subject& s);

// The mappings the sweep checks, each with its C++ twin's name in flipcheck's registry (the CPU
// sweep of the twin must find the same failures, key for key).
struct mapping_shader_entry {
    std::string_view name;
    std::string_view file;
    language lang;
    std::string_view cpu_twin;  // a binary32 mapping or mapping mutant of registry.hpp
    bool known_wrong;
    std::string_view description;
};
const std::vector<mapping_shader_entry>& mapping_shaders();

}  // namespace flipcheck::shader
