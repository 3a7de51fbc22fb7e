#include "flipcheck/run/child_groups.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <atomic>
#include <cerrno>
#include <utility>

extern char** environ;

namespace flipcheck::run {

namespace {
// A fixed table of atomics: the watchdog reads it while another thread adds or removes a group.
constexpr int slots = 64;
std::atomic<pid_t> groups[slots];
}  // namespace

void add_child_group(pid_t leader) {
    for (auto& g : groups) {
        pid_t empty = 0;
        if (g.compare_exchange_strong(empty, leader)) return;
    }
    // More than 64 at once: that one is not stopped by a stop (flipcheck never runs that many).
}

void remove_child_group(pid_t leader) {
    for (auto& g : groups) {
        pid_t want = leader;
        if (g.compare_exchange_strong(want, 0)) return;
    }
}

void kill_child_groups() {
    for (auto& g : groups)
        if (const pid_t p = g.load(); p > 0) ::kill(-p, SIGKILL);
}

namespace {

// `sh -c command` in a group of its own with the default signal handling, its standard output
// `out_fd` (or inherited when -1); listed. The pid, or -1.
pid_t spawn_shell(const std::string& command, int out_fd) {
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    if (out_fd >= 0) posix_spawn_file_actions_adddup2(&files, out_fd, STDOUT_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    for (const int sig : {SIGINT, SIGTERM, SIGPIPE, SIGQUIT}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, "/bin/sh", &files, &attr, const_cast<char* const*>(argv), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
    if (rc != 0) return -1;
    add_child_group(pid);
    return pid;
}

int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            status = -1;
            break;
        }
    }
    remove_child_group(pid);
    return status;
}

}  // namespace

int run_shell(const std::string& command) {
    const pid_t pid = spawn_shell(command, -1);
    return pid < 0 ? 127 << 8 : wait_for(pid);
}

shell_pipe open_shell_pipe(const std::string& command) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {};
    // A child's output may be large (a conversion's 2^32 codes, 8 GiB): with 1 MiB in the pipe
    // (Linux's default most for a user) the child makes its next block while flipcheck reads the
    // last, where with the default 64 KiB the two took turns (bench/RESULTS.md, "The conversion
    // stream": 92 s against 52 s). Where the system refuses, the default stays.
    ::fcntl(fds[0], F_SETPIPE_SZ, 1 << 20);
    const pid_t pid = spawn_shell(command, fds[1]);
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return {};
    }
    return {::fdopen(fds[0], "r"), pid};
}

int close_shell_pipe(shell_pipe& p) {
    if (p.out) std::fclose(p.out);
    p.out = nullptr;
    return p.pid > 0 ? wait_for(std::exchange(p.pid, 0)) : -1;
}

}  // namespace flipcheck::run
