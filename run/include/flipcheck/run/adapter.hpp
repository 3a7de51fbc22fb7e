// Frameworks through an adapter process (adapters/README.md has the format): flipcheck writes the
// cases the audit asks about, a short script runs the framework on them and writes its answers,
// and the answers become ordinary audit subjects, judged by the same oracle. A framework the
// interpreter cannot import is "not installed", never a pass; a broken adapter is bad input.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/audit/sort.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::run {

struct adapter_result {
    std::string framework, version, reason;
    bool installed = false;
    std::size_t randoms = 0;  // the random arrays its cases hold (the classifier must ask for the same)
    std::size_t largest_sort = audit::largest_sort_input;  // likewise the sorts' largest array
    std::string run;          // the command line that answered (an interpreter found for a repo adapter)
    std::vector<audit::subject> reducers;
    std::vector<audit::sort_subject> sorts;
};

// The adapters to run: `commands` (--adapter's), and with `repo_adapters` the repo's own: NumPy,
// Highway and the parallel algorithms (programs built beside flipcheck, where they were) on the CPU; PyTorch, JAX, CuPy and Triton on the GPU.
std::vector<std::string> adapter_commands(std::vector<std::string> commands, bool repo_adapters, backend b);
// The command of the repo's adapter named so ("numpy": adapters/numpy_adapter.py), as
// adapter_commands lists it ("{python} PATH": the interpreter is found by adapter_runs).
std::string repo_adapter(const std::string& name);
// The command lines to try for an adapter command, in order: one, or for "{python} SCRIPT" each
// interpreter ($FLIPCHECK_PYTHON, python3 on PATH, /usr/bin/python3) until one imports it.
std::vector<std::string> adapter_runs(const std::string& command);
// Runs `command CASES ANSWERS` and reads its answers. Throws input_error when the adapter fails
// or writes answers that break the format. `extra` inputs (a replay's --input) are asked too, in
// every format whose width holds their bit patterns. The sorts' arrays go up to `largest_sort`
// elements (audit::sort_battery).
adapter_result run_adapter(const std::string& command, std::size_t randoms, bool device, const std::vector<audit::input>& extra = {},
                           std::size_t largest_sort = audit::largest_sort_input);
// Shrinks the witnesses of a framework's rows (reducers[i] is f.reducers[i]'s report, sorts[i]
// f.sorts[i]'s), all its rows together: one call of its adapter a round (each call starts the
// framework again: a GPU framework's start and first compiles take seconds), `rounds` rounds at most
// for the reducers and as many for the sorts, and no round begun after `seconds` (half for the
// reducers' witnesses, half for the sorts'). A witness is
// then as small as the rounds made it: still a witness, maybe not the smallest.
void shrink_witnesses(const adapter_result& f, std::vector<audit::report>& reducers, std::vector<audit::sort_report>& sorts, bool device,
                      std::size_t rounds = 12, double seconds = 60);

}  // namespace flipcheck::run
