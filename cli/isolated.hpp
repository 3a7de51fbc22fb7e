// A user's subject runs in a child process, so that nothing it does can take flipcheck down or
// pass by ending the process. A crash or signal, a call to exit(), an exception that escapes its
// code, or a call that never returns is that subject's failure, reported with the stage and the
// input it was given (the child notes both, in memory shared with flipcheck, before each call).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flipcheck::cli::isolated {

// The child's side: where the driver is, noted before each call into the subject. No-ops outside
// an isolated run.
void note_stage(std::string_view stage);
void note_bits(std::span<const std::uint64_t> bits, std::span<const std::size_t> order);
// How far the child's work is, where its total is known: what the heartbeat's percentage and ETA
// come from.
void note_work(std::uint64_t done, std::uint64_t total);
template <class S>
void note_call(std::span<const S> xs, std::span<const std::size_t> order) {
    std::vector<std::uint64_t> bits(xs.begin(), xs.end());
    note_bits(bits, order);
}

struct outcome {
    enum class end { finished, crashed, exited, threw, timed_out, stopped } how = end::finished;
    std::string result;  // finished: what `work` returned
    std::string what;    // otherwise: "was killed by signal 11 (Segmentation fault)", "called exit(0)", ...
    std::string stage;   // the stage it was in ("" if none was noted)
    bool has_input = false, truncated = false;  // the input of the call it was in (too long to keep whole: truncated)
    std::vector<std::uint64_t> bits;
    std::vector<std::size_t> order;
    bool finished() const { return how == end::finished; }
};

// Runs `work` in a child process and returns what it returned. `timeout`: seconds one call into
// the subject may take (from one noted call to the next; 0: no limit). `progress`: the label of the
// heartbeat (progress.hpp) shown while it runs ("": none); on a terminal the child's stdout and
// stderr then reach it through the heartbeat, which keeps them off its status line (what the child
// printed is relayed whatever way it ends, a crash included). The heartbeat's thread starts after the
// fork: a child forked while another thread holds a lock (malloc's, stdio's) can deadlock on it,
// which is why the caller must hold no thread of its own across this call. An input_error,
// device_error or other exception thrown by `work` is thrown again here, as the same kind; a
// subject_error (the subject reported an error, or its answers were garbage) is how = threw.
outcome run(const std::function<std::string()>& work, double timeout, const std::string& progress = "");

}  // namespace flipcheck::cli::isolated
