// The main job (`flipcheck` with no arguments): every built-in mapping over every format, then every
// built-in reducer and the FP8/MX scaling path, each against the oracle, on the backend given. This
// class runs it a row at a time; the command (cli/main.cpp) shows each row as it comes.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <future>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "flipcheck/check/sweep.hpp"
#include "flipcheck/run/backend.hpp"
#include "flipcheck/run/prover.hpp"
#include "flipcheck/run/reductions.hpp"
#include "flipcheck/run/scaling.hpp"

namespace flipcheck::run {

struct mapping_row {
    sweep_report report;
    // Whether every law must hold (sweep_entry::expected_right). False: a built-in on a format it
    // does not claim, whose failure is a finding and whose pass would be the surprise.
    bool expected_right = true;
    double wall_seconds = 0;  // the row's wall, beside the report's seconds (the kernels' on the GPU)
    // A row flipcheck-prove was asked for (a binary64 built-in on the CPU, prover.hpp): its verdict.
    // Proved: the row is the proof, every key, and no sample ran (the report holds no keys).
    // Otherwise the sample ran, and `proof` says why it is not a proof; a refuted law fails the row.
    std::optional<proved_subject> proof;
    bool proved() const { return proof && proof->passed(); }
    bool passed() const { return proved() || (report.passed() && !(proof && proof->verdict == "fail")); }
};

class main_job {
public:
    // What each sweep reports its progress to, by the row's label ("binary32 sign_flip").
    using progress_for = std::function<std::function<void(const sweep_progress&)>(const std::string& label)>;

    // `b`: the backend, or one still being chosen (the caller asks the driver beside this job:
    // backend.hpp). `with_mutant`: a mapping mutant's name to run among the rows (it must fail), or
    // "". `stop` ends the job at its next step.
    main_job(pending_backend b, std::string with_mutant, std::atomic<bool>* stop, progress_for progress);

    // Starts the job; returns the seconds the CUDA context took (0 on the CPU). With the CPU chosen
    // already: nothing yet; the 32-bit sweeps keep every core busy, so the reducers and the scaling
    // path start after them, beside the remaining rows, which leave cores idle. Otherwise (the GPU,
    // or a backend still being chosen): they start at once, their host work overlapping the
    // driver's start and the context's making (their launches wait for both); then this waits for
    // the backend, rethrowing why none could be chosen, and on the GPU creates the context. The
    // first next_row() calls it if no one did.
    double start();
    backend chosen() const { return backend_; }  // after start()

    // The next mapping row, format by format in registry order; nothing after the last row or a stop.
    std::optional<mapping_row> next_row();

    // The CPU's 32-bit built-ins swept first, that the other built-ins of their format were proved
    // equal to (check/equal_mappings.hpp: the same laws fail at the same keys).
    const std::vector<sweep_report>& proved() const { return proved_; }

    // A failed row swept again for its most telling law only (the order broken, then a key that does
    // not come back), with its smallest counterexample first: microseconds for a byte format.
    static sweep_report telling_failure(const sweep_report& failed);

    // The second and third parts, waited for (or run now if they had not started).
    std::vector<reduction_row> reductions();
    std::vector<scaling_row> scaling();
    double reducer_seconds() const { return reducer_seconds_; }
    // The prover's answer for the binary64 built-ins, once their rows have come (why_not says why
    // there is none: no flipcheck-prove beside flipcheck, the GPU's job, FLIPCHECK_PROVER=none).
    const prover_answer& proofs() const { return proofs_; }
    double scaling_seconds() const { return scaling_seconds_; }

private:
    void start_beside();

    pending_backend b_;
    backend backend_ = backend::cpu;  // b_'s answer, once start() has it
    bool started_ = false;
    std::string with_mutant_;
    std::atomic<bool>* stop_;
    progress_for progress_;
    std::size_t next_ = 0, start_at_;      // the next row; the row before which the other parts start
    std::vector<sweep_report> proved_;     // per 32-bit format, on the CPU: the built-in swept first, passed
    std::set<std::string> swept_ahead_;    // the formats whose built-in swept first has been tried
    std::atomic<double> reducer_seconds_{0}, scaling_seconds_{0};
    std::future<std::vector<reduction_row>> reductions_;
    std::future<std::vector<scaling_row>> scaling_;
    std::future<prover_answer> proving_;
    prover_answer proofs_;
};

}  // namespace flipcheck::run
