// `flipcheck check --adapter CMD` (and `--adapter-stdio`, what adapters/flipcheck_pytest.py
// starts): a user's Python function, served by an adapter process (served_adapter.hpp), judged
// against the policy it declares by the same checker as a plug-in's subject: the reducer stages
// and shrinking of check/reducers.hpp, or the amax judge of check/scaling.hpp, with --case replay.
#include "check.hpp"

#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exit_code.hpp"
#include "output.hpp"
#include "render.hpp"
#include "progress.hpp"
#include "stop.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/run/audit_subjects.hpp"
#include "flipcheck/run/machine.hpp"
#include "flipcheck/run/served_adapter.hpp"
#include "flipcheck/run/shell_quote.hpp"

namespace flipcheck::cli {
namespace {

using run::served_adapter;
using word = std::uint64_t;

// A subject that raised on an input it must answer, or whose adapter stopped answering: a FAIL on
// that input (the check cannot go on), not bad input.
struct subject_broke {
    std::string what;
    std::optional<std::vector<word>> input;  // none: not known (a request of many arrays that could not be split)
};

// The longest array sent to an adapter by the large-arrays stage: past the 65536 boundary the
// stage places its special elements at, a tenth of a plug-in's 2^20 (the text of each array goes
// through a pipe and a JSON parser).
constexpr std::size_t adapter_large_length = std::size_t(1) << 17;

struct adapter_check {
    const check_args& a;
    served_adapter& adapter;
    const served_adapter::subject& s;
    policy declared;

    std::string replay_line(const std::string& file) const {
        if (a.adapter_stdio) return fmt::format("flipcheck_pytest.check(..., case={})", nlohmann::json(file).dump());
        return fmt::format("flipcheck check --adapter {} --subject {}{} --case {}", run::shell_quote(a.adapter), run::shell_quote(s.name),
                           a.policy.empty() ? "" : " --policy " + run::shell_quote(a.policy), run::shell_quote(file));
    }

    // Writes NAME.case and prints its replay (the caller has printed the case's text, so nothing
    // is lost if the file cannot be written).
    void print_replay(const std::string& text) const {
        const std::string file = s.name + ".case";
        try {
            write_atomically("the case file " + file, file, text + "\n");
            fmt::print("  repro: {}\n", replay_line(file));
        } catch (const input_error& e) {
            fmt::print("  ({}; put the case into a file and pass it with --case)\n", e.what());
        }
    }

    // The answers for many inputs, one request; a raised error is no answer on an empty input (as
    // n = 0 must be) and a failure on any other.
    std::vector<std::optional<word>> answers(const std::vector<std::vector<word>>& inputs) const {
        if (stop) throw subject_broke{"interrupted", std::nullopt};  // Ctrl-C or SIGTERM: the next request is not sent
        std::vector<served_adapter::answer> got;
        try {
            got = adapter.ask(s, inputs);
        } catch (const run::adapter_stopped& e) {
            if (inputs.size() == 1) throw subject_broke{e.what(), inputs[0]};
            if (stop) throw subject_broke{e.what(), std::nullopt};
            if (!adapter.restartable())
                throw subject_broke{fmt::format("{}, while answering {} arrays at once (which one broke it is not known: "
                                                "an adapter that started flipcheck cannot be restarted to ask them one at a time)",
                                                e.what(), inputs.size()),
                                    std::nullopt};
            // Which array broke it: each asked alone, from a fresh start, until one does.
            adapter.restart();
            for (const auto& in : inputs) answers({in});
            throw subject_broke{fmt::format("{}, while answering {} arrays at once, and not when asked each alone", e.what(), inputs.size()),
                                std::nullopt};
        }
        std::vector<std::optional<word>> out;
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (!got[i].error.empty() && !inputs[i].empty())
                throw subject_broke{fmt::format("{} raised {}", s.name, got[i].error), inputs[i]};
            out.push_back(got[i].value);
        }
        return out;
    }
    template <class S>
    static std::vector<word> words(std::span<const S> xs) {
        return {xs.begin(), xs.end()};
    }

    template <format F>
    bool reducer(nlohmann::json& row) const {
        using S = typename F::storage;
        reducer_subject<F> subject;
        subject.name = s.name;
        subject.op = s.op == "min" ? reduce_op::min : reduce_op::max;
        subject.declared = declared;
        subject.arg = s.kind == "arg";
        subject.run = [this](std::span<const S> xs, std::span<const std::size_t>) { return answers({words(xs)}).at(0); };
        subject.run_batch = [this](const std::vector<std::vector<S>>& batch) {
            std::vector<std::vector<word>> in;
            for (const auto& xs : batch) in.push_back(words(std::span<const S>(xs)));
            return answers(in);
        };
        check_report r;
        if (!a.case_file.empty()) {
            const auto [xs, order] = parse_case<F>(read_text("--case", a.case_file));
            r = check_case(subject, xs, order);
        } else {
            check_options o;
            o.seed = a.seed;
            o.random_cases = a.cases;
            o.large_length = adapter_large_length;
            r = check(subject, o);
        }
        fmt::print("{}\n", r.text());
        row["declared"] = to_string(r.declared, r.arg);
        row["cases"] = r.cases();
        if (r.failure) {
            row["case"] = r.failure->replay;
            row["stage"] = to_string(r.failure->stage);
            row["explanation"] = r.failure->explanation;
            if (a.case_file.empty()) print_replay(r.failure->replay);
        }
        return r.passed();
    }

    // An amax (max |x|, in the format): every case asked in one request first, then the judge
    // (and its shrinking) looks answers up, asking one at a time only for arrays it makes.
    template <format F>
    bool amax(nlohmann::json& row) const {
        using S = typename F::storage;
        scaling_report r{s.name, "amax", std::string(F::name) + " nan=" + std::string(to_string(declared.nan)), "", false, 0, {}};
        if (declared.nan == nan_policy::total_order) throw input_error(s.name + " declares nan=total_order, which means nothing for magnitudes: "
                                                                        "declare propagate, ignore or undefined");
        if constexpr (amax_format<F>) {
            scaling_options o;
            o.seed = a.seed;
            o.randoms = a.cases;
            std::vector<std::vector<S>> cases;
            if (a.case_file.empty()) {
                cases = amax_cases<F>(o);
                r.domain = "edge battery (every value, every ordered pair, triples of 10) + " + std::to_string(o.randoms) +
                           " random arrays (sampled)";
            } else {
                cases.push_back(parse_case<F>(read_text("--case", a.case_file)).first);
                r.domain = "the given case";
            }
            std::map<std::vector<word>, std::optional<word>> known;
            {
                std::vector<std::vector<word>> in;
                for (const auto& xs : cases) in.push_back(words(std::span<const S>(xs)));
                const auto got = answers(in);
                for (std::size_t i = 0; i < in.size(); ++i) known.emplace(in[i], got[i]);
            }
            judge_amax<F>(r, declared.nan, cases, [&](std::span<const S> xs) {
                auto in = words(xs);
                auto it = known.find(in);
                if (it == known.end()) it = known.emplace(in, answers({in}).at(0)).first;
                if (!it->second) throw subject_broke{s.name + " answered nothing (an amax answers every input, +0 for none)", in};
                return S(*it->second);
            });
        }
        fmt::print("{} (amax, {}): {} after {} arrays, {}\n", s.name, r.claim, r.passed() ? "pass" : "FAIL", r.checks, r.domain);
        row["declared"] = r.claim;
        row["cases"] = r.checks;
        row["domain"] = r.domain;
        if (!r.passed()) {
            fmt::print("  {}\n", *r.counterexample);
            row["counterexample"] = *r.counterexample;
            row["case"] = r.replay;
            fmt::print("  case: {}\n", r.replay);
            if (a.case_file.empty()) print_replay(r.replay);
        }
        return r.passed();
    }

    // The subject's verdict; a subject that broke is a FAIL on the input it broke on.
    bool judge(nlohmann::json& row) const {
        bool passed = false;
        run::with_audit_format(s.format, [&]<class F>() {
            try {
                passed = s.kind == "amax" ? amax<F>(row) : reducer<F>(row);
            } catch (const subject_broke& e) {
                using S = typename F::storage;
                if (stop) return;  // interrupted: not a verdict on the subject
                fmt::print("{} ({} {} {}): FAIL: {}\n", s.name, F::name, s.op, s.kind, e.what);
                row["outcome"] = e.what;
                if (!e.input) return;
                const std::vector<S> xs(e.input->begin(), e.input->end());
                const std::string text = format_case<F>(std::span<const S>(xs), {});
                row["case"] = text;
                fmt::print("  case: {}\n", text);
                if (a.case_file.empty()) print_replay(text);
            }
        });
        return passed;
    }
};

void refuse_other_options(const check_args& a) {
    if (!a.plugin.empty() || !a.shader.empty()) throw input_error("--adapter checks an adapter's subjects: leave out --plugin and --shader");
    if (!a.adapter.empty() && a.adapter_stdio) throw input_error("give --adapter CMD or --adapter-stdio, not both");
    if (!a.key.empty() || a.all || a.every_input) throw input_error("--key, --all and --every-input are for a plug-in's mappings and quantizers");
    if (!a.cpu_targets.empty() || a.rounding != "to_nearest")
        throw input_error("--cpu-targets and --rounding are for a plug-in (--plugin): an adapter's function runs in its own process");
    if (!a.op.empty() || !a.keys.empty() || !a.lang.empty() || a.mapping || !a.defines.empty())
        throw input_error("--op, --keys, --lang, --mapping and --define are for --shader");
    if (a.device != "auto") throw input_error("--device is not for --adapter: the adapter's function runs where its code puts it");
}

}  // namespace

int run_adapter_check(const check_args& a) {
    refuse_other_options(a);
    // --policy changes the fields it names of what a subject declares (the others stay as declared);
    // a subject that declares nothing takes it whole, so it must then say nan=.
    if (!a.policy.empty()) parse_policy(a.policy, "--policy", policy{});  // its words, before anything runs
    if (!a.case_file.empty()) read_text("--case", a.case_file);  // a missing file is bad input before anything runs
    std::unique_ptr<served_adapter> adapter;
    if (a.adapter_stdio) {
        // Standard output carries the requests; the report goes to standard error.
        const int requests = ::dup(STDOUT_FILENO);
        if (requests < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) throw input_error("--adapter-stdio: cannot set up standard output");
        adapter = std::make_unique<served_adapter>(STDIN_FILENO, requests, a.timeout);
    } else {
        adapter = std::make_unique<served_adapter>(a.adapter, a.timeout);
    }
    fmt::print("{} {}, through the adapter\n", adapter->framework(), adapter->version());
    run::note_library(adapter->framework(), adapter->version());

    // Which subjects, under which policy: everything is settled before anything runs.
    std::vector<std::pair<const served_adapter::subject*, policy>> chosen;
    std::vector<std::string> names;
    for (const auto& s : adapter->subjects()) {
        names.push_back(s.name);
        if (!a.subject.empty() && s.name != a.subject) continue;
        if (!a.format.empty() && s.format != a.format) {
            if (!a.subject.empty()) throw input_error(fmt::format("subject {} is of format {}, not {}", s.name, s.format, a.format));
            continue;
        }
        const auto& formats = run::audit_formats();
        if (std::find(formats.begin(), formats.end(), s.format) == formats.end())
            throw input_error(fmt::format("subject {}: format must be one of binary16, bfloat16, binary32, binary64, not {}", s.name, s.format));
        std::string why_not;
        if (s.kind == "sort") why_not = "a sort (flipcheck audit judges sorts)";
        else if (a.policy.empty() && !s.declares) why_not = "it declares no policy (add \"declares\" to its entry, or pass --policy)";
        if (why_not.empty()) {
            chosen.emplace_back(&s, a.policy.empty() ? *s.declares : parse_policy(a.policy, "--policy", s.declares));
        } else if (!a.subject.empty()) {
            throw input_error(fmt::format("subject {} cannot be checked: {}", s.name, why_not));
        } else {
            fmt::print("{}: not checked: {}\n", s.name, why_not);
        }
    }
    if (!a.subject.empty() && chosen.empty())
        throw input_error(fmt::format("the adapter lists no subject named {} (it lists: {})", a.subject, names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
    if (chosen.empty()) throw input_error("the adapter lists no subject that can be checked");

    const json_file out("--json", a.json);
    nlohmann::json rows = nlohmann::json::array();
    int failed = 0;
    std::atomic<int> checked = 0;
    {
        heartbeat::options h;
        h.how_far = [&] { return work_done{std::uint64_t(checked.load()), chosen.size()}; };
        h.unit = "subjects";
        h.capture_stdout = !a.adapter_stdio;  // (--adapter-stdio: stdout carries the requests)
        const heartbeat beat("the adapter's subjects", std::move(h));
        for (const auto& [s, declared] : chosen) {
            if (stop) break;
            nlohmann::json row{{"subject", s->name}, {"kind", s->kind}, {"op", s->op}, {"format", s->format}};
            const bool passed = adapter_check{a, *adapter, *s, declared}.judge(row);
            if (stop) break;
            row["verdict"] = passed ? "pass" : "fail";
            rows.push_back(row);
            ++checked;
            failed += !passed;
            std::fflush(stdout);
        }
    }
    const bool stopped = stop.load();
    const std::string verdict = stopped ? "interrupted" : failed ? "fail" : "pass";
    print_verdict_line(tally_verdict("subject", std::size_t(failed), std::size_t(checked.load()), chosen.size(), stopped));
    out.write(verdict, {{"adapter", a.adapter_stdio ? "--adapter-stdio" : a.adapter},
                        {"framework", adapter->framework()},
                        {"version", adapter->version()},
                        {"subjects", rows}});
    if (stopped) return exit_for_stop();
    return failed ? exit_fail : exit_pass;
}

}  // namespace flipcheck::cli
