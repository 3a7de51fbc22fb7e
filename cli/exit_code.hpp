// flipcheck's exit codes: one table for every command, printed by `flipcheck --help` and copied in
// the README ("Exit codes"); cli_test checks that the three agree.
#pragma once
#include <string_view>

namespace flipcheck::cli {

enum exit_code : int {
    exit_pass = 0,         // every subject checked passed (and something was checked)
    exit_fail = 1,         // a subject failed: a law broken, or it crashed, exited, hung or threw
    exit_bad_input = 2,    // bad arguments, files or plug-ins, or an output that cannot be written
    exit_device = 3,       // the GPU or the Vulkan device failed (an error, never a skip)
    exit_internal = 4,     // a bug in flipcheck: please report it
    exit_incomplete = 5,   // merge: shards missing or damaged, none failing; prove (prove/main.cpp): a law undecided
    exit_interrupted = 130,  // Ctrl-C (SIGINT): what was checked is printed; a checkpoint resumes a sweep
    exit_terminated = 143,   // SIGTERM: the same
};

inline constexpr std::string_view exit_code_table =
    "Exit codes:\n"
    "  0    pass: every subject checked passed (checking nothing is never a pass)\n"
    "  1    fail: a subject broke a law, or crashed, exited, hung or threw while checked\n"
    "  2    bad input: arguments, files, plug-ins, or an output that cannot be written\n"
    "  3    the GPU or the Vulkan device failed (an error, never a skip)\n"
    "  4    internal error: a bug in flipcheck, please report it\n"
    "  5    incomplete: merge's shards missing or damaged and none failed (listed with the commands that rerun them); prove: a law the "
    "solver did not decide within --timeout\n"
    "  130  interrupted (Ctrl-C); 143 terminated (SIGTERM): what was checked is printed, a checkpoint resumes\n";

}  // namespace flipcheck::cli
