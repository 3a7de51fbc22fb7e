// An adapter kept running for a whole check (`flipcheck check --adapter CMD`): the adapter format
// of adapters/README.md, one JSON document a line, over the adapter's standard input (requests)
// and standard output (answers). A check asks thousands of small questions one at a time while it
// shrinks; a process start per question (the audit's way) would cost a framework's import each.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flipcheck/policy.hpp"

namespace flipcheck::run {

// The adapter stopped answering while the check ran: it exited, closed its output, or took longer
// than the timeout over one request. A verdict on the subject being asked (it failed on `input`),
// not bad input: the subject's code is what broke.
struct adapter_stopped : std::runtime_error {
    std::vector<std::uint64_t> input;  // what the request that went unanswered asked about (its first case)
    adapter_stopped(const std::string& what, std::vector<std::uint64_t> in) : std::runtime_error(what), input(std::move(in)) {}
};

class served_adapter {
public:
    // A subject the adapter lists: what it is, and the policy it declares ("declares" in its entry).
    struct subject {
        std::string name, kind, op, format;
        std::optional<policy> declares;
    };
    // One answer (adapters/README.md): a value's bits or an index; what the subject raised; or
    // neither (null: no answer).
    struct answer {
        std::optional<std::uint64_t> value;
        std::string error;
    };

    // Runs `/bin/sh -c 'COMMAND --serve'` with pipes, and reads its listing. Throws input_error if
    // it cannot start, exits, or lists badly; a framework it cannot import is said, never a pass.
    served_adapter(const std::string& command, double timeout_seconds);
    // The process that started flipcheck is the adapter (`--adapter-stdio`, the pytest helper):
    // requests go out on `out_fd`, answers come in on `in_fd`.
    served_adapter(int in_fd, int out_fd, double timeout_seconds);
    ~served_adapter();
    served_adapter(const served_adapter&) = delete;
    served_adapter& operator=(const served_adapter&) = delete;

    const std::string& framework() const { return framework_; }
    const std::string& version() const { return version_; }
    const std::vector<subject>& subjects() const { return subjects_; }

    // The answers of subject `s` for each input, in order: one request. Throws adapter_stopped
    // where the adapter stops answering, input_error where its answer breaks the format.
    std::vector<answer> ask(const subject& s, const std::vector<std::vector<std::uint64_t>>& inputs);

    // Whether restart() can start the adapter again (flipcheck started it).
    bool restartable() const { return own_fds_; }
    // Ends the adapter (it may be dead or hung) and starts it again: after it stopped answering,
    // so that each input of the request it did not answer can be asked alone.
    void restart();

private:
    void start();
    void end();
    void list();
    void send(const std::string& line, const std::vector<std::uint64_t>& about);
    std::string receive(const std::vector<std::uint64_t>& about);
    // Throws adapter_stopped with the adapter's exit status; a `hung` adapter is killed first.
    [[noreturn]] void stopped(const std::string& why, const std::vector<std::uint64_t>& about, bool hung = false);

    std::string command_;
    double timeout_;
    pid_t child_ = -1;
    int in_ = -1, out_ = -1;
    bool own_fds_ = false;
    std::string buffered_;  // what was read past the last line
    std::string framework_, version_;
    std::vector<subject> subjects_;
};

}  // namespace flipcheck::run
