// HLSL and GLSL compute shaders to SPIR-V, through glslang's library (the compiler behind
// glslangValidator), in process: flipcheck's own shaders and a user's file take the same path.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace flipcheck::shader {

enum class language : std::uint8_t { hlsl, glsl };

// A source that does not compile: the message holds glslang's log (file:line: error ...).
struct compile_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct source {
    std::string text;
    std::string name;        // in messages ("seed001.hlsl")
    language lang = language::glsl;
    std::string entry = "main";
    std::vector<std::pair<std::string, std::string>> defines{};  // -D NAME=VALUE
};

// The language a file's name says: .hlsl -> HLSL; .comp and .glsl -> GLSL; else nothing.
bool language_of(const std::string& file_name, language& out);

// SPIR-V for Vulkan 1.2 (SPIR-V 1.5). Throws compile_error.
std::vector<std::uint32_t> compile(const source& s);

}  // namespace flipcheck::shader
