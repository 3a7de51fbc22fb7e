#include "arguments.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "exit_code.hpp"
#include "flipcheck/number.hpp"

namespace flipcheck::cli {

namespace {

// The first option given an empty value ("--key ''"): bad input, never "the default".
std::string empty_value(const CLI::App& app) {
    std::vector<const CLI::App*> apps{&app};
    for (const auto* sub : app.get_subcommands()) apps.push_back(sub);
    for (const auto* a : apps)
        for (const auto* opt : a->get_options())
            for (const auto& v : opt->results())
                if (v.empty() && opt->get_expected_min() > 0) return opt->get_name();
    return "";
}

const CLI::Validator seconds_check(
    [](const std::string& s) {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        return s.empty() || *end || !std::isfinite(v) || v <= 0 || v > 86400 ? "must be a number of seconds above 0, at most 86400"
                                                                              : std::string();
    },
    "SECONDS");

// What a message shows of a value the user gave: its start, and its length when that is long (a
// 100 KB --format is not echoed whole).
std::string shown(const std::string& text) {
    return text.size() <= 60 ? text : fmt::format("{}... ({} bytes)", text.substr(0, 40), text.size());
}

// A parse error's text with every long value the user gave shortened (CLI11 echoes the value it
// refused, and a list of valid choices is no value of theirs).
std::string shorten_values(std::string message, int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string v = argv[i];
        if (v.size() <= 60) continue;
        for (auto at = message.find(v); at != std::string::npos; at = message.find(v, at + 1)) message.replace(at, v.size(), shown(v));
    }
    return message;
}

// A whole number through the one number rule (flipcheck/number.hpp): decimal or 0x-hex, no sign,
// in [min, max]. CLI11's own integer parsing reads "010" as eight and takes "-1" to 2^64 - 1.
template <class T>
CLI::Option* add_number(CLI::App* app, const std::string& name, T& target, std::uint64_t min, std::uint64_t max, const std::string& help) {
    auto* o = app->add_option_function<std::string>(
        name,
        [&target, name, min, max](const std::string& text) {
            std::uint64_t v = 0;
            if (!read_number(text, max, v) || v < min)
                throw CLI::ValidationError(name, fmt::format("'{}' is not a whole number from {} to {} (decimal or 0x-hex)", shown(text), min,
                                                             max == std::numeric_limits<std::uint64_t>::max() ? std::string("2^64 - 1")
                                                                                                              : std::to_string(max)));
            target = T(v);
        },
        help);
    return o->type_name("N");
}

// A real number, finite, in [min, max] ("nan", "inf" and "1e-300" keys/s never reach a job file).
CLI::Validator real_in(double min, double max, std::string what) {
    return CLI::Validator(
        [=](const std::string& text) {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            return text.empty() || *end || !std::isfinite(v) || v < min || v > max ? fmt::format("must be {} from {:g} to {:g}", what, min, max)
                                                                                    : std::string();
        },
        "NUMBER");
}

}  // namespace

int parse_arguments(int argc, const char* const* argv, const choices& names, arguments& out) {
    CLI::App app{"flipcheck: proves float order-preserving mappings right and finds the bugs in code built on them.\n"
                 "With no subcommand: verify every built-in mapping over every format and print a report."};
        app.add_option("--device", out.device, "cpu, gpu or auto (the GPU when present)")->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    app.add_option("--json", out.json, "also write the report as JSON to FILE");
        app.add_option("--with-mutant", out.with_mutant, "also sweep this mutant in the main job (to see a failing report)")
        ->check(CLI::IsMember(names.mappings));
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", "flipcheck " + names.version);
    app.footer(std::string(exit_code_table));

    auto* sweep = app.add_subcommand("sweep", "sweep one mapping's laws over every key of a format (or a range of keys)");
    sweep->add_option("--format", out.sweep.format, "a format (see `flipcheck list`)")->required()->check(CLI::IsMember(names.formats));
    sweep->add_option("--mapping", out.sweep.mapping, "a built-in mapping or a mutant (see `flipcheck list`)")->required()->check(CLI::IsMember(names.mappings));
    sweep->add_option("--laws", out.sweep.laws, "laws to check (default: all)")->delimiter(',');
    sweep->add_option("--device", out.sweep.device, "cpu, gpu or auto")->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    sweep->add_option("--shard", out.sweep.shard, "i/n: check only the i-th of n equal slices of the keys; auto: i and n from "
                                                  "the job engine (Slurm, Kubernetes, AWS Batch; docs/scale-out.md)");
    sweep->add_option("--manifest", out.sweep.manifest, "DIR: also write this shard's result as a manifest in DIR, for `flipcheck merge`");
    sweep->add_option("--checkpoint", out.sweep.checkpoint, "FILE to resume from and save progress to");
    sweep->add_option("--checkpoint-every", out.sweep.checkpoint_every, "seconds between checkpoint saves (default 1)")
        ->check(seconds_check);
    sweep->add_flag("--all", out.sweep.all, "run to the end instead of stopping after --limit counterexamples");
    add_number(sweep, "--limit", out.sweep.limit, 1, 1 << 20, "stop after this many counterexamples (default 16)");
    sweep->add_option("--json", out.sweep.json, "also write the report as JSON to FILE");
    auto* key_opt = sweep->add_option("--key", out.sweep.key, "check just this key (decimal or 0x-hex)");
    auto* keys_opt = sweep->add_option("--keys", out.sweep.keys, "BEGIN:END: check keys in [BEGIN, END)");
    key_opt->excludes(keys_opt);
    key_opt->excludes(sweep->get_option("--shard"));
    add_number(sweep, "--threads", out.sweep.threads, 1, 1024, "CPU threads (default: all)");
    sweep->add_flag("--cross-check", out.sweep.cross_check, "sweep on both GPU and CPU first; counts and first counterexamples must agree");
    auto* pairs = app.add_subcommand("pairs", "every pair of a format's codes through the max/min step built on a mapping: "
                                              "decode(max(encode(a), encode(b))) against totalOrder (2^64 pairs for binary32)");
    pairs->add_option("--format", out.pairs.format, "a format of 32 bits or fewer (see `flipcheck list`)")->required()->check(CLI::IsMember(names.formats));
    pairs->add_option("--mapping", out.pairs.mapping, "a built-in mapping or a mutant (see `flipcheck list`)")->required()->check(CLI::IsMember(names.mappings));
    pairs->add_option("--op", out.pairs.op, "max or min (default max)")->check(CLI::IsMember({"max", "min"}));
    pairs->add_option("--device", out.pairs.device, "cpu, gpu or auto")->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    pairs->add_option("--rows", out.pairs.rows, "BEGIN:END: only the pairs whose first operand a is in [BEGIN, END) (a row: one a, every b)");
    pairs->add_option("--shard", out.pairs.shard, "i/n: only the i-th of n equal slices of the rows; auto: from the job engine");
    pairs->add_option("--manifest", out.pairs.manifest, "DIR: also write this shard's result as a manifest in DIR, for `flipcheck merge`");
    pairs->add_flag("--all", out.pairs.all, "check every row instead of stopping after --limit failing rows");
    add_number(pairs, "--limit", out.pairs.limit, 1, 1 << 20, "failing rows to show (their smallest failing b) before stopping (default 16)");
    add_number(pairs, "--threads", out.pairs.threads, 1, 1024, "CPU threads (default: all)");
    pairs->add_option("--json", out.pairs.json, "also write the report as JSON to FILE");

    auto* merge = app.add_subcommand("merge", "merge the manifests of a sharded run: check they come from one build and subject and "
                                              "tile the space, sum them, and state the verdict and coverage");
    merge->add_option("DIR", out.merge.dir, "the folder the shards wrote their manifests in (--manifest DIR)")->required();
    merge->add_option("--json", out.merge.json, "also write the merged result as JSON to FILE");

    auto* plan = app.add_subcommand("plan", "write a sharded sweep or pair check's job files for Slurm (an sbatch array and a merge "
                                            "that waits for it) or Kubernetes (an Indexed Job and a merge Job), with its projected cost");
    plan->add_option("--engine", out.plan.engine, "slurm or k8s")->required()->check(CLI::IsMember({"slurm", "k8s"}));
    add_number(plan, "--shards", out.plan.shards, 1, 1 << 20, "how many shards (array tasks, completions)")->required();
    plan->add_option("--manifest", out.plan.manifest, "DIR the shards write their manifests in: a folder every node sees")->required();
    plan->add_option("--workload", out.plan.workload, "sweep (a mapping's laws over keys) or pairs (the max/min step over pairs)")
        ->check(CLI::IsMember({"sweep", "pairs"}));
    plan->add_option("--format", out.plan.format, "a format")->required()->check(CLI::IsMember(names.formats));
    plan->add_option("--mapping", out.plan.mapping, "a built-in mapping or a mutant")->required()->check(CLI::IsMember(names.mappings));
    plan->add_option("--laws", out.plan.laws, "sweep: laws to check (default: all)")->delimiter(',');
    plan->add_option("--op", out.plan.op, "pairs: max or min (default max)")->check(CLI::IsMember({"max", "min"}));
    plan->add_option("--keys", out.plan.keys, "sweep: BEGIN:END, the keys to cut into shards (default every key; binary64 needs it)");
    plan->add_option("--rows", out.plan.rows, "pairs: BEGIN:END, the first operands to cut into shards (default every code)");
    plan->add_option("--device", out.plan.device, "where each shard runs: cpu or gpu (default cpu)")->check(CLI::IsMember({"cpu", "gpu"}));
    plan->add_option("--out", out.plan.out, "folder for the job files (default: the --manifest folder)");
    plan->add_option("--rate", out.plan.rate, "keys (sweep) or pairs per second per task, instead of measuring it here")
        ->check(real_in(1, 1e18, "keys or pairs per second"));
    plan->add_option("--price", out.plan.price, "price of one task-hour (a GPU or a --cpus-per-task slot), for the projected cost")
        ->check(real_in(0, 1e9, "a price"));
    add_number(plan, "--cpus-per-task", out.plan.cpus_per_task, 1, 1024, "CPU threads of each task (default 1)");
    plan->add_option("--partition", out.plan.partition, "slurm: the partition to submit to (default: the cluster's default)");
    plan->add_option("--image", out.plan.image, "k8s: the container image that has flipcheck on its PATH (default flipcheck:latest)");
    plan->add_option("--pvc", out.plan.pvc, "k8s: the PersistentVolumeClaim mounted at the --manifest folder (default flipcheck-results)");
    plan->add_option("--flipcheck", out.plan.flipcheck, "slurm: the flipcheck the nodes run (default: this one's absolute path)");

    auto* list = app.add_subcommand("list", "show the formats, mappings, mutants, laws and policies");
    bool no_default_adapters = false;
    auto* audit = app.add_subcommand("audit", "what third-party reducers and sorts (std, Thrust, CUB, frameworks) really do on edge inputs");
    audit->add_option("--device", out.audit_device, "cpu, gpu or auto")->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    audit->add_option("--json", out.audit_json, "also write the audit as JSON to FILE");
    add_number(audit, "--randoms", out.audit.randoms, 0, 100000000, "random arrays per subject, beside the fixed battery (default 2000)");
    audit->add_flag("--markdown", out.audit.markdown, "print this device's section of docs/audit.md");
    audit->add_flag("--quick", out.audit.quick, "sample the strong_order claim (2^22 pairs) instead of every pair; with --conversions, the sampled domain instead of every binary32 input; frameworks' witnesses shrink for a quarter of the time; sorts run on arrays of up to 5000 elements, not 300000");
    audit->add_flag("--conversions", out.audit.conversions, "the conversion table: what binary32 -> fp8/fp6/fp4/binary16/bfloat16 conversions (NumPy; with --device gpu CUDA, PyTorch, JAX, ml_dtypes, Triton, flipcheck's own) do on every binary32 input");
    audit->add_flag("--shaders", out.audit.shaders, "also the shader rows, through Vulkan: the driver's max()/min() and seed 001's listing");
    audit->add_flag("--shaders-only", out.audit.shaders_only, "only the shader rows");
    audit->add_flag("--frameworks-only", out.audit.frameworks_only, "only the frameworks' rows, through the adapters (docs/audit.md's per-machine section)");
    audit->add_option("--adapter", out.audit.adapters, "also a framework through this adapter command (run as CMD CASES ANSWERS; adapters/README.md)");
    audit->add_flag("--no-default-adapters", no_default_adapters, "leave out the repo's adapters (NumPy; with --device gpu PyTorch, JAX, CuPy, Triton)");
    audit->add_option("--subject", out.audit.subject, "replay: run this one subject (its name as the audit prints it)");
    audit->add_option("--case", out.audit.case_name, "replay: on this battery input (its name as the audit prints it)");
    audit->add_option("--input", out.audit.input, "replay: on these bits, comma-separated hex (0xff800000,0xff800000)");
    auto* mutants = app.add_subcommand("mutants", "run the mutant zoo: every known-wrong subject must be killed");
    mutants->add_option("--device", out.mutants_device, "cpu, gpu or auto")->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    mutants->add_option("--json", out.mutants_json, "also write the kill table as JSON to FILE");
    mutants->add_flag("--markdown", out.markdown, "print the kill table as Markdown (for docs/mutants.md)");

    auto* codes = app.add_subcommand("codes", "print every code of a format of 16 bits or fewer: the value and class the oracle decodes it to");
    codes->add_option("--format", out.codes_format, "a format (see `flipcheck list`)")->required()->check(CLI::IsMember(names.formats));
    codes->add_option("--json", out.codes_json, "also write the table as JSON to FILE");

    auto* check = app.add_subcommand("check", "check your own code: a shared library made with FLIPCHECK_EXPORT_SUBJECTS (--plugin), "
                                              "a compute shader through Vulkan (--shader), or a Python function through an "
                                              "adapter (--adapter)");
    check->add_option("--plugin", out.check.plugin, "the shared library (FILE.so)");
    check->add_option("--shader", out.check.shader, "an HLSL (.hlsl) or GLSL (.comp, .glsl) compute shader under flipcheck's convention (docs/shaders.md)");
    check->add_option("--entry", out.check.entry, "the shader's entry point (default main)");
    check->add_option("--op", out.check.op, "a reducer shader: max or min");
    check->add_option("--adapter", out.check.adapter, "a Python function through an adapter (run as CMD --serve; adapters/README.md): "
                                                 "its value, arg and amax subjects, against the policy each declares");
    check->add_flag("--adapter-stdio", out.check.adapter_stdio, "the adapter is the process that started flipcheck: requests on standard "
                                                          "output, answers on standard input, the report on standard error "
                                                          "(adapters/flipcheck_pytest.py)");
    check->add_option("--policy", out.check.policy, "a reducer shader's declared policy, e.g. nan=propagate,zero=ordered,ties=lowest_index; "
                                               "for an adapter's subjects, the fields it names replace theirs (zero=equal)");
    check->add_option("--workgroup", out.check.workgroup, "a reducer shader: all (each size it takes) or one size");
    check->add_option("--define", out.check.defines, "a shader: NAME[=VALUE] for its preprocessor (repeatable)");
    check->add_option("--lang", out.check.lang, "a shader: hlsl or glsl (default: from the file's name)");
    check->add_flag("--mapping", out.check.mapping, "a shader that defines flipcheck_encode/flipcheck_decode: sweep its binary32 keys");
    check->add_option("--keys", out.check.keys, "a shader mapping: BEGIN:END, whole multiples of 0x4000 (default all 2^32)");
    check->add_option("--subject", out.check.subject, "only this subject (default: every one the library exports)");
    check->add_option("--format", out.check.format, "require the subjects to be of this format")->check(CLI::IsMember(names.formats));
    check->add_option("--device", out.check.device, "cpu or auto (subjects run on the host; see --help of the README)")
        ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
    check->add_option("--key", out.check.key, "a mapping: check every law at this key only");
    check->add_option("--case", out.check.case_file, "a reducer: check only the case in FILE (as a failure prints it)");
    check->add_flag("--all", out.check.all, "a mapping: find every failing key instead of stopping at the first failing chunk");
    check->add_flag("--every-input", out.check.every_input, "a quantizer, scale or canonical key of binary32: every one of its "
                                                         "2^31 or 2^32 inputs (one core: 1-2 minutes), not the sample; a scaled "
                                                         "quantizer of bfloat16 or binary16: every input under every e8m0 scale");
    check->add_option("--rounding", out.check.rounding, "a scale, quantizer or amax: the rounding mode (fesetround) its calls run in: "
                                                     "to_nearest (default), upward, downward, toward_zero, or any: each of the four, "
                                                     "for code that claims to be right whatever its caller set (the oracle always "
                                                     "judges to nearest; docs/environment.md)")
        ->check(CLI::IsMember({"to_nearest", "upward", "downward", "toward_zero", "any"}));
    check->add_option("--cpu-targets", out.check.cpu_targets, "a plug-in that dispatches through Highway (linked with libhwy.so): "
                                                          "check each subject on these SIMD targets, one after another: all (each "
                                                          "one this CPU supports) or names such as AVX2,SSE4,EMU128; each row names "
                                                          "its target, and a verdict that differs between targets is reported");
    add_number(check, "--seed", out.check.seed, 0, std::numeric_limits<std::uint64_t>::max(), "seed of the random stages (default 1)");
    add_number(check, "--cases", out.check.cases, 1, 100000000, "random arrays per reducer (default 2000)");
    check->add_option("--json", out.check.json, "also write the verdicts as JSON to FILE");
    check->add_option("--timeout", out.check.timeout, "seconds one call into a subject may take before it counts as hung (default 60; "
                                               "a mapping's whole sweep is one call)")
        ->check(seconds_check);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "flipcheck: {}\nRun `flipcheck --help` or `flipcheck list` for the valid choices.\n", shorten_values(e.what(), argc, argv));
        return 2;
    }
    if (const std::string empty = empty_value(app); !empty.empty()) {
        fmt::print(stderr, "flipcheck: {} was given an empty value\n", empty);
        return 2;
    }
    out.audit.default_adapters = !no_default_adapters;
    using command = arguments::command;
    out.what = *sweep ? command::sweep : *pairs ? command::pairs : *merge ? command::merge : *plan ? command::plan : *check ? command::check : *list ? command::list : *codes ? command::codes
             : *audit ? command::audit : *mutants ? command::mutants : command::main_job;
    return -1;
}

}  // namespace flipcheck::cli
