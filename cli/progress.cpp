#include "progress.hpp"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "render.hpp"

namespace flipcheck::cli {

namespace {

constexpr const char* clear = "\r\033[K";

// A duration as a person reads it: "12 s", "4 min 05 s", "2 h 13 min".
std::string duration_words(double s) {
    if (!(s < 1e9)) return "a long time";
    const auto whole = std::uint64_t(std::llround(s));
    if (whole < 60) return fmt::format("{} s", whole);
    if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
    return fmt::format("{} h {:02} min", whole / 3600, whole % 3600 / 60);
}

void write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t w = ::write(fd, text.data(), text.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;  // a closed stream loses the progress text, never the run
        text.remove_prefix(std::size_t(w));
    }
}

}  // namespace

void progress_printer::operator()(const sweep_progress& p) {
    if (p.keys_total && p.keys_done >= p.keys_total) return finish();  // the walk is over: the result comes next
    const double every = tty_ ? 0.1 : 5.0;
    if (p.seconds - last_ < every || p.keys_total == 0) return;
    last_ = p.seconds;
    const double frac = double(p.keys_done) / double(p.keys_total);
    const double rate = p.seconds > 0 ? double(p.keys_done) / p.seconds : 0;
    const double eta = rate > 0 ? double(p.keys_total - p.keys_done) / rate : 0;
    if (tty_) {
        const int width = 30, filled = int(frac * width);
        fmt::print(stderr, "{}{} [{}{}] {:5.1f}% {} ETA {}", clear, label_, std::string(filled, '#'), std::string(width - filled, '.'),
                   frac * 100, human_rate(rate), duration_words(eta));
        drawn_ = true;
    } else {
        fmt::print(stderr, "progress: {} {:.1f}% ({}/{} keys) {} ETA {}\n", label_, frac * 100, p.keys_done, p.keys_total, human_rate(rate),
                   duration_words(eta));
    }
    std::fflush(stderr);
}

void progress_printer::finish() {
    if (tty_ && drawn_) std::fputs(clear, stderr), std::fflush(stderr);
    drawn_ = false;
}

heartbeat::heartbeat(std::string label, options o) : label_(std::move(label)), opt_(std::move(o)), tty_(on_terminal()) {
    for (const auto& [fd, to] : opt_.relay) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        streams_.push_back({fd, ::fileno(to), {}});
    }
    // Only a terminal can glue a status line to a report line; anywhere else stdout is not touched.
    if (opt_.capture_stdout && tty_ && isatty(STDOUT_FILENO) == 1) {
        int p[2];
        if (::pipe(p) == 0) {
            std::fflush(stdout);
            saved_stdout_ = ::dup(STDOUT_FILENO);
            ::dup2(p[1], STDOUT_FILENO);
            ::close(p[1]);
            ::fcntl(p[0], F_SETFL, ::fcntl(p[0], F_GETFL) | O_NONBLOCK);
            streams_.push_back({p[0], saved_stdout_, {}});
        }
    }
    if (::pipe(wake_) != 0) wake_[0] = wake_[1] = -1;  // no thread then: the relays are copied at the end
    else thread_ = std::thread([this] { run(); });
}

heartbeat::~heartbeat() {
    if (saved_stdout_ >= 0) {  // give stdout back first: the pipe then has no writer of ours left
        std::fflush(stdout);
        ::dup2(saved_stdout_, STDOUT_FILENO);
    }
    if (thread_.joinable()) {
        write_all(wake_[1], "x");
        thread_.join();
    }
    std::lock_guard g(mu_);
    for (auto& s : streams_) {
        if (s.fd < 0) continue;
        while (pump(s)) {
        }
        write_lines(s, true);
        ::close(s.fd);
    }
    if (tty_ && drawn_) write_all(STDERR_FILENO, clear);
    if (saved_stdout_ >= 0) ::close(saved_stdout_);
    for (const int fd : wake_)
        if (fd >= 0) ::close(fd);
}

// Reads what is there now; false at the end of the stream or when nothing is waiting.
bool heartbeat::pump(stream& s) {
    char buf[16384];
    const ssize_t n = ::read(s.fd, buf, sizeof buf);
    if (n <= 0) return n < 0 && errno == EINTR;
    s.pending.append(buf, std::size_t(n));
    return true;
}

// Writes the whole lines of `pending` (all of it with `all`, or when a line grows past what a
// terminal shows anyway), the status line cleared first and drawn again after.
void heartbeat::write_lines(stream& s, bool all) {
    const std::size_t end = all || s.pending.size() > 65536 ? s.pending.size() : s.pending.rfind('\n') + 1;
    if (end == 0) return;  // no whole line yet (rfind's npos + 1 is 0 too)
    if (tty_ && drawn_) write_all(STDERR_FILENO, clear), drawn_ = false;
    write_all(s.out, std::string_view(s.pending).substr(0, end));
    s.pending.erase(0, end);
}

void heartbeat::draw(double seconds) {
    std::string where;
    if (opt_.how_far) {
        const work_done w = opt_.how_far();
        if (w.total > 0) {
            const std::uint64_t done = std::min(w.done, w.total);
            const double rate = seconds > 0 ? double(done) / seconds : 0;
            where = fmt::format("{:.1f}% ({} of {}{})", 100.0 * double(done) / double(w.total), done, w.total,
                                opt_.unit.empty() ? "" : " " + opt_.unit);
            if (rate > 0) where += fmt::format(", ETA {}", duration_words(double(w.total - done) / rate));
        } else if (w.done > 0) {
            where = fmt::format("{} {}", w.done, opt_.unit.empty() ? "done" : opt_.unit);
        }
    }
    if (tty_) {
        write_all(STDERR_FILENO, fmt::format("{}{} ... {}{}", clear, label_, duration_words(seconds), where.empty() ? "" : ": " + where));
        drawn_ = true;
    } else {
        write_all(STDERR_FILENO,
                  fmt::format("progress: {} still running after {}{}\n", label_, duration_words(seconds), where.empty() ? "" : ": " + where));
    }
}

void heartbeat::run() {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    // The first line at 2 s; then, on a terminal, twice a second; in a log every 10 s.
    double next = 2.0;
    const double every = tty_ ? 0.5 : 10.0;
    for (;;) {
        std::vector<pollfd> fds{{wake_[0], POLLIN, 0}};
        for (const auto& s : streams_)
            if (s.fd >= 0) fds.push_back({s.fd, POLLIN, 0});
        const double now = std::chrono::duration<double>(clock::now() - t0).count();
        const int wait_ms = std::max(0, int((next - now) * 1000) + 1);
        if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) return;
        if (fds[0].revents) return;
        std::lock_guard g(mu_);
        const bool was_drawn = drawn_;
        bool wrote = false;
        for (std::size_t i = 1; i < fds.size(); ++i) {
            if (!fds[i].revents) continue;
            auto& s = *std::find_if(streams_.begin(), streams_.end(), [&](const stream& x) { return x.fd == fds[i].fd; });
            if (!pump(s) && (fds[i].revents & (POLLHUP | POLLERR))) {
                write_lines(s, true);  // the writer is gone: its last line, whole or not
                ::close(s.fd);
                s.fd = -1;
            }
            const std::size_t before = s.pending.size();
            write_lines(s, false);
            wrote |= s.pending.size() != before;
        }
        const double t = std::chrono::duration<double>(clock::now() - t0).count();
        if (t >= next) {
            draw(t);
            while (next <= t) next += every;
        } else if (wrote && was_drawn) {
            draw(t);  // keep the status under what was just written
        }
    }
}

}  // namespace flipcheck::cli
