// `flipcheck check --plugin lib.so`: every driver that applies, on the subjects a user's shared
// library exports (flipcheck/plugin/export.hpp, plugin/abi.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace flipcheck::cli {

struct check_args {
    std::string plugin, subject, format, device = "auto", key, case_file, json;
    bool all = false;
    bool every_input = false;  // quantizers, scales, keys of binary32: every input, not a sample
    // The caller's rounding mode a scale, quantizer or amax is checked in (rounding_mode.hpp's
    // names), or "any": each of the four, the subject claiming to be right in any.
    std::string rounding = "to_nearest";
    // Highway targets a plug-in that dispatches through Highway runs on, one after another
    // (cpu_targets.hpp): "all", names separated by commas, or empty (Highway's own choice).
    std::string cpu_targets;
    std::uint64_t seed = 1;
    std::size_t cases = 2000;
    double timeout = 60;  // seconds one call into a subject may take (a mapping's whole sweep is one call)
    // A compute shader instead of a plug-in (shader.cpp): its file, entry point, what it reduces and
    // what it declares, or --mapping for a shader mapping's sweep.
    std::string shader, entry = "main", op, policy, workgroup = "all", keys, lang;
    std::vector<std::string> defines;
    bool mapping = false;
    // A Python function served by an adapter process (check_adapter.cpp): its command, or the
    // process that started flipcheck (the pytest helper) on standard input and output.
    std::string adapter;
    bool adapter_stdio = false;
};

// The text of the file an option names; input_error where it is not a readable file.
std::string read_text(const std::string& option, const std::string& path);

// Exit status (exit_code.hpp): 0 every subject passed, 1 one failed (a law broken, or it crashed,
// exited, threw or hung: each subject runs in a process of its own, isolated.hpp; a repro command
// is printed for each), 2 bad input (nothing is run), 130/143 interrupted.
int run_check(const check_args& a);
// `flipcheck check --adapter CMD` / `--adapter-stdio`: the same exit statuses (a subject that
// raises or whose adapter stops answering fails, with the input it was given).
int run_adapter_check(const check_args& a);
// `flipcheck check --shader FILE`: the same exit statuses.
int run_shader_check(const check_args& a);
// `flipcheck list`'s shader section: flipcheck's shader subjects and mappings (shader/), and the
// Vulkan device if there is one.
std::string shader_list();

}  // namespace flipcheck::cli
