// `flipcheck plan`: the job files of a sharded sweep or pair check for a cluster's engine, and what
// it will cost. The rate is measured here, on this machine's device, with the same code the shards
// run (or given with --rate, measured on the cluster's own device); the projection is plain
// arithmetic on it: per-shard time = shard size / rate, task-hours = space / rate / 3600.
//   slurm  flipcheck-array.sbatch (a job array, one task per shard, `--shard auto`, requeueable),
//          flipcheck-merge.sbatch, and submit.sh, which submits the array and the merge with
//          --dependency=afterany on it (the merge runs however the shards ended, and names the
//          missing ones with the sbatch line that reruns them)
//   k8s    flipcheck-shards.yaml (an Indexed Job: completionMode Indexed, completions = parallelism
//          = shards, FLIPCHECK_SHARD_COUNT set, the manifest folder a PersistentVolumeClaim) and
//          flipcheck-merge.yaml (a Job), applied once the Indexed Job has ended (Kubernetes has no
//          dependencies between Jobs: the files say the kubectl lines)
#include <sys/stat.h>

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "exit_code.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/run/backend.hpp"
#include "flipcheck/run/shell_quote.hpp"
#include "flipcheck/run/sweep_entries.hpp"
#include "manifest.hpp"
#include "output.hpp"
#include "render.hpp"
#include "scale_out.hpp"
#include "shards.hpp"

namespace flipcheck::cli {

namespace fs = std::filesystem;

namespace {

// A name Kubernetes takes for a Job (DNS-1123 label: lower case, digits and '-', at most 63, and
// an Indexed Job's pods add a suffix, so 50 here) and Slurm shows.
std::string job_name(const std::string& what) {
    std::string n;
    for (char c : what) n += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(static_cast<unsigned char>(c))) : '-';
    while (n.find("--") != std::string::npos) n.erase(n.find("--"), 1);
    if (n.size() > 50) n.resize(50);
    while (!n.empty() && n.back() == '-') n.pop_back();
    return n;
}

std::string duration_text(double s) {
    if (s < 120) return fmt::format("{:.1f} s", s);
    if (s < 7200) return fmt::format("{:.1f} min", s / 60);
    if (s < 172800) return fmt::format("{:.1f} h", s / 3600);
    return fmt::format("{:.1f} days", s / 86400);
}

// Slurm's --time: three times the projection and ten minutes more, whole minutes, D-HH:MM:SS.
std::string slurm_time(double shard_seconds) {
    const long long total = std::llround(std::ceil((3 * shard_seconds + 600) / 60) * 60);
    return fmt::format("{}-{:02}:{:02}:{:02}", total / 86400, total / 3600 % 24, total / 60 % 60, total % 60);
}

std::string yaml_string(const std::string& s) { return nlohmann::json(s).dump(); }  // a JSON string is a YAML scalar

std::string words_text(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + run::quote(w);
    return out;
}

void write_file(const fs::path& p, const std::string& text, bool executable) {
    write_atomically(p.string(), p.string(), text);
    if (executable) ::chmod(p.c_str(), 0755);
}

}  // namespace

int run_plan(const plan_args& a) {
    const run::sweep_entry* s = run::find_sweep_entry(a.format, a.mapping);
    if (!s) throw input_error(fmt::format("no mapping '{}' for format '{}'", a.mapping, a.format));
    const bool sweep = a.workload == "sweep";
    const int width = run::format_width(a.format);
    if (sweep && !a.rows.empty()) throw input_error("--rows is for --workload pairs; a sweep takes --keys");
    if (!sweep && !a.keys.empty()) throw input_error("--keys is for --workload sweep; pairs take --rows");
    if (sweep && !a.op.empty()) throw input_error("--op is for --workload pairs (the max or min step); a sweep checks a mapping's laws");
    if (!sweep && !a.laws.empty()) throw input_error("--laws is for --workload sweep; pairs check the max or min step (--op)");
    const std::string op = a.op.empty() ? "max" : a.op;
    if (!sweep && !s->pairs) throw input_error(fmt::format("{} has no pair check (formats of 32 bits or fewer whose every bit is the value's)", a.format));
    if (sweep && width == 64 && a.keys.empty())
        throw input_error("a binary64 sweep is planned over a key range: give --keys (0:0xffffffffffffffff for all but the last key)");
    if (a.engine == "k8s" && !a.partition.empty()) throw input_error("--partition is for --engine slurm");
    if (a.engine == "slurm" && (!a.image.empty() || a.pvc != "flipcheck-results")) throw input_error("--image and --pvc are for --engine k8s");
    const key_range space = sweep ? (a.keys.empty() ? key_range{0, std::uint64_t(1) << width} : parse_range(a.keys, "--keys"))
                                  : (a.rows.empty() ? key_range{0, std::uint64_t(1) << width} : parse_range(a.rows, "--rows"));
    if (width < 64 && space.end > std::uint64_t(1) << width)
        throw input_error(fmt::format("--{} {}: {} has only {} codes (0 to {:#x})", sweep ? "keys" : "rows", sweep ? a.keys : a.rows, a.format,
                                      std::uint64_t(1) << width, (std::uint64_t(1) << width) - 1));
    // What reaches a job file verbatim: a line break or shell syntax there would be a line of its own.
    for (const auto& [option, text] : {std::pair{"--partition", a.partition}, {"--manifest", a.manifest}, {"--out", a.out},
                                       {"--flipcheck", a.flipcheck}, {"--image", a.image}, {"--pvc", a.pvc}})
        if (text.find_first_of("\n\r") != std::string::npos)
            throw input_error(fmt::format("{} holds a line break: it is written into the job files", option));
    if (a.partition.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,-") != std::string::npos)
        throw input_error(fmt::format("--partition '{}': a Slurm partition name is letters, digits and _ . - (several: comma-separated)",
                                      a.partition.substr(0, 60)));
    if (a.shards > space.size()) throw input_error(fmt::format("--shards {}: the space holds only {} {}", a.shards, space.size(), sweep ? "keys" : "rows"));
    const run::backend b = a.device == "gpu" ? run::backend::gpu : run::backend::cpu;
    const fs::path manifest_dir = fs::absolute(a.manifest).lexically_normal();
    const fs::path out_dir = a.out.empty() ? manifest_dir : fs::absolute(a.out).lexically_normal();
    check_manifest_dir(out_dir);
    // The work one unit stands for: a key (sweep) or a pair; a row holds 2^width pairs.
    const double unit_per_step = sweep ? 1.0 : std::ldexp(1.0, width);
    const double total_units = double(space.size()) * unit_per_step;
    const double shard_units = double(shard{0, a.shards}.of(space).size()) * unit_per_step;
    // The rate: given, or measured here on a slice with the shards' own code and thread count.
    double rate = a.rate;
    std::string rate_source = "given with --rate";
    if (rate == 0) {
        if (b == run::backend::gpu && !run::gpu_available())
            throw input_error("--device gpu: this machine has no GPU to measure the rate on; measure it on the cluster's (`flipcheck pairs "
                              "... --rows 0:1 --device gpu` or `flipcheck sweep ... --keys 0:0x100000000 --device gpu`) and give --rate");
        // Four slices, at 1/8, 3/8, 5/8 and 7/8 of the space, timed together: the rate differs by
        // region (binary64's first 2^36 keys, all NaNs, ran at 127 G keys/s on an H100; keys from
        // 1.0 at 536: bench/RESULTS.md), and the bulk of a space is its numbers.
        constexpr std::uint64_t slices = 4;
        double units = 0, seconds = 0;
        const auto slice_at = [&](std::uint64_t i, std::uint64_t n) {
            const std::uint64_t room = space.size() - n, at = space.begin + std::uint64_t((double(room) * double(2 * i + 1)) / double(2 * slices));
            return key_range{at, at + n};
        };
        if (sweep) {
            sweep_options o;
            o.all = true;
            o.threads = b == run::backend::cpu ? a.cpus_per_task : 0;
            // 2^34 keys a slice on a GPU (about 0.03 s on an H100), 2^24 on a CPU.
            const std::uint64_t n = std::min<std::uint64_t>(space.size(), std::uint64_t(1) << (b == run::backend::gpu ? 34 : 24));
            if (b == run::backend::gpu) {  // the first launch pays for the context
                o.range = slice_at(0, std::min<std::uint64_t>(n, 1 << 20));
                (void)s->run(o, b);
            }
            for (std::uint64_t i = 0; i < slices; ++i) {
                o.range = slice_at(i, n);
                const sweep_report r = s->run(o, b);
                units += double(r.keys_checked);
                seconds += r.seconds;
            }
        } else {
            pairs_options o;
            o.all = true;
            o.op = op == "min" ? reduce_op::min : reduce_op::max;
            o.threads = b == run::backend::cpu ? a.cpus_per_task : 0;
            if (b == run::backend::cpu && width > 16) o.columns = std::uint64_t(1) << 24;
            const std::uint64_t n = std::min<std::uint64_t>(space.size(), width <= 16 ? 64 : 1);
            if (b == run::backend::gpu) {
                o.rows = slice_at(0, n);
                (void)s->pairs(o, b);
            }
            for (std::uint64_t i = 0; i < slices; ++i) {
                o.rows = slice_at(i, n);
                const pairs_report r = s->pairs(o, b);
                units += r.pairs_checked();
                seconds += r.seconds;
            }
        }
        rate = seconds > 0 ? units / seconds : 0;
        rate_source = fmt::format("measured here on {}", device_text(b, b == run::backend::cpu ? a.cpus_per_task : 0));
        if (!(rate > 0)) throw input_error("plan: the measured rate is zero (the slice took no time?): give --rate");
    }
    const double shard_seconds = shard_units / rate, task_hours = total_units / rate / 3600;
    const std::string task = b == run::backend::gpu ? "GPU" : fmt::format("{}-CPU task", a.cpus_per_task);
    // What each shard runs.
    std::vector<std::string> work{sweep ? "sweep" : "pairs", "--format", a.format, "--mapping", a.mapping};
    if (sweep && !a.laws.empty()) {
        std::string laws;
        for (const auto& l : a.laws) laws += (laws.empty() ? "" : ",") + l;
        work.insert(work.end(), {"--laws", laws});
    }
    if (!sweep) work.insert(work.end(), {"--op", op});
    if (sweep) work.insert(work.end(), {"--keys", fmt::format("{:#x}:{:#x}", space.begin, space.end)});
    else work.insert(work.end(), {"--rows", fmt::format("{:#x}:{:#x}", space.begin, space.end)});
    work.insert(work.end(), {"--device", a.device, "--all", "--shard", "auto", "--manifest", manifest_dir.string()});
    if (b == run::backend::cpu) work.insert(work.end(), {"--threads", std::to_string(a.cpus_per_task)});
    const std::string what = sweep ? fmt::format("sweep of {} on {}, keys [{:#x}, {:#x})", a.mapping, a.format, space.begin, space.end)
                                   : fmt::format("{} step of {} on every pair of {} codes, rows [{:#x}, {:#x})", op, a.mapping, a.format,
                                                 space.begin, space.end);
    const std::string name = job_name(fmt::format("flipcheck-{}-{}-{}", a.workload, a.format, a.mapping));
    std::string cost = fmt::format("{:.3g} {}-hours", task_hours, task);
    if (a.price > 0) cost += fmt::format(", {:.2f} at {:.2f} per {}-hour", task_hours * a.price, a.price, task);
    const std::vector<std::string> header{
        fmt::format("flipcheck plan: {} in {} shards", what, a.shards),
        fmt::format("rate: {} {}/s per task ({})", human_rate(rate).substr(0, human_rate(rate).size() - 2), sweep ? "keys" : "pairs", rate_source),
        fmt::format("per shard: {:.4g} {}, {} projected; all shards: {:.4g} {}, {}", shard_units, sweep ? "keys" : "pairs",
                    duration_text(shard_seconds), total_units, sweep ? "keys" : "pairs", cost),
        fmt::format("merge: flipcheck merge {}", run::quote(manifest_dir.string()))};
    std::string comment;
    for (const auto& h : header) comment += "# " + h + "\n";
    std::vector<fs::path> written;
    if (a.engine == "slurm") {
        std::error_code ec;
        const fs::path self = a.flipcheck.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::path(a.flipcheck);
        const std::string exe = run::quote(self.string());
        const fs::path logs = out_dir / "logs";
        fs::create_directories(logs, ec);
        std::string array = "#!/bin/sh\n" + comment;
        array += fmt::format("#SBATCH --job-name={}\n#SBATCH --array=0-{}\n#SBATCH --output={}/shard-%a.log\n#SBATCH --time={}\n", name,
                             a.shards - 1, logs.string(), slurm_time(shard_seconds));
        array += fmt::format("#SBATCH --cpus-per-task={}\n#SBATCH --ntasks=1\n#SBATCH --requeue\n", a.cpus_per_task);
        if (b == run::backend::gpu) array += "#SBATCH --gres=gpu:1\n";
        if (!a.partition.empty()) array += fmt::format("#SBATCH --partition={}\n", a.partition);
        array += "# Each task is shard SLURM_ARRAY_TASK_ID of FLIPCHECK_SHARD_COUNT (--shard auto), so `sbatch --array=5,9`\n"
                 "# on this file reruns shards 5 and 9; a requeued task checks the same keys again and replaces its\n"
                 "# manifest whole.\n";
        array += fmt::format("export FLIPCHECK_SHARD_COUNT={}\nexec {} {}\n", a.shards, exe, words_text(work));
        std::string merge = "#!/bin/sh\n" + comment;
        merge += fmt::format("#SBATCH --job-name={}-merge\n#SBATCH --output={}/merge.log\n#SBATCH --time=0-00:30:00\n", name, logs.string());
        if (!a.partition.empty()) merge += fmt::format("#SBATCH --partition={}\n", a.partition);
        merge += fmt::format("exec {} merge {} --json {}\n", exe, run::quote(manifest_dir.string()), run::quote((manifest_dir / "merged.json").string()));
        const std::string submit = "#!/bin/sh\n" + comment +
                                   "# Submits the array, then the merge, which waits for every task to end however it ended.\n"
                                   "set -eu\n"
                                   "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                                   "array=$(sbatch --parsable \"$here/flipcheck-array.sbatch\")\n"
                                   "array=${array%%;*}\n"
                                   "merge=$(sbatch --parsable --dependency=afterany:\"$array\" \"$here/flipcheck-merge.sbatch\")\n"
                                   "echo \"shards: job $array; merge: job ${merge%%;*}\"\n";
        write_file(out_dir / "flipcheck-array.sbatch", array, true);
        write_file(out_dir / "flipcheck-merge.sbatch", merge, true);
        write_file(out_dir / "submit.sh", submit, true);
        written = {out_dir / "flipcheck-array.sbatch", out_dir / "flipcheck-merge.sbatch", out_dir / "submit.sh"};
    } else {
        const std::string image = a.image.empty() ? "flipcheck:latest" : a.image;
        std::string command = "[\"flipcheck\"";
        for (const auto& w : work) command += ", " + yaml_string(w);
        command += "]";
        const auto pod = [&](const std::string& container, const std::string& cmd, bool gpu, bool indexed) {
            std::string y;
            y += "  template:\n    spec:\n      restartPolicy: Never\n      containers:\n";
            y += fmt::format("        - name: {}\n          image: {}\n          command: {}\n", container, yaml_string(image), cmd);
            if (indexed)
                y += fmt::format("          env:\n            - name: FLIPCHECK_SHARD_COUNT\n              value: {}\n",
                                 yaml_string(std::to_string(a.shards)));
            y += fmt::format("          resources:\n            requests:\n              cpu: {}\n", yaml_string(std::to_string(a.cpus_per_task)));
            if (gpu) y += "            limits:\n              nvidia.com/gpu: 1\n";
            y += fmt::format("          volumeMounts:\n            - name: manifests\n              mountPath: {}\n", yaml_string(manifest_dir.string()));
            y += fmt::format("      volumes:\n        - name: manifests\n          persistentVolumeClaim:\n            claimName: {}\n", yaml_string(a.pvc));
            return y;
        };
        std::string shards = comment;
        shards += "# kubectl apply -f flipcheck-shards.yaml; kubectl wait --for=condition=complete --timeout=-1s job/" + name +
                  " || true; kubectl apply -f flipcheck-merge.yaml\n";
        shards += fmt::format("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {}\nspec:\n  completionMode: Indexed\n  completions: {}\n"
                              "  parallelism: {}\n  backoffLimitPerIndex: 2\n  maxFailedIndexes: {}\n",
                              name, a.shards, a.shards, a.shards);
        shards += pod("shard", command, b == run::backend::gpu, true);
        std::string merge = comment;
        merge += fmt::format("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {}-merge\nspec:\n  completions: 1\n  backoffLimit: 0\n", name);
        merge += pod("merge",
                     fmt::format("[\"flipcheck\", \"merge\", {}, \"--json\", {}]", yaml_string(manifest_dir.string()),
                                 yaml_string((manifest_dir / "merged.json").string())),
                     false, false);
        write_file(out_dir / "flipcheck-shards.yaml", shards, false);
        write_file(out_dir / "flipcheck-merge.yaml", merge, false);
        written = {out_dir / "flipcheck-shards.yaml", out_dir / "flipcheck-merge.yaml"};
    }
    for (const auto& h : header) fmt::print("{}\n", h);
    for (const auto& w : written) fmt::print("wrote {}\n", w.string());
    fmt::print("{}\n", a.engine == "slurm" ? fmt::format("submit: sh {}", run::quote((out_dir / "submit.sh").string()))
                                           : fmt::format("apply: kubectl apply -f {}; then, once it has ended, kubectl apply -f {}",
                                                         run::quote((out_dir / "flipcheck-shards.yaml").string()),
                                                         run::quote((out_dir / "flipcheck-merge.yaml").string())));
    return exit_pass;
}

}  // namespace flipcheck::cli
