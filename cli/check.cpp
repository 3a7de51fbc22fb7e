#include "check.hpp"

#include "audit.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/check.hpp"
#include "flipcheck/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/plugin.hpp"
#include "flipcheck/scaling_check.hpp"

namespace flipcheck::cli {

std::string quote(const std::string& s) {
    if (s.find_first_of(" '\"\\$`") == std::string::npos) return s;
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string read_text(const std::string& option, const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw input_error(option + " " + path + " is not a readable file");
    std::ifstream in(path);
    if (!in) throw input_error(option + " " + path + " cannot be opened");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

namespace {

std::string repro(const check_args& a, const flipcheck_subject_v1& s, const std::string& tail) {
    return fmt::format("flipcheck check --plugin {} --subject {} {}", quote(a.plugin), quote(s.name), tail);
}

std::uint64_t parse_key(const std::string& text) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(text, &used, 0);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text[0] == '-')
        throw input_error(fmt::format("--key '{}' is not a key (decimal or 0x-hex)", text));
    return v;
}

// A mapping: the sweep compiled into the library (exhaustive up to 32 bits, sampled for
// binary64), stopping at the first failing chunk unless --all; or every law at --key.
bool check_mapping_subject(const check_args& a, const flipcheck_subject_v1& s, nlohmann::json& out) {
    flipcheck_sweep_request_v1 q{};
    q.limit = 8;
    q.all = a.all;
    std::string format;
    int width = 0;
    plugin::with_format(s, [&]<class F>() {
        format = F::name;
        width = F::width;
        if (!a.key.empty()) {
            const std::uint64_t k = parse_key(a.key);
            if (k > std::uint64_t(F::all_ones))
                throw input_error(fmt::format("--key {} is outside the keys of {} (at most {})", a.key, F::name, hex(F::all_ones, F::width)));
            q.has_range = 1;
            q.range_begin = k;
            q.range_end = k + 1;
            q.all = 1;
        }
    });
    const sweep_report r = plugin::sweep_of(s, q);
    fmt::print("{} ({} mapping, {} sweep of {} keys{}): {}\n", s.name, format, a.key.empty() ? r.domain : "one-key",
               r.keys_checked, r.stopped_early ? ", stopped at the first failing chunk" : "",
               r.passed() ? "pass" : fmt::format("FAIL, {} failing keys", r.failing_keys));
    nlohmann::json row{{"subject", s.name}, {"kind", "mapping"}, {"format", format}, {"domain", r.domain},
                       {"keys_checked", r.keys_checked}, {"failing_keys", r.failing_keys}, {"passed", r.passed()}};
    nlohmann::json ces = nlohmann::json::array();
    plugin::with_format(s, [&]<class F>() {
        for (const counterexample& c : r.counterexamples) {
            const std::string text = describe_mapping_failure<F>(s.name, c);
            fmt::print("  {}\n    repro: {}\n", text, repro(a, s, "--key " + hex(c.key, F::width)));
            ces.push_back({{"law", to_string(c.law)}, {"key", hex(c.key, F::width)}, {"text", text}});
        }
    });
    row["counterexamples"] = ces;
    out.push_back(row);
    (void)width;
    return r.passed();
}

// A reducer or atomic strategy: check.hpp's stages, or one --case.
bool check_reducer_subject(const check_args& a, const flipcheck_subject_v1& s, nlohmann::json& out) {
    bool passed = true;
    plugin::with_format(s, [&]<class F>() {
        const reducer_subject<F> subject = plugin::reducer_of<F>(s);
        check_report r;
        if (!a.case_file.empty()) {
            const auto [xs, order] = parse_case<F>(read_text("--case", a.case_file));
            r = check_case(subject, xs, order);
        } else {
            check_options o;
            o.seed = a.seed;
            o.random_cases = a.cases;
            r = check(subject, o);
        }
        passed = r.passed();
        fmt::print("{} ({})\n", r.text(), plugin::kind_name(s.kind));
        nlohmann::json row{{"subject", s.name}, {"kind", plugin::kind_name(s.kind)}, {"format", F::name},
                           {"declared", to_string(r.declared, r.arg)}, {"cases", r.cases()}, {"passed", passed}};
        if (r.failure) {
            // The case goes to a file beside the current directory's others; the text is printed
            // too, so nothing is lost if the file cannot be written.
            const std::string file = std::string(s.name) + ".case";
            std::ofstream f(file);
            f << r.failure->replay << '\n';
            if (f.good()) fmt::print("  repro: {}\n", repro(a, s, "--case " + quote(file)));
            else fmt::print("  (could not write {}; put the case line above into a file and pass it with --case)\n", file);
            row["case"] = r.failure->replay;
            row["stage"] = to_string(r.failure->stage);
            row["explanation"] = r.failure->explanation;
        }
        out.push_back(row);
    });
    return passed;
}

// An amax: scaling_check.hpp's judge on the edge battery and random arrays, under its nan policy.
bool check_amax_subject(const check_args& a, const flipcheck_subject_v1& s, nlohmann::json& out) {
    bool passed = true;
    plugin::with_format(s, [&]<class F>() {
        const nan_policy p = nan_policy(s.nan);
        scaling_report r{s.name, "amax", std::string(F::name) + " nan=" + std::string(to_string(p)), "", false, 0, {}};
        if (p == nan_policy::total_order) {
            r.counterexample = "declares nan=total_order, which means nothing for magnitudes: declare propagate, ignore or undefined";
        } else {
            scaling_options o;
            o.seed = a.seed;
            o.randoms = a.cases;
            r.domain = "edge battery (every value, every ordered pair, triples of 10) + " + std::to_string(o.randoms) +
                       " random arrays (sampled)";
            judge_amax<F>(r, p, amax_cases<F>(o), plugin::amax_of<F>(s));
        }
        passed = r.passed();
        fmt::print("{} (amax, {}): {} after {} arrays, {}\n", s.name, r.claim, passed ? "pass" : "FAIL", r.checks, r.domain);
        if (!passed) fmt::print("  {}\n", *r.counterexample);
        out.push_back({{"subject", s.name}, {"kind", "amax"}, {"format", F::name}, {"declared", r.claim}, {"cases", r.checks},
                       {"passed", passed}, {"domain", r.domain}, {"counterexample", r.counterexample.value_or("")}});
    });
    return passed;
}

}  // namespace

int run_check(const check_args& a) {
    if (a.plugin.empty()) throw input_error("give --plugin FILE.so (your compiled subjects) or --shader FILE (a compute shader)");
    for (const auto* shader_only : {&a.op, &a.policy, &a.keys, &a.lang})
        if (!shader_only->empty()) throw input_error("--op, --policy, --keys and --lang are for --shader");
    if (a.device == "gpu")
        throw input_error("a plug-in's subjects run in the library on the host (a reducer that launches your kernel "
                          "does so itself); GPU checks of an atomic strategy or a mapping are FLIPCHECK_GPU_CHECK_ATOMIC "
                          "and FLIPCHECK_GPU_CHECK_MAPPING in a .cu test (README, \"Plug in your code\")");
    // Load and validate everything before running anything.
    const plugin::library lib(a.plugin);
    std::vector<const flipcheck_subject_v1*> chosen;
    if (!a.subject.empty()) chosen.push_back(&lib.find(a.subject));
    else
        for (const auto& s : lib.subjects()) chosen.push_back(&s);
    if (!a.format.empty())
        for (const auto* s : chosen)
            if (plugin::format_name(*s) != a.format)
                throw input_error(fmt::format("subject {} declares format {}, not {}", s->name, plugin::format_name(*s), a.format));
    for (const auto* s : chosen) {
        if (!a.key.empty() && !plugin::is_mapping(*s))
            throw input_error(fmt::format("--key is for mappings; {} is a {} (use --case FILE)", s->name, plugin::kind_name(s->kind)));
        if (!a.case_file.empty() && plugin::is_mapping(*s))
            throw input_error(fmt::format("--case is for reducers; {} is a mapping (use --key K)", s->name));
        if (!a.case_file.empty() && s->kind == flipcheck_kind_amax)
            throw input_error(fmt::format("--case is for reducers; {} is an amax (its failures print the array)", s->name));
    }
    if (!a.case_file.empty()) read_text("--case", a.case_file);  // a missing file is bad input before anything runs

    nlohmann::json rows = nlohmann::json::array();
    bool all_passed = true;
    for (const auto* s : chosen) {
        const bool ok = plugin::is_mapping(*s)              ? check_mapping_subject(a, *s, rows)
                        : s->kind == flipcheck_kind_amax ? check_amax_subject(a, *s, rows)
                                                         : check_reducer_subject(a, *s, rows);
        all_passed = all_passed && ok;
        std::fflush(stdout);
    }
    if (!a.json.empty()) {
        std::ofstream f(a.json);
        f << nlohmann::json{{"plugin", a.plugin}, {"subjects", rows}}.dump(2) << '\n';
        if (!f.good()) throw input_error("cannot write --json " + a.json);
    }
    return all_passed ? 0 : 1;
}

#ifndef FLIPCHECK_HAVE_SHADERS
constexpr const char* no_shaders = "this flipcheck was built without shader support (configure with glslang and the Vulkan "
                                   "headers: scripts/bootstrap installs them)";
int run_shader_check(const check_args&) { throw input_error(no_shaders); }
std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>&) { throw input_error(no_shaders); }
std::string shader_list() { return std::string("\nshaders: ") + no_shaders + "\n"; }
#endif

}  // namespace flipcheck::cli
