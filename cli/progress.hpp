// Progress for long sweeps: a bar with rate and ETA on a terminal, plain lines otherwise (logs,
// CI), on stderr so that stdout stays the report.
#pragma once
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "flipcheck/check/sweep.hpp"
#include "render.hpp"

namespace flipcheck::cli {

class progress_printer {
public:
    explicit progress_printer(std::string label) : label_(std::move(label)), tty_(isatty(STDERR_FILENO) == 1) {}
    ~progress_printer() {
        if (tty_ && drawn_) std::fputs("\r\033[K", stderr);
    }
    void operator()(const sweep_progress& p) {
        const double every = tty_ ? 0.1 : 5.0;
        if (p.seconds - last_ < every || p.keys_total == 0) return;
        last_ = p.seconds;
        const double frac = double(p.keys_done) / double(p.keys_total);
        const double rate = p.seconds > 0 ? double(p.keys_done) / p.seconds : 0;
        const double eta = rate > 0 ? double(p.keys_total - p.keys_done) / rate : 0;
        if (tty_) {
            const int width = 30, filled = int(frac * width);
            fmt::print(stderr, "\r\033[K{} [{}{}] {:5.1f}% {} ETA {}", label_, std::string(filled, '#'),
                       std::string(width - filled, '.'), frac * 100, human_rate(rate), human_seconds(eta));
            drawn_ = true;
        } else {
            fmt::print(stderr, "progress: {} {:.1f}% ({}/{} keys) {} ETA {}\n", label_, frac * 100, p.keys_done,
                       p.keys_total, human_rate(rate), human_seconds(eta));
        }
        std::fflush(stderr);
    }

private:
    std::string label_;
    bool tty_;
    bool drawn_ = false;
    double last_ = 0;
};

// For a step whose work reports no progress of its own (the reducers, the scaling path, the audit,
// a plug-in's subject, a shader): says on stderr that it is still running, every 2 seconds, until
// it is destroyed. Nothing at all for a step shorter than that.
class heartbeat {
public:
    explicit heartbeat(std::string label)
        : label_(std::move(label)), tty_(isatty(STDERR_FILENO) == 1), thread_([this](std::stop_token st) { run(st); }) {}
    ~heartbeat() {
        {
            std::lock_guard g(mu_);
            thread_.request_stop();
        }
        cv_.notify_all();
        thread_.join();
        if (tty_ && drawn_) std::fputs("\r\033[K", stderr);
    }
    heartbeat(const heartbeat&) = delete;
    heartbeat& operator=(const heartbeat&) = delete;

private:
    void run(std::stop_token st) {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock lock(mu_);
        while (!cv_.wait_for(lock, std::chrono::seconds(2), [&] { return st.stop_requested(); })) {
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (tty_) fmt::print(stderr, "\r\033[K{} ... {}", label_, human_seconds(s));
            else fmt::print(stderr, "progress: {} still running after {}\n", label_, human_seconds(s));
            drawn_ = true;
            std::fflush(stderr);
        }
    }

    std::string label_;
    bool tty_;
    bool drawn_ = false;
    std::mutex mu_;
    std::condition_variable cv_;
    std::jthread thread_;  // last: started once the members it uses exist
};

}  // namespace flipcheck::cli
