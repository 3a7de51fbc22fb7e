#include "check.hpp"

#include "audit.hpp"
#include "cpu_targets.hpp"
#include "exit_code.hpp"
#include "isolated.hpp"
#include "output.hpp"
#include "render.hpp"
#include "flipcheck/float_environment.hpp"
#include "flipcheck/run/shell_quote.hpp"
#include "stop.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <iterator>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/plugin/load.hpp"
#include "flipcheck/check/scaling.hpp"

namespace flipcheck::cli {

using namespace flipcheck::run;

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

std::string repro(const check_args& a, const flipcheck_subject_v2& s, const std::string& tail) {
    return fmt::format("flipcheck check --plugin {} --subject {} {}{}", quote(a.plugin), quote(s.name), tail,
                       a.cpu_targets.empty() ? "" : " --cpu-targets " + a.cpu_targets);
}
// A subject's name in its report line, with the Highway target it ran on where --cpu-targets chose
// one (a subject's child is given one target: run_check).
std::string shown(const check_args& a, const flipcheck_subject_v2& s) {
    return a.cpu_targets.empty() ? std::string(s.name) : fmt::format("{} [{}]", s.name, a.cpu_targets);
}

// The rounding modes --rounding asks a scale, quantizer or amax to be checked in: one, or the four
// (to_nearest first) for "any".
std::vector<rounding_mode> asked_modes(const check_args& a) {
    if (a.rounding == "any") return {std::begin(all_rounding_modes), std::end(all_rounding_modes)};
    rounding_mode m = rounding_mode::to_nearest;
    if (!parse_rounding_mode(a.rounding, m)) throw input_error("--rounding " + a.rounding + ": expected to_nearest, upward, downward, toward_zero or any");
    return {m};
}
// The report line's words for them; empty for the default (the environment line names it).
std::string rounding_tail(const check_args& a) {
    if (a.rounding == "to_nearest") return "";
    return a.rounding == "any" ? "; rounding: every mode (--rounding any; the other three on the sample)" : "; rounding: " + a.rounding + " (--rounding)";
}
// A failing case goes to NAME.case in the current directory, and its repro line is printed; the
// case's text is printed too, so nothing is lost if the file cannot be written.
void print_case_repro(const check_args& a, const flipcheck_subject_v2& s, const std::string& text,
                      rounding_mode mode = rounding_mode::to_nearest) {
    const std::string file = std::string(s.name) + ".case";
    try {
        write_atomically("the case file " + file, file, text + "\n");
        fmt::print("  repro: {}\n", repro(a, s, "--case " + quote(file) +
                                                    (mode == rounding_mode::to_nearest ? "" : std::string(" --rounding ") + to_string(mode))));
    } catch (const input_error& e) {
        fmt::print("  ({}; put the case into a file and pass it with --case)\n", e.what());
    }
}

// The library is never opened in flipcheck's own process: its constructors and its entry point
// are the user's code, and an exit(0), a crash or a hang there would end or stall flipcheck with no
// verdict (an exit(0) was a silent pass). A child opens it and sends back its table's values; each
// subject's own child opens it again to run it. In flipcheck's process a subject is those values
// and a marker in place of each function the library has, never called here.
struct catalogue {
    std::vector<std::string> names;                 // owns the names the subjects point at
    std::vector<flipcheck_subject_v2> subjects;
    std::optional<std::int64_t> highway_targets;    // SupportedTargets() where it dispatches through Highway
};

template <class R, class... A>
R not_here(A...) {
    std::fputs("flipcheck: internal error: a plug-in function was called outside the plug-in's process\n", stderr);
    std::abort();
}

std::string catalogue_text(const check_args& a, const plugin::library& lib) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& s : lib.subjects())
        list.push_back({{"name", s.name}, {"kind", s.kind}, {"format_id", s.format_id}, {"op", s.op}, {"nan", s.nan}, {"zero", s.zero},
                        {"ties", s.ties}, {"shared_word_bits", s.shared_word_bits}, {"policy", s.policy},
                        {"has", {s.encode != nullptr, s.decode != nullptr, s.sweep != nullptr, s.run != nullptr, s.run_steps != nullptr,
                                 s.run_lanes != nullptr}}});
    const std::optional<highway_dispatch> hwy = highway_dispatch_of(a.plugin);
    return nlohmann::json{{"subjects", list}, {"highway_targets", hwy ? nlohmann::json(hwy->supported()) : nlohmann::json()}}.dump();
}

catalogue catalogue_from(const std::string& text) {
    const nlohmann::json doc = nlohmann::json::parse(text);
    const nlohmann::json& list = doc.at("subjects");
    catalogue c;
    if (!doc.at("highway_targets").is_null()) c.highway_targets = doc.at("highway_targets").get<std::int64_t>();
    c.names.reserve(list.size());
    for (const auto& j : list) {
        c.names.push_back(j.at("name").get<std::string>());
        flipcheck_subject_v2 s{};
        s.kind = j.at("kind"), s.format_id = j.at("format_id"), s.op = j.at("op");
        s.nan = j.at("nan"), s.zero = j.at("zero"), s.ties = j.at("ties");
        s.shared_word_bits = j.at("shared_word_bits"), s.policy = j.at("policy");
        const auto& has = j.at("has");
        if (has.at(0).get<bool>()) s.encode = &not_here<std::uint64_t, std::uint64_t>;
        if (has.at(1).get<bool>()) s.decode = &not_here<std::uint64_t, std::uint64_t>;
        if (has.at(2).get<bool>())
            s.sweep = &not_here<int, const flipcheck_sweep_request_v1*, flipcheck_sweep_result_v1*, char*, std::size_t>;
        if (has.at(3).get<bool>()) s.run = &not_here<int, const void*, std::size_t, const std::size_t*, std::uint64_t*, char*, std::size_t>;
        if (has.at(4).get<bool>())
            s.run_steps = &not_here<int, const void*, std::size_t, const flipcheck_step_plan_v2*, const flipcheck_run_sink_v2*,
                                    std::uint64_t*, char*, std::size_t>;
        if (has.at(5).get<bool>())
            s.run_lanes = &not_here<int, const void*, std::size_t, const std::size_t*, const flipcheck_run_sink_v2*, char*, std::size_t>;
        c.subjects.push_back(s);
    }
    for (std::size_t i = 0; i < c.subjects.size(); ++i) c.subjects[i].name = c.names[i].c_str();
    return c;
}

// In a subject's child: the library opened there, and the real subject of that name.
template <class Fn>
auto with_subject(const check_args& a, const flipcheck_subject_v2& s, Fn&& fn) {
    const float_environment before = current_float_environment();
    const plugin::library lib(a.plugin);
    if (!a.cpu_targets.empty()) {  // one target (run_check), found again in this process's Highway
        const std::optional<highway_dispatch> hwy = highway_dispatch_of(a.plugin);
        if (!hwy) throw input_error(a.plugin + " lost its Highway between two loads");
        hwy->set_supported(asked_cpu_targets(a.cpu_targets, hwy->supported()).at(0));
    }
    // A library linked with -ffast-math sets FTZ and DAZ as it loads (GCC's crtfastmath.o): the
    // checks run in IEEE's default all the same (float_environment.hpp), and the report says so.
    if (const float_environment after = current_float_environment(); after.ieee_default() != before.ieee_default())
        fmt::print("  note: loading {} changed this process's floating-point environment to {} (was it linked with -ffast-math?); "
                   "{} is checked in IEEE's default environment all the same, and your code may run differently under yours\n",
                   a.plugin, environment_words(after), s.name);
    return fn(lib.find(s.name));
}

// A mapping: the sweep compiled into the library (exhaustive up to 32 bits, sampled for
// binary64), stopping at the first failing chunk unless --all; or every law at --key.
bool check_mapping_subject(const check_args& a, const flipcheck_subject_v2& s, nlohmann::json& out) {
    flipcheck_sweep_request_v1 q{};
    q.limit = 8;
    q.all = a.all;
    std::string format;
    int width = 0;
    plugin::with_format(s, [&]<class F>() {
        format = F::name;
        width = F::width;
        if (!a.key.empty()) {
            const std::uint64_t k = parse_number(a.key, "--key (a key of " + std::string(F::name) + ")", F::all_ones);
            q.has_range = 1;
            q.range_begin = k;
            q.range_end = k + 1;
            q.all = 1;
        }
    });
    isolated::note_stage("sweep");
    if (q.has_range && q.range_end - q.range_begin == 1) {
        const std::uint64_t k = q.range_begin;
        isolated::note_bits(std::span(&k, 1), {});
    }
    const sweep_report r = plugin::sweep_of(s, q);
    fmt::print("{} ({} mapping, {} sweep of {} keys{}): {}\n", shown(a, s), format, a.key.empty() ? r.domain : "one-key",
               r.keys_checked, r.stopped_early ? ", stopped at the first failing chunk" : "",
               r.passed() ? "pass" : fmt::format("FAIL, {} failing keys", r.failing_keys));
    nlohmann::json row{{"subject", s.name}, {"kind", "mapping"}, {"format", format}, {"domain", r.domain},
                       {"keys_checked", r.keys_checked}, {"failing_keys", r.failing_keys}, {"verdict", r.passed() ? "pass" : "fail"}};
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

// A reducer or atomic strategy: check/reducers.hpp's stages, or one --case.
bool check_reducer_subject(const check_args& a, const flipcheck_subject_v2& s, nlohmann::json& out) {
    bool passed = true;
    plugin::with_format(s, [&]<class F>() {
        using S = typename F::storage;
        reducer_subject<F> subject = plugin::reducer_of<F>(s);
        subject.run = [run = std::move(subject.run)](std::span<const S> xs, std::span<const std::size_t> order) {
            isolated::note_call(xs, order);  // what a crash or a hang was given
            return run(xs, order);
        };
        check_report r;
        if (!a.case_file.empty()) {
            const auto [xs, order] = parse_case<F>(read_text("--case", a.case_file));
            isolated::note_stage("replay");
            r = check_case(subject, xs, order);
        } else {
            check_options o;
            o.seed = a.seed;
            o.random_cases = a.cases;
            o.on_stage = [](check_stage st) { isolated::note_stage(to_string(st)); };
            r = check(subject, o);
        }
        passed = r.passed();
        fmt::print("{}{} ({})\n", r.text(), a.cpu_targets.empty() ? "" : " [on " + a.cpu_targets + "]", plugin::kind_name(s.kind));
        if (plugin::is_atomic(s) && !s.run_steps)
            fmt::print("  (whole updates only: a library built for plug-in ABI v1 cannot step a strategy's loads and "
                       "CASes; rebuild it against this flipcheck to check its interleaved steps)\n");
        nlohmann::json row{{"subject", s.name}, {"kind", plugin::kind_name(s.kind)}, {"format", F::name},
                           {"declared", to_string(r.declared, r.arg)}, {"cases", r.cases()}, {"verdict", passed ? "pass" : "fail"}};
        if (r.failure) {
            print_case_repro(a, s, r.failure->replay);
            row["case"] = r.failure->replay;
            row["stage"] = to_string(r.failure->stage);
            row["explanation"] = r.failure->explanation;
        }
        out.push_back(row);
    });
    return passed;
}

// A reducer of packed pairs: every array of up to three bytes, each lane judged on its own; or one --case.
bool check_pair_subject(const check_args& a, const flipcheck_subject_v2& s, nlohmann::json& out) {
    isolated::note_stage(a.case_file.empty() ? "every_array" : "replay");
    const std::vector<exhaustive_row> rows = plugin::check_pairs(s, a.case_file.empty() ? "" : read_text("--case", a.case_file),
                                                                 [](std::span<const std::uint8_t> in) { isolated::note_call(in, {}); });
    bool passed = true;
    std::uint64_t arrays = 0;
    const exhaustive_row* failed = nullptr;
    for (const exhaustive_row& r : rows) {
        arrays += r.arrays;
        if (!r.passed() && !failed) failed = &r;
    }
    passed = !failed;
    const std::string domain = a.case_file.empty() ? "every array of 0 to 3 bytes (exhaustive)" : "the given case";
    fmt::print("{} (pair reducer, {}, {}, {}): {} after {} arrays, {}\n", shown(a, s), rows.front().format, rows.front().op,
               rows.front().policy, passed ? "pass" : "FAIL", arrays, domain);
    if (failed) {
        fmt::print("  {}\n", failed->counterexample);
        if (a.case_file.empty()) print_case_repro(a, s, failed->replay);
    }
    nlohmann::json row{{"subject", s.name}, {"kind", "pair reducer"}, {"format", rows.front().format}, {"declared", rows.front().policy},
                       {"cases", arrays}, {"verdict", passed ? "pass" : "fail"}, {"domain", domain}};
    if (failed) row["case"] = failed->replay, row["counterexample"] = failed->counterexample;
    out.push_back(row);
    return passed;
}

// An amax: scaling_check.hpp's judge on the edge battery and random arrays, under its nan policy.
bool check_amax_subject(const check_args& a, const flipcheck_subject_v2& s, nlohmann::json& out) {
    bool passed = true;
    plugin::with_format(s, [&]<class F>() {
        const nan_policy p = nan_policy(s.nan);
        scaling_report r{s.name, "amax", std::string(F::name) + " nan=" + std::string(to_string(p)), "", false, 0, {}};
        if constexpr (!amax_format<F>) {
            r.counterexample = std::string(F::name) + " is unsigned: an amax is of a signed format (amax.hpp)";
        } else if (p == nan_policy::total_order) {
            r.counterexample = "declares nan=total_order, which means nothing for magnitudes: declare propagate, ignore or undefined";
        } else {
            scaling_options o;
            o.seed = a.seed;
            o.randoms = a.cases;
            r.domain = "edge battery (every value, every ordered pair, triples of 10) + " + std::to_string(o.randoms) +
                       " random arrays (sampled)";
            using S = typename F::storage;
            std::vector<std::vector<S>> cases;
            if (a.case_file.empty()) {
                cases = amax_cases<F>(o);
            } else {
                cases.push_back(parse_case<F>(read_text("--case", a.case_file)).first);
                r.domain = "the given case";
            }
            isolated::note_stage(a.case_file.empty() ? "amax_battery_and_random_arrays" : "replay");
            auto judge = [&](scaling_report& into, rounding_mode mode) {
                judge_amax<F>(into, p, cases, [amax = plugin::amax_of<F>(s, mode)](std::span<const S> xs) {
                    isolated::note_call(xs, {});
                    return amax(xs);
                });
            };
            const std::vector<rounding_mode> modes = asked_modes(a);
            judge(r, modes.front());
            check_other_modes(modes, r, [&](rounding_mode mode) {
                scaling_report m = r;
                m.checks = 0;
                judge(m, mode);
                return m;
            });
        }
        passed = r.passed();
        fmt::print("{} (amax, {}): {} after {} arrays, {}{}\n", shown(a, s), r.claim, passed ? "pass" : "FAIL", r.checks, r.domain, rounding_tail(a));
        if (!passed) fmt::print("  {}\n", *r.counterexample);
        if (!passed && a.case_file.empty() && !r.replay.empty()) print_case_repro(a, s, r.replay, r.failed_mode);
        out.push_back({{"subject", s.name}, {"kind", "amax"}, {"format", F::name}, {"declared", r.claim}, {"cases", r.checks},
                       {"verdict", passed ? "pass" : "fail"}, {"domain", r.domain}, {"counterexample", r.counterexample.value_or("")},
                       {"rounding", a.rounding}, {"failed_rounding_mode", passed ? "" : to_string(r.failed_mode)}});
    });
    return passed;
}

// A scale, decoder, block scale, NVFP4 scale, quantizer or canonical key: check/scaling.hpp's
// check of its shape, each input noted before the call (what a crash or a hang was given).
bool check_scaling_subject(const check_args& a, const flipcheck_subject_v2& s, nlohmann::json& out) {
    scaling_options o;
    o.seed = a.seed;
    const std::string replay = a.case_file.empty() ? "" : read_text("--case", a.case_file);
    // The heartbeat's total where one call is one input: a scale's every non-negative binary32
    // amax (2^31, scales.hpp), a binary32 quantizer's every input (2^32); other shapes: a count.
    const bool scale = s.kind == flipcheck_kind_mx_scale || s.kind == flipcheck_kind_scale_value;
    const bool quantizer = s.kind == flipcheck_kind_quantizer && plugin::format_name(s) == "binary32";
    const std::vector<rounding_mode> modes = asked_modes(a);
    auto check = [&](bool every, rounding_mode mode) {
        o.every_binary32 = every;
        isolated::note_stage(!replay.empty() ? "replay" : std::string(plugin::kind_name(s.kind)) + (every ? " every input" : ""));
        const std::uint64_t total = !every ? 0 : scale ? std::uint64_t(1) << 31 : quantizer ? std::uint64_t(1) << 32 : 0;
        std::uint64_t calls = 0;
        return plugin::check_scaling(
            s, o, replay,
            [&](std::span<const std::uint64_t> bits) {
                isolated::note_bits(bits, {});
                isolated::note_work(++calls, total);
            },
            mode);
    };
    // --every-input runs the sample first: a failure it finds (in well under a second) is the
    // verdict at once, not after minutes over every input.
    scaling_report r = check(false, modes.front());
    if (a.every_input && replay.empty()) {
        if (r.passed()) r = check(true, modes.front());
        else r.domain += " (--every-input: the sample failed first, so every input was not run)";
    }
    check_other_modes(modes, r, [&](rounding_mode mode) { return check(false, mode); });
    fmt::print("{} ({}, {}): {} after {} inputs, {}{}\n", shown(a, s), r.shape, r.claim, r.passed() ? "pass" : "FAIL", r.checks, r.domain,
               rounding_tail(a));
    if (!r.passed()) fmt::print("  {}\n", *r.counterexample);
    if (!r.passed() && a.case_file.empty()) print_case_repro(a, s, r.replay, r.failed_mode);
    out.push_back({{"subject", s.name}, {"kind", plugin::kind_name(s.kind)}, {"format", plugin::format_name(s)}, {"declared", r.claim},
                   {"cases", r.checks}, {"verdict", r.passed() ? "pass" : "fail"}, {"domain", r.domain},
                   {"exhaustive", r.exhaustive}, {"counterexample", r.counterexample.value_or("")}, {"rounding", a.rounding},
                   {"failed_rounding_mode", r.passed() ? "" : to_string(r.failed_mode)}});
    return r.passed();
}

// The smallest key on which the subject breaks (crashes, exits or throws), by halving [0, last] in
// fresh processes (about 2 sweeps' time); nullopt if the breakage does not follow a key. A hang is
// not looked for: each step would wait --timeout.
std::optional<std::uint64_t> breaking_key(const check_args& a, const flipcheck_subject_v2& s, std::uint64_t last) {
    auto breaks = [&](std::uint64_t begin, std::uint64_t end) {
        const auto o = isolated::run(
            [&] {
                // The probes' own messages (a std::terminate's, 33 times over) would bury the report.
                if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDERR_FILENO), ::close(null);
                flipcheck_sweep_request_v1 q{};
                q.limit = 1;
                q.all = 1;
                q.has_range = 1;
                q.range_begin = begin;
                q.range_end = end;
                with_subject(a, s, [&](const flipcheck_subject_v2& real) { return plugin::sweep_of(real, q); });
                return std::string();
            },
            a.timeout);
        using ended = isolated::outcome::end;
        return o.how == ended::crashed || o.how == ended::exited || o.how == ended::threw;
    };
    std::uint64_t lo = 0, hi = last + 1;  // the breakage is in [lo, hi)
    bool some_range_held = false;
    while (hi - lo > 1 && !stop) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (breaks(lo, mid)) hi = mid;
        else lo = mid, some_range_held = true;
    }
    if (stop || !breaks(lo, lo + 1)) return std::nullopt;
    // A subject that breaks on every range (a sweep that answers garbage) broke at no key of its own.
    if (!some_range_held && (lo == last || breaks(last, last + 1))) return std::nullopt;
    return lo;
}

// A subject whose process ended without a verdict (isolated.hpp): its failure, with the stage and
// the input it was running and a replay where flipcheck can write one. A mapping's sweep runs in
// the library, so the key is found by halving the range in fresh processes (up to 32-bit keys).
nlohmann::json report_broken_subject(const check_args& a, const flipcheck_subject_v2& s, const isolated::outcome& o) {
    using end = isolated::outcome::end;
    const char* how = o.how == end::crashed ? "crashed" : o.how == end::exited ? "exited" : o.how == end::threw ? "threw" : "timed_out";
    nlohmann::json row{{"subject", s.name}, {"kind", plugin::kind_name(s.kind)}, {"format", plugin::format_name(s)},
                       {"verdict", "fail"}, {"outcome", how}, {"what", o.what}, {"stage", o.stage}};
    // what a subject threw or reported is its own sentence ("subject NAME failed: ..."); the rest say what "it" did
    fmt::print("{} ({}): FAIL: {}{}{}\n", shown(a, s), plugin::kind_name(s.kind), o.how == end::threw ? "" : "it ", o.what,
               o.stage.empty() ? "" : " during " + o.stage);
    plugin::with_format(s, [&]<class F>() {
        using S = typename F::storage;
        std::optional<std::uint64_t> key;
        if (plugin::is_mapping(s)) {
            if (o.has_input && o.bits.size() == 1) key = o.bits[0];
            else if (o.how != end::timed_out && F::width <= 32 && a.key.empty()) key = breaking_key(a, s, F::all_ones);
            if (key) {
                fmt::print("  on key {}\n  repro: {}\n", hex(*key, F::width), repro(a, s, "--key " + hex(*key, F::width)));
                row["key"] = hex(*key, F::width);
            } else {
                fmt::print("  (no single key found: run with --key K to try one key)\n");
            }
            return;
        }
        if (!o.has_input) return;
        const std::vector<S> xs(o.bits.begin(), o.bits.end());
        std::string text = format_case<F>(xs, o.order);
        if (plugin::takes_binary32(s)) {  // an amax (or an NVFP4 scale's pair), whatever the element
            const std::vector<std::uint32_t> amax(o.bits.begin(), o.bits.end());
            text = format_case<binary32>(std::span<const std::uint32_t>(amax), {});
        }
        if (s.kind == flipcheck_kind_scaled_quantizer && o.bits.size() == 2) {  // (x as its binary32 value, s): the check's replay
            if constexpr (quantizer_input<F>) {
                const std::uint32_t pair[2] = {bit_cast<std::uint32_t>(float(F::to_value(S(o.bits[0])))), std::uint32_t(o.bits[1])};
                text = format_case<binary32>(std::span<const std::uint32_t>(pair), {});
            }
        }
        if constexpr (requires { F::packs_in_pairs; })
            if (s.kind == flipcheck_kind_pair_reducer) text = format_case<packed_pair<F>>(std::span<const S>(xs), {});  // bytes, not codes
        constexpr std::size_t shown = 200;
        fmt::print("  on {}{}\n", text.substr(0, shown), text.size() > shown ? fmt::format("... ({} elements)", xs.size()) : "");
        if (o.truncated) {
            fmt::print("  (the input was longer than flipcheck keeps: no replay)\n");
            return;
        }
        row["case"] = text;
        print_case_repro(a, s, text);
    });
    return row;
}

}  // namespace

int run_check(const check_args& a) {
    if (a.plugin.empty())
        throw input_error("give --plugin FILE.so (your compiled subjects), --shader FILE (a compute shader) or --adapter CMD (a Python function)");
    for (const auto* shader_only : {&a.op, &a.policy, &a.keys, &a.lang})
        if (!shader_only->empty()) throw input_error("--op, --policy, --keys and --lang are for --shader");
    // Options of the other modes are refused, never ignored (a stranger reads an ignored one as done).
    if (a.entry != "main" || a.workgroup != "all" || a.mapping || !a.defines.empty())
        throw input_error("--entry, --workgroup, --mapping and --define are for --shader (a plug-in's mappings are checked as such)");
    if (a.device == "gpu")
        throw input_error("a plug-in's subjects run in the library on the host (a reducer that launches your kernel "
                          "does so itself); GPU checks of an atomic strategy or a mapping are FLIPCHECK_GPU_CHECK_ATOMIC "
                          "and FLIPCHECK_GPU_CHECK_MAPPING in a .cu test (docs/plug-in.md)");
    // Open and validate everything before running anything: in a child (see catalogue).
    const json_file out("--json", a.json);
    const isolated::outcome opened = isolated::run([&] { return catalogue_text(a, plugin::library(a.plugin)); }, a.timeout,
                                                   "opening " + a.plugin);
    if (opened.how == isolated::outcome::end::stopped) {
        print_verdict_line("INTERRUPTED: the plug-in was being opened, no subject checked");
        out.write("interrupted", {{"plugin", a.plugin}, {"subjects", nlohmann::json::array()}});
        return exit_for_stop();
    }
    if (!opened.finished()) {
        // Its constructors or its entry point ended, crashed or hung: the plug-in's failure.
        const std::string what = fmt::format("it {} while flipcheck opened it (its constructors and {}() run then)",
                                             opened.how == isolated::outcome::end::threw ? "threw: " + opened.what : opened.what,
                                             FLIPCHECK_PLUGIN_ENTRY);
        fmt::print("{}: FAIL: {}\nverdict: FAIL: the plug-in could not be opened, no subject checked\n", a.plugin, what);
        out.write("fail", {{"plugin", a.plugin}, {"opened", false}, {"what", what}, {"subjects", nlohmann::json::array()}});
        return exit_fail;
    }
    const catalogue lib = catalogue_from(opened.result);
    std::vector<const flipcheck_subject_v2*> chosen;
    if (!a.subject.empty()) chosen.push_back(&plugin::find_subject(lib.subjects, a.subject, a.plugin));
    else
        for (const auto& s : lib.subjects) chosen.push_back(&s);
    if (!a.format.empty())
        for (const auto* s : chosen)
            if (plugin::format_name(*s) != a.format)
                throw input_error(fmt::format("subject {} declares format {}, not {}", s->name, plugin::format_name(*s), a.format));
    for (const auto* s : chosen) {
        if (!a.key.empty() && !plugin::is_mapping(*s))
            throw input_error(fmt::format("--key is for mappings; {} is a {} (use --case FILE)", s->name, plugin::kind_name(s->kind)));
        if (!a.case_file.empty() && plugin::is_mapping(*s))
            throw input_error(fmt::format("--case is for reducers; {} is a mapping (use --key K)", s->name));
        if (a.every_input && (!plugin::is_scaling(*s) || plugin::format_name(*s) == "binary64"))
            throw input_error(fmt::format("--every-input is for quantizers, scales and canonical keys of 32 bits or fewer; {} is a {} of {}",
                                          s->name, plugin::kind_name(s->kind), plugin::format_name(*s)));
    }
    if (!a.case_file.empty()) read_text("--case", a.case_file);  // a missing file is bad input before anything runs
    // --cpu-targets: each subject once per target, each run given its one target by name (a copy of
    // the arguments, so that its lines and repro name it); without it, once, as Highway picks.
    std::vector<check_args> runs{a};
    if (!a.cpu_targets.empty()) {
        if (!lib.highway_targets)
            throw input_error(fmt::format("--cpu-targets: {} does not dispatch through Highway: neither it nor a library it links "
                                          "exports hwy::SetSupportedTargetsForTest (link Highway as a shared library, libhwy.so)",
                                          a.plugin));
        runs.clear();
        for (std::int64_t t : asked_cpu_targets(a.cpu_targets, *lib.highway_targets)) {
            runs.push_back(a);
            runs.back().cpu_targets = cpu_target_name(t);
        }
    }

    nlohmann::json rows = nlohmann::json::array();
    int failed = 0, checked = 0;
    for (const auto* s : chosen) {
        std::vector<std::string> passed_on, failed_on;  // the targets, where there are several
        for (const check_args& run : runs) {
            if (stop) break;
            // In a process of its own: see isolated.hpp. The child prints the subject's lines and
            // sends back its JSON row.
            const isolated::outcome o = isolated::run(
                [&] {
                    return with_subject(run, *s, [&](const flipcheck_subject_v2& real) {
                        nlohmann::json one = nlohmann::json::array();
                        const bool ok = plugin::is_mapping(real)                   ? check_mapping_subject(run, real, one)
                                        : real.kind == flipcheck_kind_amax         ? check_amax_subject(run, real, one)
                                        : plugin::is_scaling(real)                 ? check_scaling_subject(run, real, one)
                                        : real.kind == flipcheck_kind_pair_reducer ? check_pair_subject(run, real, one)
                                                                                   : check_reducer_subject(run, real, one);
                        return nlohmann::json{{"passed", ok}, {"row", one.at(0)}}.dump();
                    });
                },
                a.timeout, std::string("subject ") + s->name);
            if (o.how == isolated::outcome::end::stopped) break;
            ++checked;
            bool ok = false;
            if (o.finished()) {
                const auto j = nlohmann::json::parse(o.result);
                rows.push_back(j.at("row"));
                ok = j.at("passed").get<bool>();
            } else {
                rows.push_back(report_broken_subject(run, *s, o));
            }
            failed += !ok;
            if (!run.cpu_targets.empty()) {
                rows.back()["cpu_target"] = run.cpu_targets;
                (ok ? passed_on : failed_on).push_back(run.cpu_targets);
            }
            std::fflush(stdout);
        }
        // The same code passing on one target and failing on another: the dispatch decides the
        // verdict, which a check on one machine's choice would have missed or reported alone.
        if (!passed_on.empty() && !failed_on.empty()) {
            fmt::print("  {}: the verdict differs between Highway targets: FAIL on {}, pass on {}\n", s->name,
                       fmt::join(failed_on, ", "), fmt::join(passed_on, ", "));
            for (auto& row : rows)
                if (row.at("subject") == s->name) row["differs_between_targets"] = true;
        }
        if (stop) break;
    }
    const bool stopped = stop.load();
    const std::string verdict = stopped ? "interrupted" : failed ? "fail" : "pass";
    const std::string noun = runs.size() > 1 ? "subject-target run" : "subject";
    print_verdict_line(tally_verdict(noun, std::size_t(failed), std::size_t(checked), chosen.size() * runs.size(), stopped));
    nlohmann::json fields{{"plugin", a.plugin}, {"subjects", rows}};
    if (!a.cpu_targets.empty()) {
        nlohmann::json targets = nlohmann::json::array();
        for (const check_args& run : runs) targets.push_back(run.cpu_targets);
        fields["cpu_targets"] = targets;
    }
    out.write(verdict, fields);
    if (stopped) return exit_for_stop();
    return failed ? exit_fail : exit_pass;
}

#ifndef FLIPCHECK_HAVE_SHADERS
constexpr const char* no_shaders = "this flipcheck was built without shader support (configure with glslang and the Vulkan "
                                   "headers: scripts/bootstrap installs them)";
int run_shader_check(const check_args&) { throw input_error(no_shaders); }
std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>&) { throw input_error(no_shaders); }
std::string shader_list() { return std::string("\nshaders: ") + no_shaders + "\n"; }
#endif

}  // namespace flipcheck::cli
