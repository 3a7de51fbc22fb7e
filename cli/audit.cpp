// `flipcheck audit`: what third-party reducers and sorts really do on edge inputs, shown. The
// subjects come from flipcheck::run (the CPU's: run/audit_subjects.hpp; the GPU's: gpu_backend.hpp;
// the frameworks': run/adapter.hpp) and from shader.cpp; each row answers the user's questions in
// order (core's audit/audit.hpp), every "no" with the smallest input that shows it and the command
// that replays it, in text, JSON or Markdown.
#include "audit.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <compare>
#include <cstring>
#include <ctime>
#include <fstream>
#include <ranges>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/run/machine.hpp"
#include "flipcheck/run/adapter.hpp"
#include "flipcheck/run/audit_subjects.hpp"
#include "flipcheck/run/claims.hpp"
#include "flipcheck/run/p3008_rows.hpp"
#include "flipcheck/atomic.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/mapping.hpp"
#include "render.hpp"
#include "flipcheck/run/shell_quote.hpp"
#include "flipcheck/run/gpu_backend.hpp"  // CUB, Thrust device, CUDA's fmaxf, the device's NaNs


namespace flipcheck::cli {

using namespace flipcheck::run;

namespace {

using audit::answer;
using audit::input;
using audit::word;


// Up to 8 elements by value, then their bits (the bits are the witness: which NaN, which zero); up
// to 64 by their bits alone.
std::string render_input(const std::string& format, const input& xs) {
    if (xs.size() > 64) return fmt::format("[{} elements]", xs.size());
    if (xs.size() > 8) {
        std::string bits = fmt::format("[{} elements:", xs.size());
        for (word x : xs) bits += " " + describe(format, x).hex;
        return bits + "]";
    }
    std::string in = "[", bits = " (";
    for (std::size_t i = 0; i < xs.size(); ++i) {
        in += (i ? ", " : "") + describe(format, xs[i]).value;
        bits += (i ? " " : "") + describe(format, xs[i]).hex;
    }
    return in + "]" + (xs.empty() ? "" : bits + ")");
}
template <class Observation>
std::string named(const Observation& o) {
    return o.shrunk_from ? fmt::format("{}, shrunk from {} elements", o.what, o.shrunk_from) : o.what;
}
std::string render_answer(const audit_subject& s, const input& xs, const answer& got) {
    if (!got) return "nothing";
    if (s.arg) return fmt::format("index {} ({})", *got, *got < xs.size() ? describe(s.format, xs[*got]).hex : "out of range");
    return fmt::format("{} = {}", describe(s.format, *got).hex, describe(s.format, *got).value);
}
std::string render(const audit_subject& s, const audit::observation& o) {
    return fmt::format("{}: {} -> {}", named(o), render_input(s.format, o.xs), render_answer(s, o.xs, o.got));
}
std::string render(const audit::sort_subject& s, const audit::sort_observation& o) {
    return fmt::format("{}: {} -> {}", named(o), render_input(s.format, o.xs), o.got ? render_input(s.format, *o.got) : "not run");
}
// The command that runs one subject on a witness again: the battery's case by name, a shrunk one by its bits.
template <class Subject, class Observation>
std::string replay(const Subject& s, const Observation& o) {
    std::string input;
    for (std::size_t i = 0; i < o.xs.size(); ++i) input += (i ? "," : "") + describe(s.format, o.xs[i]).hex;
    return fmt::format("flipcheck audit --subject {} {}{}", shell_quote(s.name),
                       o.shrunk_from ? "--input " + input : "--case " + shell_quote(o.what), s.replay_options.empty() ? "" : " " + s.replay_options);
}

// One question's line: the answer, and for each answer it is not, the smallest input that shows it.
template <class Subject, class Question>
nlohmann::json report_question(std::vector<std::string>& lines, const Subject& s, const std::string& label, const Question& q) {
    lines.push_back(fmt::format("  {:<13} {}", label, q.answer));
    nlohmann::json rejected = nlohmann::json::array();
    for (const auto& [name, o] : q.rejected) {
        lines.push_back(fmt::format("      not {}: {}", name, render(s, o)));
        lines.push_back(fmt::format("        replay: {}", replay(s, o)));
        rejected.push_back({{"answer", name}, {"evidence", render(s, o)}, {"replay", replay(s, o)}});
    }
    return {{"answer", q.answer}, {"rejected", rejected}};
}

struct row_report {
    std::vector<std::string> lines;  // the text under the heading
    std::string summary;             // the table's cells, | separated
    nlohmann::json json;
};

row_report report(const audit_subject& s, const audit::report& v) {
    row_report r;
    auto& L = r.lines;
    nlohmann::json j{{"subject", s.name}, {"library", s.library}, {"format", s.format}, {"op", to_string(s.op)},
                     {"kind", s.arg ? "arg" : "value"}};
    if (v.without_nan) L.push_back(fmt::format("  {:<13} yes", "without NaN"));
    else {
        L.push_back(fmt::format("  {:<13} NO: {}", "without NaN", render(s, *v.without_nan_witness)));
        L.push_back(fmt::format("        replay: {}", replay(s, *v.without_nan_witness)));
    }
    j["without_nan"] = v.without_nan;
    j["without_nan_witness"] = v.without_nan ? nlohmann::json(nullptr)
                                             : nlohmann::json{{"evidence", render(s, *v.without_nan_witness)},
                                                              {"replay", replay(s, *v.without_nan_witness)}};
    j["nan_policy"] = report_question(L, s, "NaN", v.nan);
    j["zero_policy"] = report_question(L, s, "zeros", v.zero);
    if (s.arg) j["tie_policy"] = report_question(L, s, "ties", v.ties);
    else j["tie_policy"] = nullptr;
    const std::string empty = s.empty_note.empty() ? (v.empty.got ? "gives " + render_answer(s, {}, v.empty.got) : "gives nothing")
                                                   : s.empty_note;
    L.push_back(fmt::format("  {:<13} {}", "n = 0", empty));
    j["empty"] = empty;
    L.push_back(fmt::format("  {:<13} {}", "named policy", v.policy));
    if (v.policy.rfind("none", 0) == 0)  // why no named policy fits: each one's smallest counterexample
        for (const auto& [name, o] : v.rejected) L.push_back(fmt::format("      not {}: {}", name, render(s, o)));
    j["named_policy"] = v.policy;
    if (v.skipped) L.push_back(fmt::format("  {:<13} {} inputs the framework cannot take: {}", "not run on", v.skipped, s.skip_reason));
    j["not_run"] = v.skipped;
    j["position_dependent"] = v.position_dependent;
    nlohmann::json evidence = nlohmann::json::array(), provenance = nlohmann::json::array();
    for (const auto& o : v.proof) {
        L.push_back("    " + render(s, o));
        evidence.push_back(render(s, o));
    }
    for (const auto& o : v.provenance) {
        L.push_back("    made NaN: " + render(s, o));
        provenance.push_back(render(s, o));
    }
    j["evidence"] = evidence;
    j["made_nans"] = provenance;
    const auto starred = [](const std::string& answer, bool rejected) { return rejected ? answer + "*" : answer; };
    r.summary = fmt::format("{} | {} | {} | {} | {} | {} | {}", v.without_nan ? "yes" : "**no**", starred(v.nan.answer, !v.nan.rejected.empty()),
                            starred(v.zero.answer, !v.zero.rejected.empty()), s.arg ? starred(v.ties.answer, !v.ties.rejected.empty()) : "-",
                            empty, v.position_dependent ? "yes" : "no", v.policy);
    r.json = j;
    return r;
}

row_report report(const audit::sort_subject& s, const audit::sort_report& v) {
    row_report r;
    auto& L = r.lines;
    nlohmann::json j{{"subject", s.name}, {"library", s.library}, {"format", s.format}, {"kind", "sort"}};
    if (v.without_nan) L.push_back(fmt::format("  {:<13} yes", "without NaN"));
    else {
        L.push_back(fmt::format("  {:<13} NO: {}", "without NaN", render(s, *v.without_nan_witness)));
        L.push_back(fmt::format("        replay: {}", replay(s, *v.without_nan_witness)));
    }
    j["without_nan"] = v.without_nan;
    j["without_nan_witness"] = v.without_nan ? nlohmann::json(nullptr) : nlohmann::json(render(s, *v.without_nan_witness));
    j["nan_order"] = report_question(L, s, "NaN", v.nan);
    j["zero_order"] = report_question(L, s, "zeros", v.zero);
    L.push_back(fmt::format("  {:<13} {}", "named order", v.order));
    j["named_order"] = v.order;
    nlohmann::json evidence = nlohmann::json::array();
    for (const auto& o : v.proof) {
        L.push_back("    " + render(s, o));
        evidence.push_back(render(s, o));
    }
    j["evidence"] = evidence;
    r.summary = fmt::format("{} | {} | {} | {}", v.without_nan ? "yes" : "**no**", v.nan.answer, v.zero.answer, v.order);
    r.json = j;
    return r;
}

}  // namespace

// The host CPU and the widest SIMD it offers: a framework that picks its code path at run time
// (NumPy's sorts) can answer differently on another machine, so each section says where it ran.
std::string host_cpu() {
    std::string model = "unknown model";
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            model = line.substr(line.find(':') + 1);
            model.erase(0, model.find_first_not_of(' '));
            break;
        }
    std::string simd = "baseline";
#if defined(__x86_64__) || defined(__i386__)
    simd = __builtin_cpu_supports("avx512f") ? "AVX-512" : __builtin_cpu_supports("avx2") ? "AVX2" : "SSE2";
#endif
    return fmt::format("host CPU: {} (SIMD: {})", model, simd);
}

namespace {

std::vector<std::string> versions(backend b) {
    std::vector<std::string> v{host_cpu(), fmt::format("compiler: {}", __VERSION__)};
#if defined(_GLIBCXX_RELEASE)
    v.push_back(fmt::format("libstdc++: release {} ({})", _GLIBCXX_RELEASE, __GLIBCXX__));
#endif
    v.push_back(thrust_version());
    v.push_back(eigen_version());
    v.push_back(boost_version());
    const auto nans = made_nans("binary32", b == backend::gpu);
    v.push_back(fmt::format("made NaNs (binary32): x86 0/0 = {} (on this host); CUDA 0/0 = {} ({})", describe("binary32", nans[0].bits).hex,
                            describe("binary32", nans[1].bits).hex,
                            b == backend::gpu ? "on the device" : "as an H100 made it, recorded: no GPU here"));
    if (b == backend::gpu) v.push_back("GPU: " + gpu_backend::cccl_version());
    return v;
}

struct subjects {
    std::vector<audit_subject> reducers;
    std::vector<audit::sort_subject> sorts;
};

// Whether the audit runs flipcheck's own subjects (the reducers and sorts it compiles, P3008, the
// claims, the intrinsics), not only the shaders' or the frameworks' rows.
bool built_ins(const audit_options& o) { return !o.shaders_only && !o.frameworks_only; }

// The CPU's subjects, or the GPU's: each section of docs/audit.md has its own.
subjects collect(backend b, const audit_options& o, std::vector<std::string>& vers, bool cpu_too) {
    subjects s;
    if (built_ins(o)) {
        if (cpu_too || b == backend::cpu) {
            s.reducers = cpu_subjects();
            s.sorts = cpu_sort_subjects();
        }
        if (b == backend::gpu) {
            for (auto& g : gpu_backend::audit_subjects()) s.reducers.push_back(std::move(g));
            for (auto& g : gpu_backend::sort_subjects()) s.sorts.push_back(std::move(g));
        }
    }
    if (o.shaders || o.shaders_only)
        for (auto& r : shader_audit_subjects(vers)) s.reducers.push_back(std::move(r));
    return s;
}

// `--subject NAME --case WHAT | --input BITS`: one subject on one input, and what the oracle says.
int replay_one(const audit_options& o, backend b) {
    std::vector<std::string> vers;
    subjects all = collect(b, o, vers, true);
    const auto named = [&](const auto& s) { return s.name == o.subject; };
    const auto atomics = p3008_subjects(b);
    if (const auto a = std::find_if(atomics.begin(), atomics.end(), named); a != atomics.end()) {
        if (o.input.empty()) throw input_error("--subject: a P3008 subject replays one pair: --input OLD,OPERAND (hex bits)");
        const auto comma = o.input.find(',');
        if (comma == std::string::npos) throw input_error("--input: a P3008 subject takes OLD,OPERAND as two bit patterns (0x-hex)");
        const auto old = parse_number(o.input.substr(0, comma), "--input OLD"),
                   operand = parse_number(o.input.substr(comma + 1), "--input OPERAND");
        fmt::print("{}", replay_p3008(*a, old, operand));
        return 0;
    }
    input given;  // --input's bit patterns
    for (std::size_t pos = 0; !o.input.empty() && pos <= o.input.size();) {
        const auto comma = std::min(o.input.find(',', pos), o.input.size());
        given.push_back(parse_number(o.input.substr(pos, comma - pos), "--input: the bit pattern"));
        pos = comma + 1;
    }
    if (std::none_of(all.reducers.begin(), all.reducers.end(), named) && std::none_of(all.sorts.begin(), all.sorts.end(), named))
        for (const auto& cmd : adapter_commands(o.adapters, o.default_adapters, b)) {  // a framework's subject: ask its adapter again
            auto f = run_adapter(cmd, std::min<std::size_t>(o.randoms, 500), b == backend::gpu, given.empty() ? std::vector<input>{} : std::vector<input>{given});
            for (auto& s : f.reducers) all.reducers.push_back(std::move(s));
            for (auto& s : f.sorts) all.sorts.push_back(std::move(s));
            // The first adapter that has it answers: --adapter's come first, then the repo's.
            if (std::any_of(all.reducers.begin(), all.reducers.end(), named) || std::any_of(all.sorts.begin(), all.sorts.end(), named)) break;
        }
    const auto r = std::find_if(all.reducers.begin(), all.reducers.end(), [&](const auto& s) { return s.name == o.subject; });
    const auto so = std::find_if(all.sorts.begin(), all.sorts.end(), [&](const auto& s) { return s.name == o.subject; });
    if (r == all.reducers.end() && so == all.sorts.end()) {
        std::string names;
        for (const auto& s : all.reducers) names += "\n  " + s.name;
        for (const auto& s : all.sorts) names += "\n  " + s.name;
        for (const auto& s : atomics) names += "\n  " + s.name;
        throw input_error(fmt::format("--subject: no subject '{}' here (--device {}{}); the subjects are:{}", o.subject,
                                      b == backend::gpu ? "gpu" : "cpu", o.shaders ? ", --shaders" : "", names));
    }
    const std::string format = r != all.reducers.end() ? r->format : so->format;
    input xs = given;
    std::string what = o.case_name;
    if (!o.input.empty()) {
        what = "input";
        with_audit_format(format, [&]<class F>() {
            for (word x : xs)
                if (x != word(typename F::storage(x)))
                    throw input_error(fmt::format("--input: 0x{:x} does not fit {} ({} bits), the format of '{}'", x, format, F::width, o.subject));
        });
    } else {
        bool found = false;
        with_audit_format(format, [&]<class F>() {
            auto cases = r != all.reducers.end() ? audit::battery<F>(made_nans(format, b == backend::gpu))
                                                 : audit::sort_battery<F>(made_nans(format, b == backend::gpu));
            if (r != all.reducers.end())
                for (auto& x : audit::random_inputs<F>(std::max<std::size_t>(o.randoms, 1))) cases.push_back(std::move(x));
            for (const auto& c : cases)
                if (c.what == o.case_name || c.what + ", reversed" == o.case_name) {
                    xs = c.xs;
                    if (c.what != o.case_name) std::reverse(xs.begin(), xs.end());
                    found = true;
                }
        });
        if (!found) throw input_error(fmt::format("--case: no case '{}' in the battery (the case names are the ones the audit prints)", o.case_name));
    }
    if (so != all.sorts.end()) {
        const audit::sort_observation ob{what, xs, sort_answer(*so, xs)};
        fmt::print("{} ({}, {}): {}\n", so->name, so->library, format, render(*so, ob));
        return 0;
    }
    const audit::observation ob{what, xs, r->run(xs)};
    fmt::print("{} ({}, {} {}): {}\n", r->name, r->library, format, to_string(r->op), render(*r, ob));
    // What each policy asks for on this input.
    with_audit_format(format, [&]<class F>() {
        using S = typename F::storage;
        const std::vector<S> s(xs.begin(), xs.end());
        for (nan_policy np : {nan_policy::undefined, nan_policy::total_order, nan_policy::propagate, nan_policy::ignore})
            for (zero_policy zp : {zero_policy::ordered, zero_policy::equal}) {
                const policy p{np, zp, tie_policy::lowest_index};
                std::string expect;
                bool ok = false;
                if (r->arg) {
                    const auto e = reducer_laws<F>::expect_arg(p, r->op, s);
                    expect = !e.in_domain ? "anything (a NaN is outside the domain)" : e.index ? fmt::format("index {}", *e.index) : "nothing";
                    ok = !reducer_laws<F>::arg_agreement({np, zp, tie_policy::any}, r->op, s, ob.got ? std::optional<std::size_t>(*ob.got) : std::nullopt);
                } else {
                    const auto e = reducer_laws<F>::expect(p, r->op, s);
                    expect = !e.in_domain ? "anything (a NaN is outside the domain)" : e.value ? render_answer(*r, xs, word(*e.value)) : "nothing";
                    ok = !reducer_laws<F>::agreement(p, s, e, ob.got ? std::optional<S>(S(*ob.got)) : std::nullopt);
                }
                fmt::print("  nan={:<11} zero={:<7}  expects {:<40} {}\n", to_string(np), to_string(zp), expect, ok ? "agrees" : "DIFFERS");
            }
    });
    return 0;
}

}  // namespace

std::string cell(std::string s) {
    for (std::size_t at = 0; (at = s.find('<', at)) != std::string::npos; at += 4) s.replace(at, 1, "&lt;");
    return s;
}

std::string today() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

int run_audit_command(const audit_options& o, backend b, const json_file& json) {
    if (o.conversions) {
        if (!o.subject.empty() || !o.case_name.empty() || !o.input.empty() || o.shaders || o.shaders_only)
            throw input_error("--conversions is an audit of its own: it takes --device, --adapter, --no-default-adapters, --frameworks-only, --quick, --markdown and --json");
        return run_conversion_audit(o, b, json);
    }
    if (!o.subject.empty()) {
        if (o.case_name.empty() == o.input.empty()) throw input_error("--subject needs exactly one of --case NAME or --input BITS,BITS,...");
        return replay_one(o, b);
    }
    if (!o.case_name.empty() || !o.input.empty()) throw input_error("--case and --input replay one subject: name it with --subject");
    if (o.frameworks_only && (o.shaders || o.shaders_only)) throw input_error("--frameworks-only leaves the shader rows out: drop --shaders/--shaders-only");
    if (o.frameworks_only && !o.default_adapters && o.adapters.empty())
        throw input_error("--frameworks-only with --no-default-adapters and no --adapter leaves nothing to audit");
    std::vector<std::string> vers = versions(b);
    // Text shows everything the machine runs; each Markdown section holds only its backend's rows.
    const subjects all = collect(b, o, vers, !o.markdown || b == backend::cpu);
    // --quick: the sorts' arrays up to 5000 elements (the 300000-element ones are most of a
    // framework's answers, and of the time an audit spends reading them).
    const std::size_t largest_sort = o.quick ? 5000 : audit::largest_sort_input;
    std::vector<adapter_result> frameworks;
    if (!o.shaders_only)
        for (const auto& cmd : adapter_commands(o.adapters, o.default_adapters, b))
            frameworks.push_back(run_adapter(cmd, std::min<std::size_t>(o.randoms, 500), b == backend::gpu, {}, largest_sort));
    const bool md = o.markdown;
    const std::string section = std::string(b == backend::gpu ? "GPU" : "CPU") + (o.frameworks_only ? " frameworks" : "");
    if (md) {
        // The heading names the command that prints exactly this section (docs/audit.md's CPU one is
        // without the default adapters: their rows are the "frameworks" section).
        fmt::print("<!-- audit:{}:begin -->\n## {} (`flipcheck audit --markdown --device {}{}{}`, {})\n\n", section, section,
                   b == backend::gpu ? "gpu" : "cpu", o.frameworks_only ? " --frameworks-only" : "",
                   o.default_adapters || o.frameworks_only ? "" : " --no-default-adapters", today());
        for (const auto& v : vers) fmt::print("- {}\n", v);
        for (const auto& f : frameworks) fmt::print("- {}: {}\n", f.framework, f.installed ? f.version : "not installed (" + f.reason + ")");
    } else {
        fmt::print("flipcheck audit: what each reducer and sort really does\n");
        for (const auto& v : vers) fmt::print("  {}\n", v);
    }
    nlohmann::json rows = nlohmann::json::array();
    std::vector<std::pair<std::string, row_report>> reducer_rows, sort_rows;
    // A framework's rows are classified first, then their witnesses shrunk together (an adapter
    // call a round).
    std::vector<std::vector<audit::report>> framework_reports(frameworks.size());
    std::vector<std::vector<audit::sort_report>> framework_sort_reports(frameworks.size());
    for (std::size_t i = 0; i < frameworks.size(); ++i) {
        const auto& f = frameworks[i];
        for (const auto& s : f.reducers) framework_reports[i].push_back(classify(s, f.randoms, b == backend::gpu));
        for (const auto& s : f.sorts) framework_sort_reports[i].push_back(classify(s, b == backend::gpu, std::min<std::size_t>(o.randoms, 300), f.largest_sort));
        // A GPU framework's rounds are slow (the framework starts again, its kernels compile again).
        // --quick asks for a quick audit: a shorter time box, in which the witnesses still shrink
        // most of the way; one cut short keeps the smallest input found so far.
        const double seconds = (b == backend::gpu ? 40 : 60) / (o.quick ? 4.0 : 1.0);
        shrink_witnesses(f, framework_reports[i], framework_sort_reports[i], b == backend::gpu, 12, seconds);
    }
    auto reduce_rows = [&](const std::vector<audit_subject>& list, std::size_t randoms, const std::vector<audit::report>* given) {
        for (std::size_t k = 0; k < list.size(); ++k) {
            const auto& s = list[k];
            auto r = report(s, given ? given->at(k) : classify(s, randoms, b == backend::gpu));
            if (!md) {
                fmt::print("\n{} ({}, {}, {}{})\n", s.name, s.library, s.format, to_string(s.op), s.arg ? ", arg" : "");
                for (const auto& l : r.lines) fmt::print("{}\n", l);
                std::fflush(stdout);
            }
            rows.push_back(r.json);
            reducer_rows.emplace_back(s.name, std::move(r));
        }
    };
    reduce_rows(all.reducers, o.randoms, nullptr);
    for (std::size_t i = 0; i < frameworks.size(); ++i) reduce_rows(frameworks[i].reducers, frameworks[i].randoms, &framework_reports[i]);
    std::vector<std::pair<audit::sort_subject, audit::sort_report>> sort_list;
    for (const auto& s : all.sorts) sort_list.emplace_back(s, classify(s, b == backend::gpu, std::min<std::size_t>(o.randoms, 300), largest_sort));
    for (std::size_t i = 0; i < frameworks.size(); ++i)
        for (std::size_t k = 0; k < frameworks[i].sorts.size(); ++k) sort_list.emplace_back(frameworks[i].sorts[k], framework_sort_reports[i][k]);
    for (const auto& [s, v] : sort_list) {
        auto r = report(s, v);
        if (!md) {
            fmt::print("\n{} ({}, {}, sort)\n", s.name, s.library, s.format);
            for (const auto& l : r.lines) fmt::print("{}\n", l);
            std::fflush(stdout);
        }
        rows.push_back(r.json);
        sort_rows.emplace_back(s.name, std::move(r));
    }
    std::vector<std::pair<audit::p3008_subject, p3008_row>> p3008_rows;
    if (built_ins(o))
        for (auto& s : p3008_subjects(b)) {
            auto r = run_p3008(s, o.randoms * 10);
            if (!md) {
                fmt::print("\n{} ({}, {}, {})\n", s.name, s.library, s.format, to_string(s.kind));
                for (const auto& l : r.lines) fmt::print("{}\n", l);
                std::fflush(stdout);
            }
            rows.push_back(r.json);
            p3008_rows.emplace_back(std::move(s), std::move(r));
        }
    if (!md && built_ins(o)) fmt::print("\n{}\n", p3008_std_note());
    std::vector<claim_report> claims;
    if (b == backend::cpu && built_ins(o)) claims = strong_order_claims(o.quick);
    std::vector<std::pair<std::string, std::string>> intrinsics;  // (row, its witnesses)
    if (b == backend::gpu && built_ins(o))
        for (const auto& t : gpu_backend::intrinsic_truth_tables()) {
            std::string implements, witnesses;
            for (const auto& c : t.candidates) {
                if (c.wrong == 0 && implements.empty()) implements = c.name;
                if (c.wrong)
                    witnesses += fmt::format("      not {}: {} of 2^32 pairs differ, the first ({}, {}) -> {}\n", c.name, c.wrong,
                                             describe(t.format, c.a).hex, describe(t.format, c.b).hex, describe(t.format, c.result).hex);
            }
            const std::string nan = t.nan_result == "none" ? "none"
                                                           : describe(t.format, parse_number(t.nan_result, "the NaN result")).hex +
                                                                 (t.nan_other ? fmt::format(" and {} others", t.nan_other) : " always");
            intrinsics.emplace_back(fmt::format("{} | {} | {} | {}", t.name, t.format, implements.empty() ? "none of them" : implements, nan),
                                    witnesses);
            if (!md) fmt::print("\n{} ({}, every pair of 16-bit patterns)\n  {:<13} {}\n  {:<13} {}\n{}", t.name, t.format, "implements",
                                implements.empty() ? "none of them" : implements, "NaN results", nan, witnesses);
        }
    if (!md)
        for (const auto& c : claims) fmt::print("\nclaim: {}\n  {}\n", c.claim, c.verdict);
    for (const auto& f : frameworks)
        if (!f.installed && !md) fmt::print("\n{}: not installed ({}): no rows\n", f.framework, f.reason);

    if (md) {
        fmt::print("\n### Reducers\n\nA `*` marks an answer other answers were rejected for (below, with the input that rejected them).\n\n"
                   "| subject | library | format | op | without NaN | NaN | zeros | ties | n = 0 | position-dependent | named policy |\n"
                   "|---|---|---|---|---|---|---|---|---|---|---|\n");
        auto find_subject = [&](const std::string& name) -> const audit_subject& {
            for (const auto& s : all.reducers)
                if (s.name == name) return s;
            for (const auto& f : frameworks)
                for (const auto& s : f.reducers)
                    if (s.name == name) return s;
            throw std::logic_error("audit: lost subject " + name);
        };
        for (const auto& [name, r] : reducer_rows) {
            const auto& s = find_subject(name);
            fmt::print("| {} | {} | {} | {}{} | {} |\n", cell(name), cell(s.library), s.format, to_string(s.op), s.arg ? " (arg)" : "", cell(r.summary));
        }
        if (!sort_rows.empty()) {
            fmt::print("\n### Sorts\n\n| subject | format | without NaN | NaN | zeros | named order |\n|---|---|---|---|---|---|\n");
            for (const auto& [name, r] : sort_rows) {
                const auto it = std::find_if(sort_list.begin(), sort_list.end(), [&](const auto& s) { return s.first.name == name; });
                fmt::print("| {} | {} | {} |\n", cell(name), it->first.format, cell(r.summary));
            }
        }
        if (!p3008_rows.empty()) {
            fmt::print("\n### P3008 atomics (permitted sets)\n\nEach operation on pairs (old value, operand), one fresh object per pair, checked "
                       "against the set of results P3008R6 permits; the last three columns are the stored value on the pairs that "
                       "show which latitude it takes. {}.\n\n| subject | library | format | P3008R6 | old NaN, operand 1 | "
                       "old 1, operand NaN | old -0, operand +0 |\n|---|---|---|---|---|---|---|\n", p3008_std_note());
            for (const auto& [s, r] : p3008_rows) {
                std::string cells;
                for (const auto& c : r.cells) cells += " " + c + " |";
                fmt::print("| {} | {} | {} | {} |{}\n", cell(s.name), s.library, s.format, r.conforms ? "conforms" : "**" + cell(r.verdict) + "**", cells);
            }
        }
        if (!intrinsics.empty()) {
            fmt::print("\n### Intrinsics (every pair of 16-bit patterns, on this GPU)\n\n| intrinsic | format | implements | NaN results |\n"
                       "|---|---|---|---|\n");
            for (const auto& [row, w] : intrinsics) fmt::print("| {} |\n", cell(row));
        }
        if (!claims.empty()) {
            fmt::print("\n### Claims\n\n");
            for (const auto& c : claims) fmt::print("- {}: {}\n", c.claim, c.verdict);
        }
        fmt::print("\n### Witnesses\n\nEvery answer above with the smallest input that shows it (a random or long one shrunk, its bits printed); each `replay:` line re-runs one subject on "
                   "one input and prints what every policy expects there.\n\n```\n");
        for (const auto& [name, r] : reducer_rows) {
            fmt::print("{}\n", name);
            for (const auto& l : r.lines) fmt::print("{}\n", l);
        }
        for (const auto& [name, r] : sort_rows) {
            fmt::print("{}\n", name);
            for (const auto& l : r.lines) fmt::print("{}\n", l);
        }
        for (const auto& [row, w] : intrinsics) fmt::print("{}\n{}", row.substr(0, row.find(" | ")) + " (" + row.substr(row.find(" | ") + 3, 8) + ")", w);
        for (const auto& [s, r] : p3008_rows)
            if (!r.conforms) {
                fmt::print("{}\n", s.name);
                for (const auto& l : r.lines) fmt::print("{}\n", l);
            }
        fmt::print("```\n<!-- audit:{}:end -->\n", section);
    }
    nlohmann::json fw = nlohmann::json::array();
    for (const auto& f : frameworks)
        fw.push_back({{"framework", f.framework}, {"installed", f.installed}, {"version", f.version}, {"reason", f.reason}});
    nlohmann::json cl = nlohmann::json::array();
    for (const auto& c : claims) cl.push_back({{"claim", c.claim}, {"holds", c.holds}, {"verdict", c.verdict}, {"exhaustive", c.exhaustive}});
    // The audit reports what third-party code does; its verdict is whether every row was judged.
    // A row is one machine's answer (a library may dispatch on the CPU's features): the text names
    // the machine (docs/audit.md's sections are machine-independent, so markdown leaves it out).
    if (!md) fmt::print("\n{}\n", run::environment_line());
    json.write("pass", {{"versions", vers}, {"rows", rows}, {"frameworks", fw}, {"claims", cl}});
    return 0;
}

}  // namespace flipcheck::cli
