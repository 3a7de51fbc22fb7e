// The adapter as a running process: a request line out, an answer line in, with a timeout on
// each (a hung kernel must not hang the check). See served_adapter.hpp.
#include "flipcheck/run/served_adapter.hpp"
#include "flipcheck/run/child_groups.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"

namespace flipcheck::run {
namespace {

using clock = std::chrono::steady_clock;

int ms_left(clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    return int(std::max<long long>(0, std::min<long long>(left, 1 << 30)));
}

const nlohmann::json& need(const nlohmann::json& o, const char* key, const std::string& where) {
    if (!o.is_object() || !o.contains(key)) throw input_error(fmt::format("{} has no \"{}\"", where, key));
    return o[key];
}

std::string text(const nlohmann::json& j, const char* key, const std::string& where) {
    const auto& v = need(j, key, where);
    if (!v.is_string()) throw input_error(fmt::format("{}: \"{}\" must be a string", where, key));
    return v.get<std::string>();
}

}  // namespace

served_adapter::served_adapter(const std::string& command, double timeout_seconds) : command_(command), timeout_(timeout_seconds) {
    // A write to an adapter that has exited must be an error to report, not a signal that ends flipcheck.
    ::signal(SIGPIPE, SIG_IGN);
    start();
    list();
}

void served_adapter::start() {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0)
        throw input_error(fmt::format("cannot make pipes for adapter '{}': {}", command_, std::strerror(errno)));
    const std::string line = command_ + " --serve";
    child_ = ::fork();
    if (child_ < 0) throw input_error(fmt::format("cannot start adapter '{}': {}", command_, std::strerror(errno)));
    if (child_ == 0) {
        // A process group of its own: the shell may fork the interpreter rather than exec it, and
        // a hung adapter is ended by killing the group, never leaving a process that holds our
        // output open.
        ::setpgid(0, 0);
        ::dup2(to_child[0], STDIN_FILENO);
        ::dup2(from_child[1], STDOUT_FILENO);
        ::execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::setpgid(child_, child_);  // as the child does: whichever runs first
    add_child_group(child_);    // a stop ends it (child_groups.hpp)
    ::close(to_child[0]);
    ::close(from_child[1]);
    out_ = to_child[1];
    in_ = from_child[0];
    own_fds_ = true;
    buffered_.clear();
}

void served_adapter::end() {
    ::close(out_);  // end of input: a served adapter ends its loop and exits
    ::close(in_);
    out_ = in_ = -1;
    if (child_ > 0) {
        // Ten seconds to exit on its own, then its group is stopped: a framework's cleanup, or a
        // tool wrapped around the adapter (compute-sanitizer writes its report as it ends).
        bool ended = false;
        for (int i = 0; i < 1000 && !ended; ++i) {
            ended = ::waitpid(child_, nullptr, WNOHANG) == child_;
            if (!ended) ::usleep(10000);
        }
        ::kill(-child_, SIGKILL);  // what is left of the group (the shell's children), if anything
        if (!ended) ::waitpid(child_, nullptr, 0);
        remove_child_group(child_);
        child_ = -1;
    }
}

void served_adapter::restart() {
    if (!own_fds_) throw input_error("an adapter flipcheck did not start cannot be restarted");
    end();
    const auto before = subjects_;
    subjects_.clear();
    start();
    list();
    if (subjects_.size() != before.size()) throw input_error(fmt::format("adapter '{}' listed other subjects when started again", command_));
}

served_adapter::served_adapter(int in_fd, int out_fd, double timeout_seconds)
    : command_("the process that started flipcheck (--adapter-stdio)"), timeout_(timeout_seconds), in_(in_fd), out_(out_fd) {
    ::signal(SIGPIPE, SIG_IGN);
    list();
}

served_adapter::~served_adapter() {
    if (own_fds_) end();
}

void served_adapter::stopped(const std::string& why, const std::vector<std::uint64_t>& about, bool hung) {
    std::string how = why;
    if (child_ > 0) {
        int status = 0;
        pid_t ended = ::waitpid(child_, &status, WNOHANG);
        if (ended == 0 && hung) {
            ::kill(-child_, SIGKILL);  // hung: it will never answer, and must not outlive the check
            ended = ::waitpid(child_, &status, 0);
        }
        // Its output ends a moment before it does: two seconds to learn its exit status.
        for (int i = 0; ended == 0 && i < 200; ++i) {
            ::usleep(10000);
            ended = ::waitpid(child_, &status, WNOHANG);
        }
        if (ended == child_) {
            remove_child_group(child_);
            child_ = -1;
            if (WIFEXITED(status)) how += fmt::format(" (it exited with status {})", WEXITSTATUS(status));
            else if (WIFSIGNALED(status)) how += fmt::format(" (it was killed by signal {}: {})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
        }
    }
    throw adapter_stopped(fmt::format("adapter '{}' {}", command_, how), about);
}

void served_adapter::send(const std::string& line, const std::vector<std::uint64_t>& about) {
    const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(timeout_));
    std::size_t done = 0;
    while (done < line.size()) {
        pollfd p{out_, POLLOUT, 0};
        const int ready = ::poll(&p, 1, ms_left(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) stopped(fmt::format("took no request for {} s", timeout_), about, true);
        const ssize_t n = ::write(out_, line.data() + done, line.size() - done);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) stopped(fmt::format("stopped reading its requests ({})", std::strerror(errno)), about);
        done += std::size_t(n);
    }
}

std::string served_adapter::receive(const std::vector<std::uint64_t>& about) {
    const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(timeout_));
    for (;;) {
        if (const auto nl = buffered_.find('\n'); nl != std::string::npos) {
            std::string line = buffered_.substr(0, nl);
            buffered_.erase(0, nl + 1);
            return line;
        }
        pollfd p{in_, POLLIN, 0};
        const int ready = ::poll(&p, 1, ms_left(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) stopped(fmt::format("answered nothing for {} s (raise --timeout if it is only slow)", timeout_), about, true);
        char chunk[1 << 16];
        const ssize_t n = ::read(in_, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) stopped("stopped answering: its output ended", about);
        buffered_.append(chunk, std::size_t(n));
    }
}

// The first request asks about no case: the answer lists the subjects.
void served_adapter::list() {
    const std::string where = fmt::format("adapter '{}'", command_);
    std::string line;
    try {
        send("{\"flipcheck_adapter\": 1, \"cases\": []}\n", {});
        line = receive({});
    } catch (const adapter_stopped& e) {
        throw input_error(fmt::format("{}; an adapter for `flipcheck check` serves requests a line at a time when run as "
                                      "`COMMAND --serve` (protocol.py's main does: adapters/README.md)",
                                      e.what()));
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
        throw input_error(fmt::format("{}: its first answer is not a JSON line ({}): {}", where, e.what(), line.substr(0, 200)));
    }
    framework_ = text(j, "framework", where + "'s answer");
    const auto& installed = need(j, "installed", where + "'s answer");
    if (!installed.is_boolean()) throw input_error(where + ": \"installed\" must be true or false");
    if (!installed.get<bool>())
        throw input_error(fmt::format("{}: {} is not installed here ({}): nothing to check", where, framework_, j.value("reason", "no reason given")));
    version_ = j.value("version", "");
    for (const auto& s : need(j, "subjects", where + "'s answer")) {
        subject one;
        one.name = text(s, "name", where + ", a subject");
        const std::string at = fmt::format("{}, subject '{}'", where, one.name);
        one.kind = text(s, "kind", at);
        one.format = text(s, "format", at);
        if (one.kind != "sort") one.op = text(s, "op", at);
        if (one.kind != "value" && one.kind != "arg" && one.kind != "amax" && one.kind != "sort")
            throw input_error(at + ": kind must be value, arg, amax or sort");
        if (one.kind != "sort" && one.kind != "amax" && one.op != "max" && one.op != "min") throw input_error(at + ": op must be max or min");
        if (s.contains("declares")) {
            const auto& d = s["declares"];
            if (!d.is_string()) throw input_error(at + ": \"declares\" must be a string like \"nan=propagate zero=ordered ties=lowest_index\"");
            one.declares = parse_policy(d.get<std::string>(), at + ": declares");
        }
        subjects_.push_back(std::move(one));
    }
}

std::vector<served_adapter::answer> served_adapter::ask(const subject& s, const std::vector<std::vector<std::uint64_t>>& inputs) {
    const std::vector<std::uint64_t> about = inputs.empty() ? std::vector<std::uint64_t>{} : inputs.front();
    std::string line = fmt::format("{{\"flipcheck_adapter\": 1, \"subject\": {}, \"cases\": [", nlohmann::json(s.name).dump());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        fmt::format_to(std::back_inserter(line), "{}{{\"id\": {}, \"format\": \"{}\", \"uses\": [\"reduce\"], \"bits\": [", i ? ", " : "", i,
                       s.format);
        for (std::size_t k = 0; k < inputs[i].size(); ++k) fmt::format_to(std::back_inserter(line), "{}\"{}\"", k ? ", " : "", hex(inputs[i][k], 0));
        line += "]}";
    }
    line += "]}\n";
    send(line, about);
    const std::string got = receive(about);
    const std::string where = fmt::format("adapter '{}', subject '{}'", command_, s.name);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(got);
    } catch (const nlohmann::json::exception& e) {
        throw input_error(fmt::format("{}: an answer is not a JSON line ({}): {}", where, e.what(), got.substr(0, 200)));
    }
    const nlohmann::json* answers = nullptr;
    for (const auto& t : need(j, "subjects", where + "'s answer"))
        if (t.is_object() && t.value("name", "") == s.name) answers = &need(t, "answers", where);
    if (!answers || !answers->is_object()) throw input_error(where + ": its answer has no entry for the subject asked about");
    std::vector<answer> out(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string id = std::to_string(i), at = fmt::format("{}, case {}", where, i);
        if (!answers->contains(id)) throw input_error(at + ": no answer (every case asked needs one)");
        const auto& a = (*answers)[id];
        if (a.is_null()) continue;
        if (a.is_object()) {
            if (!a.contains("error") || !a["error"].is_string()) throw input_error(at + ": an object answer must be {\"error\": \"...\"}");
            out[i].error = a["error"].get<std::string>();
        } else if (s.kind == "arg") {
            if (!a.is_number_integer() || a.get<long long>() < 0) throw input_error(at + ": an arg answer must be a non-negative index");
            out[i].value = a.get<std::uint64_t>();
        } else {
            if (!a.is_string()) throw input_error(at + ": a value must be a hex string like \"0x3f800000\"");
            out[i].value = parse_number(a.get<std::string>(), at + ": the bit pattern");
        }
    }
    return out;
}

}  // namespace flipcheck::run
