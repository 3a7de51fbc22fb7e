#include "flipcheck/run/main_job.hpp"

#include <chrono>

#include "flipcheck/run/sweep_entries.hpp"

namespace flipcheck::run {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Each part's own seconds, apart from the wall: on the GPU they overlap.
template <class Part>
auto timed(std::atomic<double>& seconds, Part&& part) {
    const auto t = clock_type::now();
    auto rows = part();
    seconds = since(t);
    return rows;
}

}  // namespace

main_job::main_job(pending_backend b, std::string with_mutant, std::atomic<bool>* stop, progress_for progress)
    : b_(std::move(b)), with_mutant_(std::move(with_mutant)), stop_(stop), progress_(std::move(progress)), start_at_(sweep_entries().size()) {}

void main_job::start_beside() {
    const pending_backend b = b_;
    reductions_ = std::async(std::launch::async, [this, b] { return timed(reducer_seconds_, [&b] { return verify_reductions(b, 200); }); });
    scaling_ = std::async(std::launch::async, [this, b] { return timed(scaling_seconds_, [&b] { return verify_scaling(b, false); }); });
}

double main_job::start() {
    if (started_) return 0;
    started_ = true;
    // Measured on an H200: the driver's start and the context took the GPU main job's first
    // 0.25-0.4 s with the host idle; starting here moved its end 60-100 ms earlier (bench/RESULTS.md, issue 58).
    if (!known_cpu(b_)) start_beside();
    backend_ = b_.get();
    if (backend_ == backend::cpu && !reductions_.valid())  // after the last 32-bit row
        for (std::size_t i = 0; i < sweep_entries().size(); ++i)
            if (format_width(sweep_entries()[i].format) == 32) start_at_ = i + 1;
    // binary64's built-ins, proved by flipcheck-prove beside the CPU's sweeps where it is there
    // (its clang compile and Z3 took less of the two cores than the samples they replace: bench/RESULTS.md,
    // "The main job's binary64 rows proved"). Not on the GPU, whose job has 1 s of wall in all.
    const std::string prover = backend_ == backend::cpu ? find_prover(proofs_.why_not) : "";
    if (backend_ == backend::gpu) proofs_.why_not = "the GPU's main job samples binary64 (flipcheck-prove runs in the CPU's)";
    if (!prover.empty()) {
        std::vector<std::string> subjects;
        for (const sweep_entry& e : sweep_entries())
            if (format_width(e.format) == 64 && e.builtin() && e.expected_right) subjects.push_back(builtin_type(e.mapping, e.format));
        proving_ = std::async(std::launch::async, [prover, subjects] { return prove_builtins(prover, "flipcheck/mapping.hpp", subjects, 60); });
    }
    return backend_ == backend::gpu ? gpu_start_up() : 0;
}

std::optional<mapping_row> main_job::next_row() {
    start();
    const auto& entries = sweep_entries();
    for (; next_ < entries.size(); ++next_) {
        if (stop_ && *stop_) return std::nullopt;
        if (next_ == start_at_ && !reductions_.valid()) start_beside();
        const sweep_entry& s = entries[next_];
        if (!s.builtin() && s.mapping != with_mutant_) continue;
        ++next_;
        sweep_options o;
        o.stop = stop_;
        o.progress = progress_(s.format + " " + s.mapping);
        // On the CPU a 32-bit format's built-ins are proved by agreeing on every key with the one
        // swept first (check/equal_mappings.hpp: the same laws fail at the same keys), in under half a
        // sweep's time; one that differs anywhere is swept. The one swept first is the format's
        // fastest to sweep (sweep_entry::swept_first), ahead of its turn when it is not the format's
        // first row; its own row is that sweep.
        const bool may_agree = backend_ == backend::cpu && s.agrees_with && s.expected_right;
        auto reference_of = [&]() -> const sweep_report* {
            for (const auto& p : proved_)
                if (p.format == s.format) return &p;
            return nullptr;
        };
        if (may_agree && !reference_of() && !swept_ahead_.count(s.format)) {
            swept_ahead_.insert(s.format);
            for (const sweep_entry& e : entries)
                if (e.format == s.format && e.swept_first && e.expected_right) {
                    sweep_options oa = o;
                    oa.progress = progress_(e.format + " " + e.mapping);
                    sweep_report first = e.run(oa, backend_);
                    if (first.passed()) proved_.push_back(std::move(first));
                    break;
                }
        }
        const sweep_report* reference = reference_of();
        const auto t_row = clock_type::now();
        const bool own = reference && reference->mapping == s.mapping;  // the sweep made ahead is this row's
        const std::optional<bool> same =
            may_agree && reference && !own ? s.agrees_with(reference->mapping, o) : std::optional<bool>(false);
        mapping_row row;
        row.expected_right = !s.builtin() || s.expected_right;
        sweep_report& r = row.report;
        if (proving_.valid() && format_width(s.format) == 64 && s.builtin()) proofs_ = proving_.get();
        if (const proved_subject* p = format_width(s.format) == 64 && s.builtin() ? proofs_.find(builtin_type(s.mapping, s.format)) : nullptr)
            row.proof = *p;
        if (row.proved()) {  // every key, by the solver: the sample would add nothing
            r.format = s.format;
            r.mapping = s.mapping;
            r.domain = "proved";
            r.key_bits = 64;
            r.seconds = row.proof->seconds;
        } else if (own) {
            r = *reference;
        } else if (!same || *same) {
            r = *reference;
            r.mapping = s.mapping;
            r.equal_to = reference->mapping;
            r.seconds = since(t_row);
            if (!same) r.keys_checked = 0, r.interrupted = true;  // stopped before the end
        } else {
            r = s.run(o, backend_);
        }
        // The row's wall, beside its report's seconds (the kernels' time on the GPU): the difference
        // is set-up, copies, module loading and waiting for the GPU.
        row.wall_seconds = since(t_row);
        if (may_agree && !reference && r.passed()) proved_.push_back(r);  // no built-in swept first passed: this one is the reference
        return row;
    }
    return std::nullopt;
}

sweep_report main_job::telling_failure(const sweep_report& failed) {
    for (law_id l : {law_id::successor_order, law_id::round_trip_bits, law_id::round_trip_key, law_id::zero_placement,
                     law_id::nan_total_order, law_id::nan_propagate, law_id::nan_ignore}) {
        if (!failed.failures_by_law[std::size_t(l)]) continue;
        sweep_options o;
        o.laws = law_bit(l);
        o.limit = 1;
        return find_sweep_entry(failed.format, failed.mapping)->run(o, backend::cpu);
    }
    return {};
}

std::vector<reduction_row> main_job::reductions() {
    start();
    if (reductions_.valid()) return reductions_.get();
    return timed(reducer_seconds_, [this] { return verify_reductions(b_, 200); });
}

std::vector<scaling_row> main_job::scaling() {
    start();
    if (scaling_.valid()) return scaling_.get();
    return timed(scaling_seconds_, [this] { return verify_scaling(b_, false); });
}

}  // namespace flipcheck::run
