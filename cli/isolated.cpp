#include "isolated.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "flipcheck/error.hpp"
#include "progress.hpp"
#include "stop.hpp"

namespace flipcheck::cli::isolated {

namespace {

// The memory a child writes its whereabouts to. Longer inputs than `capacity` keep their first
// elements (and say so): a replay needs the whole input, a message only its start.
constexpr std::size_t capacity = std::size_t(1) << 16;
struct trace {
    std::atomic<std::uint64_t> calls;
    std::atomic<std::uint64_t> done, total;  // note_work
    char stage[48];
    std::uint64_t n, order_n;
    bool has_input, truncated;
    std::uint64_t bits[capacity];
    std::uint64_t order[capacity];
};
trace* current = nullptr;  // set in the child only

// The child's answer on the pipe: a tag, the length, the text.
enum : char { tag_result = 'R', tag_input = 'I', tag_device = 'D', tag_subject = 'S', tag_other = 'X' };

bool write_all(int fd, const char* p, std::size_t n) {
    while (n) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w, n -= std::size_t(w);
    }
    return true;
}

[[noreturn]] void answer(int fd, char tag, const std::string& text) {
    std::fflush(stdout);
    std::fflush(stderr);
    const std::uint64_t n = text.size();
    const bool ok = write_all(fd, &tag, 1) && write_all(fd, reinterpret_cast<const char*>(&n), sizeof n) && write_all(fd, text.data(), n);
    ::_exit(ok ? 0 : 125);
}

std::string signal_text(int sig) {
    const char* d = ::strsignal(sig);
    return fmt::format("was killed by signal {} ({})", sig, d ? d : "unknown");
}

}  // namespace

void note_stage(std::string_view stage) {
    if (!current) return;
    const std::size_t n = std::min(stage.size(), sizeof current->stage - 1);
    std::memcpy(current->stage, stage.data(), n);
    current->stage[n] = 0;
}

void note_bits(std::span<const std::uint64_t> bits, std::span<const std::size_t> order) {
    if (!current) return;
    current->n = std::min(bits.size(), capacity);
    current->order_n = std::min(order.size(), capacity);
    current->truncated = bits.size() > capacity || order.size() > capacity;
    if (current->n) std::memcpy(current->bits, bits.data(), current->n * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < current->order_n; ++i) current->order[i] = order[i];
    current->has_input = true;
    current->calls.fetch_add(1, std::memory_order_release);
}

void note_work(std::uint64_t done, std::uint64_t total) {
    if (!current) return;
    current->total.store(total, std::memory_order_relaxed);
    current->done.store(done, std::memory_order_relaxed);
}

outcome run(const std::function<std::string()>& work, double timeout, const std::string& progress) {
    void* mem = ::mmap(nullptr, sizeof(trace), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) throw std::runtime_error(fmt::format("cannot map shared memory: {}", std::strerror(errno)));
    trace* t = new (mem) trace{};
    struct unmap {
        void* m;
        ~unmap() { ::munmap(m, sizeof(trace)); }
    } unmapper{mem};
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    // On a terminal the child's output goes through the heartbeat (see isolated.hpp).
    int outs[2][2] = {{-1, -1}, {-1, -1}};
    bool relayed = !progress.empty() && heartbeat::on_terminal() && ::pipe(outs[0]) == 0;
    if (relayed && ::pipe(outs[1]) != 0) ::close(outs[0][0]), ::close(outs[0][1]), relayed = false;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]), ::close(fds[1]);
        for (auto& p : outs)
            for (const int fd : p)
                if (fd >= 0) ::close(fd);
        throw std::runtime_error(fmt::format("cannot start a process for the subject: {}", std::strerror(errno)));
    }
    if (pid == 0) {  // the child: run the work, send the answer, never return
        ::close(fds[0]);
        if (relayed) {
            ::dup2(outs[0][1], STDOUT_FILENO), ::dup2(outs[1][1], STDERR_FILENO);
            for (auto& p : outs) ::close(p[0]), ::close(p[1]);
            std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);  // lines reach the parent as they are printed, and before a crash
        }
        current = t;
        try {
            answer(fds[1], tag_result, work());
        } catch (const input_error& e) {
            answer(fds[1], tag_input, e.what());
        } catch (const device_error& e) {
            answer(fds[1], tag_device, e.what());
        } catch (const subject_error& e) {
            answer(fds[1], tag_subject, e.what());
        } catch (const std::exception& e) {
            answer(fds[1], tag_other, e.what());
        } catch (...) {
            answer(fds[1], tag_subject, "an exception that is not a std::exception escaped the subject's code");
        }
    }
    ::close(fds[1]);
    std::optional<heartbeat> beat;  // only now: see isolated.hpp
    if (!progress.empty()) {
        heartbeat::options h;
        h.how_far = [t] { return work_done{t->done.load(std::memory_order_relaxed), t->total.load(std::memory_order_relaxed)}; };
        if (relayed) {
            ::close(outs[0][1]), ::close(outs[1][1]);
            h.relay = {{outs[0][0], stdout}, {outs[1][0], stderr}};
        }
        beat.emplace(progress, std::move(h));
    }

    using clock = std::chrono::steady_clock;
    std::string got;
    outcome o;
    std::uint64_t seen_calls = 0;
    auto last_progress = clock::now();
    bool killed = false;
    for (;;) {
        pollfd p{fds[0], POLLIN, 0};
        const int r = ::poll(&p, 1, 100);
        if (r > 0) {
            char buf[65536];
            const ssize_t n = ::read(fds[0], buf, sizeof buf);
            if (n > 0) {
                got.append(buf, std::size_t(n));
                continue;
            }
            if (n == 0) break;  // the child closed the pipe: it has ended
            if (errno != EINTR) break;
        }
        const std::uint64_t calls = t->calls.load(std::memory_order_acquire);
        if (calls != seen_calls) seen_calls = calls, last_progress = clock::now();
        if (stop) {
            ::kill(pid, SIGKILL), killed = true;
            o.how = outcome::end::stopped;
            o.what = "was stopped (flipcheck was interrupted)";
            break;
        }
        if (timeout > 0 && std::chrono::duration<double>(clock::now() - last_progress).count() > timeout) {
            ::kill(pid, SIGKILL), killed = true;
            o.how = outcome::end::timed_out;
            o.what = fmt::format("did not return within --timeout {} s (killed)", timeout);
            break;
        }
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    beat.reset();  // the status line cleared and the child's last lines written before the caller prints
    o.stage = t->stage;
    o.has_input = t->has_input;
    o.truncated = t->truncated;
    if (o.has_input) {
        o.bits.assign(t->bits, t->bits + t->n);
        o.order.assign(t->order, t->order + t->order_n);
    }
    if (killed) return o;

    const bool framed = got.size() >= 1 + sizeof(std::uint64_t);
    std::uint64_t len = 0;
    if (framed) std::memcpy(&len, got.data() + 1, sizeof len);
    const bool whole = framed && got.size() == 1 + sizeof len + len && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!whole) {
        o.how = WIFSIGNALED(status) ? outcome::end::crashed : outcome::end::exited;
        o.what = WIFSIGNALED(status) ? signal_text(WTERMSIG(status))
                                     : fmt::format("ended the process (exit status {}) before its check was done", WEXITSTATUS(status));
        return o;
    }
    const std::string text = got.substr(1 + sizeof len);
    switch (got[0]) {
        case tag_result: o.result = text; return o;
        case tag_input: throw input_error(text);
        case tag_device: throw device_error(text);
        case tag_subject:
            o.how = outcome::end::threw;
            o.what = text;
            return o;
        default: throw std::runtime_error(text);
    }
}

}  // namespace flipcheck::cli::isolated
