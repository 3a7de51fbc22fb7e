#include "flipcheck/shader/compile.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/MachineIndependent/localintermediate.h>  // getNumEntryPoints
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>

namespace flipcheck::shader {

bool language_of(const std::string& file_name, language& out) {
    auto ends = [&](const std::string& s) {
        return file_name.size() >= s.size() && file_name.compare(file_name.size() - s.size(), s.size(), s) == 0;
    };
    if (ends(".hlsl")) return out = language::hlsl, true;
    if (ends(".comp") || ends(".glsl")) return out = language::glsl, true;
    return false;
}

std::vector<std::uint32_t> compile(const source& s) {
    // glslang's process-wide tables; finalized at exit by the library itself.
    static std::once_flag once;
    std::call_once(once, [] { glslang::InitializeProcess(); });
    // glslang's parser keeps per-thread pools; one compile at a time keeps it simple.
    static std::mutex lock;
    std::lock_guard guard(lock);

    std::string preamble;
    for (const auto& [name, value] : s.defines) preamble += "#define " + name + " " + value + "\n";
    glslang::TShader shader(EShLangCompute);
    const char* text = s.text.c_str();
    const char* names = s.name.c_str();
    shader.setStringsWithLengthsAndNames(&text, nullptr, &names, 1);
    shader.setPreamble(preamble.c_str());
    shader.setEntryPoint(s.entry.c_str());
    shader.setSourceEntryPoint(s.entry.c_str());
    const bool hlsl = s.lang == language::hlsl;
    shader.setEnvInput(hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
    const auto messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules | (hlsl ? int(EShMsgReadHlsl) : 0));
    if (!shader.parse(GetDefaultResources(), 460, false, messages))
        throw compile_error(s.name + " does not compile (glslang):\n" + shader.getInfoLog());
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages)) throw compile_error(s.name + " does not link (glslang):\n" + program.getInfoLog());
    if (!program.getIntermediate(EShLangCompute))
        throw compile_error(s.name + ": glslang produced no compute stage (is it a compute shader?)");
    // glslang only warns when the entry point is missing (an empty file, a misspelt --entry) and
    // makes an empty one of 1x1x1 invocations, which would be reported as a workgroup too small.
    if (program.getIntermediate(EShLangCompute)->getNumEntryPoints() == 0)
        throw compile_error(s.name + " has no entry point named '" + s.entry + "' (is the file empty? name another with --entry NAME)");
    std::vector<std::uint32_t> spirv;
    spv::SpvBuildLogger logger;
    glslang::SpvOptions options;
    options.validate = true;
    glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &logger, &options);
    if (spirv.empty()) throw compile_error(s.name + ": glslang produced no SPIR-V:\n" + logger.getAllMessages());
    return spirv;
}

}  // namespace flipcheck::shader
