// The commands flipcheck starts (an audit's adapters, a served adapter, a conversion's pipe) run
// each in a process group of its own, listed here while they run, so that a stop (Ctrl-C, SIGTERM:
// cli/stop.hpp) ends every one of them and flipcheck leaves no process behind.
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <string>

namespace flipcheck::run {

// Runs `sh -c command` in a group of its own and waits for it; the status as waitpid gives it (127
// as an exit status when the shell cannot start). std::system's replacement: std::system ignores
// SIGINT in the caller while the command runs (POSIX says it must), so a Ctrl-C during an audit was
// lost, and its children shared flipcheck's group.
int run_shell(const std::string& command);

// popen(command, "r") in a group of its own: its standard output to read, listed until
// close_shell_pipe, which returns its status as waitpid gives it (-1 if it cannot tell).
struct shell_pipe {
    std::FILE* out = nullptr;
    pid_t pid = 0;
};
shell_pipe open_shell_pipe(const std::string& command);  // out is nullptr when it cannot start
int close_shell_pipe(shell_pipe& p);

// The groups started by others (served_adapter forks its own): listed while they run.
void add_child_group(pid_t leader);
void remove_child_group(pid_t leader);

// Sends SIGKILL to every listed group. Async-signal-safe (cli/stop.hpp calls it from its signal
// handler): kill() over a fixed table of lock-free atomics, no allocation.
void kill_child_groups();

}  // namespace flipcheck::run
