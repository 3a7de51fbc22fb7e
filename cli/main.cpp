// The flipcheck command. With no arguments it is the main job: sweep every built-in mapping over
// every format on the best backend present, print the table, exit 0 only if all pass.
// Exit codes: exit_code.hpp (one table, printed by --help).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <system_error>
#include <filesystem>
#include <future>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#include <fmt/format.h>

#include "flipcheck/run/machine.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "arguments.hpp"
#include "audit.hpp"
#include "check.hpp"
#include "exit_code.hpp"
#include "output.hpp"
#include "flipcheck/run/main_job.hpp"
#include "flipcheck/run/prover.hpp"
#include "flipcheck/run/mutant_zoo.hpp"
#include "progress.hpp"
#include "flipcheck/run/reductions.hpp"
#include "flipcheck/run/sweep_entries.hpp"
#include "render.hpp"
#include "manifest.hpp"
#include "scale_out.hpp"
#include "shards.hpp"
#include "flipcheck/run/scaling.hpp"
#include "stop.hpp"

namespace fc = flipcheck;
using namespace flipcheck::cli;
using namespace flipcheck::run;

namespace {

std::atomic<bool>& interrupted = flipcheck::cli::stop;

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

using fc::parse_number;

fc::law_set parse_laws(const std::vector<std::string>& names) {
    if (names.empty()) return fc::all_mapping_laws;
    fc::law_set set = 0;
    for (const auto& n : names) {
        if (n == "all") return fc::all_mapping_laws;
        bool found = false;
        for (int l = 0; l < fc::mapping_law_count; ++l)
            if (n == fc::law_names[l]) set |= fc::law_bit(fc::law_id(l)), found = true;
        if (!found) {
            std::vector<std::string> valid{"all"};
            for (int l = 0; l < fc::mapping_law_count; ++l) valid.emplace_back(fc::law_names[l]);
            throw fc::input_error(fmt::format("unknown law '{}'; valid: {}", n, join(valid)));
        }
    }
    return set;
}

// The JSON output is checked before any work, so a bad path fails fast and never costs a result;
// it is written at the end in one step (output.hpp).
json_file open_output(const std::string& path) { return json_file("--json", path); }

void check_checkpoint_writable(const std::filesystem::path& p) {
    if (p.empty()) return;
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec))
        throw fc::input_error(fmt::format("--checkpoint {} is a folder: give a file name", p.string()));
    // A checkpoint is read whole and renamed onto: only a plain file can take that. /dev/zero
    // would be read forever, and a rename onto /dev/full (as root) would replace the device.
    if (std::filesystem::exists(p, ec) && !std::filesystem::is_regular_file(p, ec))
        throw fc::input_error(fmt::format("--checkpoint {} is not a regular file (a device, FIFO or socket): give a file name", p.string()));
    if (std::filesystem::exists(p, ec)) return;  // an existing one is validated on load (a link's target is renamed onto: see run_sweep)
    const auto probe = p.string() + ".probe";
    std::ofstream out(probe);
    if (!out) throw fc::input_error(fmt::format("cannot write --checkpoint file '{}': {}", p.string(), std::strerror(errno)));
    out.close();
    std::filesystem::remove(probe);
}

// "verdict: PASS ..." : the last line of every command, whatever happened.
void print_verdict(std::string_view verdict, const std::string& counts) {
    print_verdict_line(fmt::format("{}: {}", verdict == "pass" ? "PASS" : verdict == "fail" ? "FAIL" : "INTERRUPTED", counts));
}

backend choose_backend(const std::string& device) {
    if (device == "cpu") return backend::cpu;
    if (device == "gpu") {
        if (!gpu_available()) throw fc::input_error("--device gpu: no CUDA device is present (or this build has no GPU support)");
        fc::run::note_gpu_used();
        return backend::gpu;
    }
    if (!gpu_available()) return backend::cpu;
    fc::run::note_gpu_used();
    return backend::gpu;
}


int run_sweep(const sweep_args& a) {
    const sweep_entry* s = find_sweep_entry(a.format, a.mapping);
    if (!s) throw fc::input_error(fmt::format("no mapping '{}' for format '{}'", a.mapping, a.format));
    fc::sweep_options o;
    o.laws = parse_laws(a.laws);
    o.all = a.all;
    o.limit = a.limit;
    o.threads = a.threads;
    o.stop = &interrupted;
    const chosen_shard part = choose_shard(a.shard);
    o.part = part.part;
    const int width = format_width(a.format);
    const std::uint64_t last = width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
    if (!a.key.empty()) {
        const std::uint64_t k = parse_number(a.key, fmt::format("--key (a key of {})", a.format), last);
        o.range = fc::key_range{k, k + 1};  // k + 1 wraps to 0 for the last 64-bit key: key_range allows it
    }
    if (!a.keys.empty()) o.range = parse_range(a.keys, "--keys");
    o.checkpoint = a.checkpoint;
    o.checkpoint_every = a.checkpoint_every;
    check_checkpoint_writable(o.checkpoint);
    // A link to a checkpoint: saves go to its target, so the link stays a link.
    if (std::error_code ec; std::filesystem::is_symlink(o.checkpoint, ec))
        if (auto target = std::filesystem::canonical(o.checkpoint, ec); !ec) o.checkpoint = std::move(target);
    refuse_same_output("--checkpoint", a.checkpoint, "--json", a.json);
    if (!o.checkpoint.empty()) o.build = executable_digest();  // a rebuilt flipcheck does not resume another's keys
    if (!a.manifest.empty()) {
        if (width == 64 && !o.range)
            throw fc::input_error("--manifest: binary64 without --keys is the sampled domain, not a range a manifest can tile: give --keys");
        check_manifest_dir(a.manifest);
    }
    // The whole range the shards cut (report.hpp's key_range: a 64-bit format's ends at 2^64 - 1).
    const fc::key_range space = o.range.value_or(fc::key_range{0, width == 64 ? ~std::uint64_t(0) : std::uint64_t(1) << width});
    const auto out = open_output(a.json);
    if (a.cross_check) {
        if (!gpu_available()) throw fc::input_error("--cross-check: no CUDA device is present (or this build has no GPU support)");
        const auto diffs = s->cross_check(o);
        for (const auto& d : diffs) fmt::print("cross-check difference: {}\n", d);
        fmt::print("cross-check {} {}: GPU and CPU {}\n", a.format, a.mapping, diffs.empty() ? "agree exactly" : "DISAGREE");
        if (!diffs.empty()) return exit_fail;
    }
    const backend b = choose_backend(a.device);
    if (b == backend::gpu && a.threads)
        throw fc::input_error("--threads sets CPU threads, and this sweep runs on the GPU: add --device cpu, or drop --threads");
    progress_printer progress(a.format + " " + a.mapping);
    o.progress = std::ref(progress);
    const fc::sweep_report r = s->run(o, b);
    progress.finish();
    fmt::print("{}", render_summary(r));
    for (const auto& c : r.counterexamples) fmt::print("{}", render_counterexample(r, c));
    const std::string verdict = r.interrupted ? "interrupted" : r.passed() ? "pass" : "fail";
    print_verdict(verdict, verdict_counts(r));
    out.write(verdict, to_json(r));
    write_sweep_manifest(a.manifest, part, space, r, a.threads);
    if (r.interrupted) {
        fmt::print(stderr, "interrupted after {} keys{}\n", r.keys_checked,
                   a.checkpoint.empty() ? "" : "; rerun the same command to resume from the checkpoint");
        return exit_for_stop();
    }
    return r.passed() ? exit_pass : exit_fail;
}

int run_main_job(const std::string& device, const std::string& json, const std::string& with_mutant) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    auto out = open_output(json);
    // Where a GPU may be present the backend is chosen beside the job's start: the driver's start
    // (choose_backend's first CUDA call) and the context's leave the host idle for 0.2-0.4 s, which
    // the reducers' and the scaling path's host work fills (main_job::start). Where the driver is
    // there but no device answers, `--device gpu` says so only after that host work has ended.
    const fc::run::pending_backend chosen =
        device != "cpu" && fc::run::gpu_may_be_present()
            ? std::async(std::launch::async, [device] { return choose_backend(device); }).share()
            : fc::run::known(choose_backend(device));
    main_job job(chosen, with_mutant, &interrupted, [](const std::string& label) -> std::function<void(const fc::sweep_progress&)> {
        return [p = std::make_shared<progress_printer>(label)](const fc::sweep_progress& at) { (*p)(at); };
    });
    const double context_seconds = job.start();
    const backend b = job.chosen();
    fmt::print("flipcheck: every built-in mapping over every format on the {}\n",
               b == backend::gpu ? "GPU" : fmt::format("CPU ({} threads)", std::thread::hardware_concurrency()));
    if (b == backend::gpu) fmt::print("GPU start-up (CUDA context): {}\n", human_seconds(context_seconds));
    fmt::print("\n");
    fmt::print("{:<15} {:<21} {:<5} {:>12} {:<10} {:>8} {:<15} {:>9} {:>11}\n", "format", "mapping", "laws", "keys", "domain",
               "coverage", "verdict", "time", "keys/s");
    std::vector<fc::sweep_report> failed, findings;
    int unexpected_passes = 0;
    nlohmann::json rows = nlohmann::json::array();
    struct tally {
        int passed = 0, total = 0;
        std::uint64_t keys = 0;
        double coverage = 1;  // the smallest of the rows'
        std::vector<std::string> formats;
    } exhaustive, sampled, proved;
    std::vector<std::string> not_proved;  // rows the prover was asked for and did not prove: why
    while (const auto row = job.next_row()) {
        const fc::sweep_report& r = row->report;
        if (row->proof && !row->proved()) not_proved.push_back(fmt::format("{} {}: {}", r.format, r.mapping, row->proof->not_proved));
        if (row->proved()) {  // every key, by Z3 from the compiled code: no key was run, no rate
            ++proved.total;
            ++proved.passed;
            if (std::find(proved.formats.begin(), proved.formats.end(), r.format) == proved.formats.end()) proved.formats.push_back(r.format);
            fmt::print("{:<15} {:<21} {:<5} {:>12} {:<10} {:>8} {:<15} {:>9} {:>11}\n", r.format, r.mapping, "all",
                       fmt::format("2^{}", r.key_bits), "proved", "1", row->proof->equal_to.empty() ? "pass" : "pass (equal)",
                       human_seconds(r.seconds), "-");
            std::fflush(stdout);
            nlohmann::json j = to_json(r);
            j["coverage"] = 1;
            j["verdict"] = "pass";
            j["expected"] = "pass";
            j["wall_seconds"] = row->wall_seconds;
            j["proof"] = {{"by", "flipcheck-prove"}, {"laws", row->proof->laws}, {"compile_command", job.proofs().compile_command}};
            if (!row->proof->equal_to.empty()) j["proof"]["equal_to"] = row->proof->equal_to;
            rows.push_back(j);
            continue;
        }
        // A built-in on a format it does not claim (registry::ieee_shaped): its failure is a
        // finding, shown with its counterexample, and it must fail: a pass would be a surprise.
        if (!row->expected_right) {
            const std::string v = r.passed() ? "UNEXPECTED pass" : "fail (expected)";
            fmt::print("{:<15} {:<21} {:<5} {:>12} {:<10} {:>8} {:<15} {:>9} {:>11}\n", r.format, r.mapping, law_list(r.laws),
                       r.keys_checked, r.domain, human_share(r.coverage()), v, human_seconds(r.seconds),
                       human_rate(r.keys_per_second()));
            nlohmann::json j = to_json(r);
            j["expected"] = "fail";
            j["wall_seconds"] = row->wall_seconds;
            rows.push_back(j);
            if (r.passed()) ++unexpected_passes;
            else findings.push_back(r);
            continue;
        }
        tally& t = r.domain == "sampled" ? sampled : exhaustive;
        ++t.total;
        t.passed += row->passed();
        t.keys = std::max(t.keys, r.keys_checked);
        t.coverage = std::min(t.coverage, r.coverage());
        if (std::find(t.formats.begin(), t.formats.end(), r.format) == t.formats.end()) t.formats.push_back(r.format);
        fmt::print("{:<15} {:<21} {:<5} {:>12} {:<10} {:>8} {:<15} {:>9} {:>11}\n", r.format, r.mapping, law_list(r.laws),
                   r.keys_checked, r.domain, human_share(r.coverage()), verdict(r), human_seconds(r.seconds),
                   r.equal_to.empty() ? human_rate(r.keys_per_second()) : "-");  // no law was evaluated: no rate
        std::fflush(stdout);
        nlohmann::json j = to_json(r);
        j["expected"] = "pass";
        j["wall_seconds"] = row->wall_seconds;
        rows.push_back(j);
        if (!row->passed()) failed.push_back(r);
    }
    for (const auto& p : job.proved())
        fmt::print("\n{} rows marked \"pass (equal)\": encode and decode agree with {}'s on every key (2^{} of each), so\n"
                   "its exhaustive sweep proves every law there too (equal_mappings.hpp; where the compiler finds two built-ins\n"
                   "to be the same code, it proves it before the run, and the row takes microseconds); `flipcheck sweep` sweeps\n"
                   "each one\n",
                   p.format, p.mapping, p.key_bits);
    for (const auto& r : failed) {
        fmt::print("\n{}", render_summary(r));
        for (const auto& c : r.counterexamples) fmt::print("{}", render_counterexample(r, c));
    }
    if (!findings.empty())
        fmt::print("\nexpected failures: the seeds' keys on formats that are not IEEE-shaped (unsigned, one NaN, or\n"
                   "unused container bits), each with its smallest counterexample (docs/formats.md):\n");
    for (const auto& r : findings) {
        fmt::print("\n{}", render_summary(r));
        const fc::sweep_report one = main_job::telling_failure(r);
        if (!one.counterexamples.empty()) fmt::print("{}", render_counterexample(one, one.counterexamples.front()));
    }
    // Proven and sampled are different claims, so they are counted apart.
    fmt::print("\n{}/{} exhaustive: every key of {} checked\n", exhaustive.passed, exhaustive.total, join(exhaustive.formats));
    if (!findings.empty() || unexpected_passes)
        fmt::print("{} expected failures shown above{}\n", findings.size(),
                   unexpected_passes ? fmt::format("; {} UNEXPECTED passes (a finding no longer holds)", unexpected_passes) : "");
    if (proved.total)
        fmt::print("{}/{} proved: {}, every key (2^64) and the max and min of every pair of codes (2^128), by Z3 from their\n"
                   "code as `{}` compiled it (flipcheck-prove beside flipcheck: {} of wall, beside the sweeps; docs/prove.md)\n",
                   proved.passed, proved.total, join(proved.formats), job.proofs().compile_command, human_seconds(job.proofs().seconds));
    for (const auto& n : not_proved) fmt::print("not proved, sampled instead: {}\n", n);
    if (sampled.total)
        fmt::print("{}/{} sampled: {} with at most {} keys each, {} of its key space: a sample, not a proof{}\n", sampled.passed,
                   sampled.total, join(sampled.formats), sampled.keys, human_share(sampled.coverage),
                   job.proofs().why_not.empty() ? "" : fmt::format("\n  (not proved: {}; docs/prove.md)", job.proofs().why_not));
    const double mapping_seconds = std::chrono::duration<double>(clock::now() - t0).count();
    auto summary = [&] {
        return nlohmann::json{{"exhaustive", {{"passed", exhaustive.passed}, {"total", exhaustive.total}}},
                              {"expected_failures", findings.size()}, {"unexpected_passes", unexpected_passes},
                              {"sampled", {{"passed", sampled.passed}, {"total", sampled.total}, {"coverage", sampled.coverage}}},
                              {"proved", {{"passed", proved.passed}, {"total", proved.total}, {"seconds", job.proofs().seconds}}},
                              {"mapping_seconds", mapping_seconds},
                              {"reducer_seconds", job.reducer_seconds()},
                              {"scaling_seconds", job.scaling_seconds()},
                              {"seconds", std::chrono::duration<double>(clock::now() - t0).count()}};
    };
    const int passed = exhaustive.passed + sampled.passed + proved.passed,
              total = exhaustive.total + sampled.total + proved.total + unexpected_passes;
    auto stopped = [&] {
        if (!interrupted) return false;
        print_verdict("interrupted", fmt::format("{} of {} mapping rows passed before the stop", passed, total));
        out.write("interrupted", {{"mappings", rows}, {"summary", summary()}});
        return true;
    };
    if (stopped()) return exit_for_stop();

    // The reducers built on the mappings: each against the oracle under every policy it claims.
    fmt::print("\nflipcheck: every built-in reducer over every format on the {}, against the oracle\n\n",
               b == backend::gpu ? "GPU (gpu/reduce.hpp's kernels)" : "CPU (core's atomic update code, replayed)");
    fmt::print("{:<40} {:<15} {:>9} {:<8}\n", "reducer", "format", "checks", "verdict");
    const auto reductions = [&] {
        const heartbeat beat("the reducers");
        return job.reductions();
    }();
    nlohmann::json reduction_rows = nlohmann::json::array();
    int reductions_passed = 0;
    for (const auto& r : reductions) {
        fmt::print("{:<40} {:<15} {:>9} {:<8}\n", r.reducer, r.format, r.checks, r.passed() ? "pass" : "FAIL");
        reductions_passed += r.passed();
        reduction_rows.push_back(to_json(r));
    }
    for (const auto& r : reductions)
        if (!r.passed()) fmt::print("\n{} on {} ({}): {}\n", r.reducer, r.format, r.device, r.failure);
    fmt::print("\n{}/{} reducers passed\n", reductions_passed, reductions.size());
    std::fflush(stdout);
    if (stopped()) return exit_for_stop();

    // The FP8/MX scaling path: amax, scales, decoders and whole block pipelines.
    const auto t_scaling = clock::now();
    fmt::print("\nflipcheck: the FP8/MX scaling path (amax, scales, decoders, amax-then-scale blocks, quantizers, scaled\nquantizers) and the "
               "canonical keys on the CPU{}, against\nthe oracle (amax.hpp, scale.hpp, scale_recipe.hpp, quantize.hpp, scaled_quantize.hpp, "
               "canonical_key.hpp)\n\n",
               b == backend::gpu ? " and on the GPU (gpu/amax.hpp's kernels)" : "");
    fmt::print("{:<22} {:<4} {:<16} {:<76} {:>11} {:<11} {:<8} {}\n", "subject", "on", "shape", "claim", "checks", "domain", "verdict",
               "rounding modes");
    const auto scaling = [&] {
        const heartbeat beat("the scaling path");
        return job.scaling();
    }();
    nlohmann::json scaling_rows = nlohmann::json::array();
    int scaling_passed = 0;
    for (const auto& r : scaling) {
        fmt::print("{:<22} {:<4} {:<16} {:<76} {:>11} {:<11} {:<8} {}\n", r.report.subject, r.device, r.report.shape, r.report.claim,
                   r.report.checks, r.report.exhaustive ? "exhaustive" : "sampled", r.report.passed() ? "pass" : "FAIL",
                   r.device == "gpu" ? "per instruction (the device has no mode)" : r.report.rounding);
        scaling_passed += r.report.passed();
        scaling_rows.push_back(to_json(r));
    }
    for (const auto& r : scaling)
        if (!r.report.passed()) fmt::print("\n{} ({}, {}): {}\n", r.report.subject, r.device, r.report.claim, *r.report.counterexample);
    fmt::print("\n{}/{} scaling subjects passed ({})\n", scaling_passed, scaling.size(),
               human_seconds(std::chrono::duration<double>(clock::now() - t_scaling).count()));

    const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
    fmt::print("\nmain job: {} wall; the mappings took {}, the reducers and the scaling path{} {} more\n", human_seconds(seconds),
               human_seconds(mapping_seconds), b == backend::gpu ? " (checked beside them)" : " (checked beside them after the 32-bit sweeps)",
               human_seconds(seconds - mapping_seconds));
    if (stopped()) return exit_for_stop();
    const bool all_passed = passed == total && reductions_passed == int(reductions.size()) && scaling_passed == int(scaling.size());
    print_verdict(all_passed ? "pass" : "fail",
                  fmt::format("mappings {}/{}, reducers {}/{}, scaling {}/{} passed", passed, total, reductions_passed,
                              reductions.size(), scaling_passed, scaling.size()));
    out.write(all_passed ? "pass" : "fail",
              {{"mappings", rows}, {"reductions", reduction_rows}, {"scaling", scaling_rows}, {"summary", summary()}});
    return all_passed ? exit_pass : exit_fail;
}

int run_mutants(const std::string& device, const std::string& json, bool markdown) {
    auto out = open_output(json);
    const backend b = choose_backend(device);
    nlohmann::json rows = nlohmann::json::array();
    int killed = 0, total = 0;
    if (markdown) {
        fmt::print("| mutant | kind | bug class from | killed by | driver | counterexample |\n| --- | --- | --- | --- | --- | --- |\n");
    } else {
        fmt::print("{:<26} {:<16} {:<8} {:<22} {:<10} {:>9} {:>9}  {}\n", "mutant", "kind", "verdict", "killed by", "driver",
                   "time", "cases", "minimal counterexample");
    }
    for (const auto& m : mutant_zoo()) {
        if (m.needs_gpu && b != backend::gpu) continue;
        const kill_report k = m.kill(b);
        ++total;
        killed += k.killed;
        if (markdown) {
            fmt::print("| `{}` | {} | {} | {} | {} | `{}` |\n", m.name, m.kind, m.origin, k.killed ? k.law : "SURVIVED",
                       k.driver, k.counterexample);
        } else {
            fmt::print("{:<26} {:<16} {:<8} {:<22} {:<10} {:>9} {:>9}  {}\n", m.name, m.kind, k.killed ? "killed" : "SURVIVED",
                       k.law, k.driver, human_seconds(k.seconds), k.cases, k.counterexample);
        }
        std::fflush(stdout);
        rows.push_back({{"mutant", m.name}, {"kind", m.kind}, {"origin", m.origin}, {"description", m.description},
                        {"killed", k.killed}, {"law", k.law}, {"driver", k.driver}, {"seconds", k.seconds},
                        {"cases", k.cases}, {"counterexample", k.counterexample}});
        if (interrupted) break;
    }
    if (!markdown) fmt::print("\n{}/{} killed\n", killed, total);
    const std::string verdict = interrupted ? "interrupted" : killed == total && total > 0 ? "pass" : "fail";
    if (!markdown) print_verdict(verdict, fmt::format("{} of {} mutants killed", killed, total));
    out.write(verdict, {{"mutants", rows}});
    if (interrupted) return exit_for_stop();
    return verdict == "pass" ? exit_pass : exit_fail;
}

// The built-in mappings' verdict on every format. A byte format's is computed here, every code
// (microseconds); a wider one's is the claim the main job proves (or, for binary64, samples).
void print_verdicts() {
    const auto names = mapping_names(true);
    fmt::print("\nverdicts of the built-in mappings (byte formats: every code swept now; the others: what the main job\n"
               "proves); \"wrong\" on a format that is not IEEE-shaped is a finding, expected:\n  {:<16}", "");
    for (const auto& m : names) fmt::print(" {:<22}", m);
    fmt::print("\n");
    for (const auto& f : format_names()) {
        fmt::print("  {:<16}", f);
        for (const auto& m : names) {
            const sweep_entry* s = find_sweep_entry(f, m);
            std::string cell = "-";
            if (s && format_width(f) <= 8) {
                fc::sweep_options o;
                o.threads = 1;
                const fc::sweep_report r = s->run(o, backend::cpu);
                std::string law;
                for (int l = 0; l < fc::mapping_law_count && law.empty(); ++l)
                    if (r.failures_by_law[l]) law = std::string(fc::law_names[l]);
                cell = r.passed() ? "right" : "wrong: " + law;
                if (r.passed() != s->expected_right) cell += " (UNEXPECTED)";
            } else if (s) {
                cell = s->expected_right ? "right (main job)" : "wrong (main job)";
            }
            fmt::print(" {:<22}", cell);
        }
        fmt::print("\n");
    }
}

// Every code of a small format with its decoded value: what scripts/compare_decoding.py holds
// against PyTorch and ml_dtypes on the lent GPU machine.
int run_codes(const std::string& format, const std::string& json) {
    const auto rows = codes_of(format);
    auto out = open_output(json);
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : rows) {
        const std::string value = describe(format, r.code).value;
        fmt::print("0x{:02x}  {:<24} {}\n", r.code, value, r.kind);
        j.push_back({{"code", r.code}, {"float32_bits", r.value_bits}, {"value", value}, {"class", r.kind}});
    }
    out.write("pass", {{"format", format}, {"codes", j}});
    return exit_pass;
}

int run_list() {
    namespace reg = fc::registry;
    auto line = [](const reg::about& a, std::string_view extra = {}) {
        fmt::print("  0x{:02x} {:<26} {}{}\n", a.id, a.name, a.description, extra);
    };
    fmt::print("Everything below comes from the registry (core/include/flipcheck/catalog/registry.hpp); 0x.. is each\n"
               "entry's stable id, the byte fuzz inputs use to name it.\n\nformats:\n");
    reg::for_each<reg::all_formats>([&]<class E>() { line(E::info); });
    fmt::print("\nmappings (built-in, verified by the main job over every format):\n");
    reg::for_each<reg::mappings>([&]<class E>() { line(E::info); });
    fmt::print("\nmapping mutants (known-wrong, must be killed; `sweep --mapping NAME` shows how):\n");
    reg::for_each<reg::concat<reg::mapping_mutants, reg::low_precision_mapping_mutants>>([&]<class E>() {
        line(E::info, fmt::format(" [{}; expected to break {}]", E::info.origin, fc::to_string(E::killed_by)));
    });
    print_verdicts();
    fmt::print("\nreducers (atomic update strategies; verified by the main job under the policy each declares):\n");
    reg::for_each<reg::reducers>([&]<class E>() { line(E::info, fmt::format(" [{}]", reg::to_string(E::what))); });
    fmt::print("\nreducer mutants (known-wrong, must be killed by `flipcheck mutants`):\n");
    reg::for_each<reg::reducer_mutants>([&]<class E>() { line(E::info, fmt::format(" [{}]", E::info.origin)); });
    auto formats_of = [&]<class E>() {
        std::string f;
        reg::for_each<typename E::formats>([&]<class Fe>() { f += (f.empty() ? "" : ", ") + std::string(Fe::name); });
        return f;
    };
    fmt::print("\nthe FP8/MX scaling path (amax.hpp, scale.hpp; verified by the main job, on the GPU too):\n");
    reg::for_each<reg::scaling>([&]<class E>() {
        line(E::info, fmt::format(" [{}; on {}]", E::info.origin, formats_of.template operator()<E>()));
    });
    fmt::print("  GPU forms (gpu/amax.cuh): amax_warp, amax_block (a shared word), amax_grid (a global word), the fused\n"
               "  amax + e8m0 scales kernel, and the exhaustive checks: every 16-bit pair's amax, every binary32 amax's scales\n");
    fmt::print("\nscaling mutants (known-wrong, must be killed by `flipcheck mutants`; the amax ones, the packed\n"
               "bf16x2 one and e8m0_from_exponent_field also as GPU code, killed on the device):\n");
    reg::for_each<reg::scaling_mutants>([&]<class E>() {
        line(E::info, fmt::format(" [{}; on {}; expected to break {}]", E::info.origin, formats_of.template operator()<E>(),
                                  fc::to_string(E::killed_by)));
    });
    fmt::print("\ncanonical keys (canonical_key.hpp; sort and index keys that give equal values one key; verified by the\n"
               "main job under the equivalence each declares):\n");
    reg::for_each<reg::keys>([&]<class E>() {
        line(E::info, fmt::format(" [{}; on {}]", E::info.origin, formats_of.template operator()<E>()));
    });
    fmt::print("\ncanonical key mutants (known-wrong, must be killed by `flipcheck mutants`):\n");
    reg::for_each<reg::key_mutants>([&]<class E>() {
        line(E::info, fmt::format(" [{}; on {}; expected to break {}]", E::info.origin, formats_of.template operator()<E>(),
                                  fc::to_string(E::killed_by)));
    });
    fmt::print("{}", shader_list());
    fmt::print("\nlaws:\n");
    for (std::size_t l = 0; l < fc::law_names.size(); ++l) fmt::print("  {:<24} {}\n", fc::law_names[l], fc::law_descriptions[l]);
    fmt::print("\npolicies:\n  nan:   {}\n  zero:  {}\n  ties:  {}\n", join({fc::nan_policy_names.begin(), fc::nan_policy_names.end()}),
               join({fc::zero_policy_names.begin(), fc::zero_policy_names.end()}),
               join({fc::tie_policy_names.begin(), fc::tie_policy_names.end()}));
    std::string gpu;
    try {
        gpu = gpu_available() ? "gpu (present)" : "gpu (not present)";
    } catch (const fc::device_error& e) {
        gpu = fmt::format("gpu (present but failing: {})", e.what());
    }
    fmt::print("\nbackends: cpu, {}\n", gpu);
    return exit_pass;
}

// Runs one command and turns each kind of error into its exit code (exit_code.hpp).
template <class Fn>
int run_command(Fn&& fn) {
    try {
        return fn();
    } catch (const std::exception& e) {
        // After a stop, an error is its consequence (an adapter the stop handler killed, a wait cut
        // short), never a verdict or a bad input.
        if (!stop) throw;
        fmt::print(stderr, "flipcheck: stopped by {}: what was printed above is what was done ({})\n",
                   stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", e.what());
        return exit_for_stop();
    }
}

template <class Fn>
int run_reporting_errors(Fn&& fn) {
    try {
        return run_command(fn);
    } catch (const fc::input_error& e) {
        fmt::print(stderr, "flipcheck: {}\n", e.what());
        return exit_bad_input;
    } catch (const fc::device_error& e) {
        fmt::print(stderr, "flipcheck: the GPU failed: {}\n(run with --device cpu to check on the CPU instead)\n", e.what());
        return exit_device;
    } catch (const fc::subject_error& e) {
        fmt::print(stderr, "flipcheck: {}\n", e.what());
        return exit_fail;
    } catch (const std::system_error& e) {
        // The system refused a resource the user asked for (threads, files): their input, not a bug.
        fmt::print(stderr, "flipcheck: the system refused: {}\n", e.what());
        return exit_bad_input;
    } catch (const std::exception& e) {
        fmt::print(stderr, "flipcheck: internal error: {}\n(this is a bug in flipcheck; please report it with the command you ran)\n", e.what());
        return exit_internal;
    }
}

}  // namespace

// `flipcheck prove ...` is flipcheck-prove (prove/main.cpp), a program of its own installed beside
// this one: it links Z3 and LLVM, which this one must run without (the GPU machine has neither).
static int run_prover(int argc, char** argv) {
    std::string why_not;
    const std::string prover = fc::run::find_prover(why_not);  // beside this program, or FLIPCHECK_PROVER's
    if (prover.empty()) {
        fmt::print(stderr, "flipcheck: prove: {}: build it (cmake --build --preset release --target flipcheck-prove; it needs Debian's "
                           "llvm-14-dev, clang-14 and libz3-dev, which scripts/bootstrap installs) or install flipcheck, which puts it "
                           "beside this program\n",
                   why_not);
        return 2;
    }
    std::vector<char*> args{const_cast<char*>(prover.c_str())};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(prover.c_str(), args.data());
    fmt::print(stderr, "flipcheck: prove: cannot run {}: {}\n", prover, std::strerror(errno));
    return 2;
}

int main(int argc, char** argv) {
    // Keep freed memory for the next allocation instead of returning it to the kernel: the sampled
    // binary64 sweeps build key lists of 100-300 MB one mapping after another, and on a VM where a
    // page fault costs microseconds re-faulting them was a third of the CPU main job (bench/RESULTS.md).
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    if (argc >= 2 && std::string_view(argv[1]) == "prove") return run_prover(argc, argv);
    choices names{format_names(), mapping_names(false), FLIPCHECK_VERSION};
    arguments a;
    if (const int rc = parse_arguments(argc, argv, names, a); rc >= 0) return rc;
    command_words.assign(argv, argv + argc);
    install_stop_handlers(2);  // the backstop's grace: see stop.hpp
    const int rc = run_reporting_errors([&] {
        using command = arguments::command;
        switch (a.what) {
            case command::sweep: return run_sweep(a.sweep);
            case command::pairs: return run_pairs(a.pairs, choose_backend(a.pairs.device));
            case command::merge: return run_merge(a.merge);
            case command::plan: return run_plan(a.plan);
            case command::check:
                if (!a.check.adapter.empty() || a.check.adapter_stdio) return run_adapter_check(a.check);
                return a.check.shader.empty() ? run_check(a.check) : run_shader_check(a.check);
            case command::list: return run_list();
            case command::codes: return run_codes(a.codes_format, a.codes_json);
            case command::audit: {
                const auto out = open_output(a.audit_json);
                // The audit prints its rows as it goes: on a terminal they pass the status line by
                // the heartbeat (progress.hpp). --conversions has a heartbeat of its own, with a count.
                std::optional<heartbeat> beat;
                heartbeat::options h;
                h.capture_stdout = true;
                if (!a.audit.conversions) beat.emplace("the audit", std::move(h));
                return run_audit_command(a.audit, choose_backend(a.audit_device), out);
            }
            case command::mutants: return run_mutants(a.mutants_device, a.mutants_json, a.markdown);
            case command::main_job: break;
        }
        return run_main_job(a.device, a.json, a.with_mutant);
    });
    // A report that did not reach standard output is lost: never a pass. A command that ended
    // after a stop ends as stopped, whatever it returned.
    if (stop && (rc == exit_pass || rc == exit_fail || rc == exit_bad_input)) return stdout_intact(), exit_for_stop();
    return stdout_intact() ? rc : (rc == exit_pass ? exit_bad_input : rc);
}
