// Progress on stderr, so that stdout stays the report: for a sweep, a bar with rate and ETA on a
// terminal; for any other long step, one status line (what runs, for how long, and where its total
// is known how far it got and an ETA). On a terminal the line is redrawn in place and cleared before
// anything else is written; otherwise (logs, CI, a pipe) a plain line now and then.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "flipcheck/check/sweep.hpp"

namespace flipcheck::cli {

class progress_printer {
public:
    explicit progress_printer(std::string label) : label_(std::move(label)), tty_(isatty(STDERR_FILENO) == 1) {}
    ~progress_printer() { finish(); }
    void operator()(const sweep_progress& p);
    // Clears the bar (on a terminal): call it before printing the result, or the bar's last
    // drawing stays in front of the result's first line.
    void finish();

private:
    std::string label_;
    bool tty_;
    bool drawn_ = false;
    double last_ = 0;
};

// How far a step got: `total` 0 when it is not known.
struct work_done {
    std::uint64_t done = 0, total = 0;
};

// For a step that reports no progress of its own through a callback (the reducers, the scaling
// path, the audit, an adapter's or a plug-in's subjects, a shader): a status line on stderr from
// the 2nd second on, until it is destroyed; nothing at all for a shorter step. `meter`, when given,
// says how far the step is (what the line's percentage, rate and ETA come from; `unit` names what
// it counts).
//
// On a terminal, what the step writes meanwhile must not land on the status line: the heartbeat
// relays it, whole lines at a time, clearing the status line first. `relay` hands it a pipe to copy
// to `to` (an isolated child's stdout and stderr); `capture_stdout` makes it take this process's
// own stdout while it lives (an in-process step that prints its rows as it goes), on a terminal
// only: into a file or a pipe nothing is redrawn, so nothing can be glued, and stdout is left alone.
class heartbeat {
public:
    using meter = std::function<work_done()>;
    struct options {
        meter how_far;
        std::string unit;  // what `how_far` counts ("rows"; "": a bare count)
        // Pipes (read ends, which the heartbeat then owns and closes) whose lines it copies to a
        // stream (an isolated child's stdout and stderr), until it ends; what is left then is read
        // without waiting: a process that still holds a pipe's other end cannot hold it up.
        std::vector<std::pair<int, std::FILE*>> relay;
        bool capture_stdout = false;
    };
    explicit heartbeat(std::string label) : heartbeat(std::move(label), options{}) {}
    heartbeat(std::string label, options o);
    ~heartbeat();
    heartbeat(const heartbeat&) = delete;
    heartbeat& operator=(const heartbeat&) = delete;

    // Whether the status line is drawn in place (stderr is a terminal): only then is relaying needed.
    static bool on_terminal() { return isatty(STDERR_FILENO) == 1; }

private:
    struct stream {
        int fd;
        int out;  // where its lines go (a file descriptor: the relay writes with write(2))
        std::string pending;
    };
    void run();
    void draw(double seconds);
    bool pump(stream& s);
    void write_lines(stream& s, bool all);

    std::string label_;
    options opt_;
    bool tty_;
    bool drawn_ = false;
    int wake_[2] = {-1, -1};  // the destructor writes a byte: the thread ends
    int saved_stdout_ = -1;   // capture_stdout: the real stdout
    std::vector<stream> streams_;
    std::mutex mu_;
    std::thread thread_;
};

}  // namespace flipcheck::cli
