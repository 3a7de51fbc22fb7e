// `flipcheck pairs`: every pair of a format's codes through the max/min step built on a mapping
// (check/pairs.hpp), on the CPU or the GPU, sharded like a sweep.
#include <fmt/format.h>

#include "exit_code.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/run/sweep_entries.hpp"
#include "manifest.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "render.hpp"
#include "scale_out.hpp"
#include "shards.hpp"
#include "stop.hpp"

namespace flipcheck::cli {

int run_pairs(const pairs_args& a, run::backend b) {
    const run::sweep_entry* s = run::find_sweep_entry(a.format, a.mapping);
    if (!s) throw input_error(fmt::format("no mapping '{}' for format '{}'", a.mapping, a.format));
    if (!s->pairs)
        throw input_error(fmt::format("{} has no pair check: pairs are for formats of 32 bits or fewer whose every bit is the value's", a.format));
    const int width = run::format_width(a.format);
    pairs_options o;
    o.op = a.op == "min" ? reduce_op::min : reduce_op::max;
    o.all = a.all;
    o.limit = a.limit;
    o.threads = a.threads;
    o.stop = &stop;
    const chosen_shard part = choose_shard(a.shard);
    o.part = part.part;
    if (!a.rows.empty()) o.rows = parse_range(a.rows, "--rows");
    if (b == run::backend::gpu && a.threads)
        throw input_error("--threads sets CPU threads, and this check runs on the GPU: add --device cpu, or drop --threads");
    const key_range space = o.rows.value_or(key_range{0, std::uint64_t(1) << width});
    if (!a.manifest.empty()) check_manifest_dir(a.manifest);
    const json_file out("--json", a.json);
    progress_printer progress(a.format + " " + a.mapping + " pairs (rows)");
    o.progress = [&](const pairs_progress& p) { progress({p.rows_done, p.rows_total, p.seconds}); };
    const pairs_report r = s->pairs(o, b);
    progress.finish();
    fmt::print("{}", render_summary(r));
    for (const auto& c : r.counterexamples) fmt::print("{}", render_counterexample(r, c));
    const std::string verdict = json_verdict(r);
    print_verdict_line(fmt::format("{}: {} rows checked ({:.6g} pairs, {}), {} failing pairs",
               r.interrupted ? "INTERRUPTED" : r.passed() ? "PASS" : "FAIL", r.rows_checked, r.pairs_checked(),
               r.rows_checked == (std::uint64_t(1) << width) ? "every pair: exhaustive" : "a range of rows", r.failing_pairs));
    out.write(verdict, to_json(r));
    write_pairs_manifest(a.manifest, part, space, r, a.threads);
    if (r.interrupted) {
        fmt::print(stderr, "interrupted after {} rows\n", r.rows_checked);
        return exit_for_stop();
    }
    return r.passed() ? exit_pass : exit_fail;
}

}  // namespace flipcheck::cli
