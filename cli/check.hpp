// `flipcheck check --plugin lib.so`: every driver that applies, on the subjects a user's shared
// library exports (flipcheck/export.hpp, plugin_abi.h).
#pragma once
#include <cstdint>
#include <string>

namespace flipcheck::cli {

struct check_args {
    std::string plugin, subject, format, device = "auto", key, case_file, json;
    bool all = false;
    std::uint64_t seed = 1;
    std::size_t cases = 2000;
};

// Exit status: 0 every subject passed, 1 one failed (a repro command is printed for each),
// 2 bad input (nothing is run), 3 a subject's own code failed to run.
int run_check(const check_args& a);

}  // namespace flipcheck::cli
