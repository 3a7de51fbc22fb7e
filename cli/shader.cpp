// `flipcheck check --shader FILE`: a user's compute shader (HLSL or GLSL), compiled by glslang and
// run through Vulkan, judged like every other subject: a reducer by check/reducers.hpp's stages at each
// workgroup size it takes, a mapping (--mapping) by the shader sweep. Exit statuses as run_check's.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "audit.hpp"
#include "check.hpp"
#include "exit_code.hpp"
#include "isolated.hpp"
#include "output.hpp"
#include "render.hpp"
#include "flipcheck/run/shell_quote.hpp"
#include "stop.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/shader/reducer.hpp"
#include "flipcheck/shader/subjects.hpp"
#include "flipcheck/shader/sweep.hpp"

namespace flipcheck::cli {

using namespace flipcheck::run;
namespace {

namespace sh = flipcheck::shader;

sh::source source_of(const check_args& a) {
    sh::source s{read_text("--shader", a.shader), a.shader, sh::language::glsl, a.entry, {}};
    if (a.lang == "hlsl") s.lang = sh::language::hlsl;
    else if (a.lang == "glsl") s.lang = sh::language::glsl;
    else if (!a.lang.empty()) throw input_error("--lang is hlsl or glsl, not " + a.lang);
    else if (!sh::language_of(a.shader, s.lang))
        throw input_error(fmt::format("--shader {}: name it .hlsl, .comp or .glsl, or say --lang hlsl|glsl", a.shader));
    for (const auto& d : a.defines) {
        const auto eq = d.find('=');
        const std::string name = d.substr(0, eq);
        if (name.empty() || name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
            throw input_error("--define " + d + ": write NAME or NAME=VALUE");
        s.defines.emplace_back(name, eq == std::string::npos ? "1" : d.substr(eq + 1));
    }
    return s;
}

key_range parse_keys(const std::string& text) {
    if (text.empty()) return {0, std::uint64_t(1) << 32};
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw input_error("--keys '" + text + "' is not BEGIN:END (decimal or 0x-hex)");
    return {parse_number(text.substr(0, colon), "--keys BEGIN"), parse_number(text.substr(colon + 1), "--keys END")};
}

int check_mapping_shader(const check_args& a, const sh::source& src) {
    const key_range keys = parse_keys(a.keys);
    if (keys.begin % 16384 || keys.end % 16384 || keys.end > (std::uint64_t(1) << 32) || keys.begin >= keys.end)
        throw input_error("--keys: a shader sweep takes [BEGIN, END) in whole multiples of 16384 (0x4000), up to 0x100000000");
    isolated::note_stage("sweep");
    const auto r = sh::sweep_mapping(src, keys);
    fmt::print("{}\n", r.text());
    nlohmann::json row{{"shader", a.shader}, {"kind", "mapping"}, {"device", r.device}, {"keys", r.range.size()},
                       {"gpu_ms", r.gpu_ms}, {"verdict", r.passed() ? "pass" : "fail"}};
    for (std::size_t l = 0; l < sh::shader_sweep_laws; ++l) {
        row["failures"][std::string(law_names[l])] = r.failures_by_law[l];
        if (r.first_failing_key[l]) {
            const std::uint32_t k = *r.first_failing_key[l];
            row["first_failing_key"][std::string(law_names[l])] = hex(k, 32);
            const std::uint64_t begin = k & ~0x3fffu, end = begin + 0x4000;  // the workgroup's keys around it
            fmt::print("  repro: flipcheck check --shader {} --mapping --keys {}:{}\n", quote(a.shader), hex(begin, 32),
                       hex(end, end >> 32 ? 36 : 32));
        }
    }
    print_verdict_line(fmt::format("{}: {} keys swept", r.passed() ? "PASS" : "FAIL", r.range.size()));
    json_file("--json", a.json).write(r.passed() ? "pass" : "fail", row);
    return r.passed() ? exit_pass : exit_fail;
}

int check_reducer_shader(const check_args& a, const sh::source& src) {
    if (a.op != "max" && a.op != "min") throw input_error("--op is max or min for a reducer shader (or say --mapping)");
    const std::string format = a.format.empty() ? "binary32" : a.format;
    const auto formats = sh::shader_formats();
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
        throw input_error("--format: a shader reducer takes binary32 or binary16 (one element per 32-bit word), not " + format);
    sh::reducer_shader s{a.shader, src, a.op == "max" ? reduce_op::max : reduce_op::min, parse_policy(a.policy, "--policy")};
    std::vector<std::uint32_t> sizes;
    if (a.workgroup == "all") {
        const auto candidates = sh::default_workgroup_sizes();
        sizes = sh::workgroup_sizes(s, candidates);
    } else {
        std::uint64_t w = 0;
        if (!read_number(a.workgroup, 65536, w) || w < 2)
            throw input_error("--workgroup is all or a size from 2 to 65536, not " + a.workgroup);
        sizes = {sh::compile_reducer(s, std::uint32_t(w)).workgroup_size};
    }
    std::string replay;
    if (!a.case_file.empty()) replay = read_text("--case", a.case_file);
    fmt::print("Vulkan device: {}\n", sh::vulkan::get().info().text());
    nlohmann::json rows = nlohmann::json::array();
    bool all_passed = true;
    std::size_t failed = 0;
    for (std::uint32_t w : sizes) {
        isolated::note_work(rows.size(), sizes.size());
        isolated::note_stage(fmt::format("workgroup {}", w));
        check_report r;
        if (!replay.empty()) {
            r = format == "binary32" ? [&] {
                const auto [xs, order] = parse_case<binary32>(replay);
                return check_case(sh::subject_of<binary32>(s, w), xs, order);
            }() : [&] {
                const auto [xs, order] = parse_case<binary16>(replay);
                return check_case(sh::subject_of<binary16>(s, w), xs, order);
            }();
        } else {
            check_options o;
            o.seed = a.seed;
            o.random_cases = a.cases;
            o.on_stage = [w](check_stage st) { isolated::note_stage(fmt::format("{} at workgroup {}", to_string(st), w)); };
            r = sh::check_shader(s, format, w, o);
        }
        fmt::print("{}\n", r.text());
        nlohmann::json row{{"shader", a.shader}, {"workgroup", w}, {"format", format}, {"declared", to_string(r.declared)},
                           {"cases", r.cases()}, {"verdict", r.passed() ? "pass" : "fail"}};
        if (r.failure) {
            all_passed = false;
            ++failed;
            const std::string file = std::filesystem::path(a.shader).stem().string() + ".case";
            std::ofstream f(file);
            f << r.failure->replay << '\n';
            const std::string again = fmt::format("flipcheck check --shader {} --entry {} --op {} --format {} --policy {} --workgroup {}",
                                                  quote(a.shader), quote(a.entry), a.op, format, quote(a.policy), w);
            if (f.good()) fmt::print("  repro: {} --case {}\n", again, quote(file));
            else fmt::print("  (could not write {}; put the case line above into a file and pass it to `{}` with --case)\n", file, again);
            row["case"] = r.failure->replay;
            row["explanation"] = r.failure->explanation;
        }
        rows.push_back(row);
        std::fflush(stdout);
    }
    print_verdict_line(tally_verdict("workgroup size", failed, rows.size(), sizes.size(), false));
    json_file("--json", a.json).write(all_passed ? "pass" : "fail", {{"device", sh::vulkan::get().info().text()}, {"checks", rows}});
    return all_passed ? exit_pass : exit_fail;
}

}  // namespace

int run_shader_check(const check_args& a) {
    if (!a.plugin.empty()) throw input_error("give --plugin or --shader, not both");
    if (!a.cpu_targets.empty() || a.rounding != "to_nearest")
        throw input_error("--cpu-targets and --rounding are for a plug-in (--plugin): a shader runs on the Vulkan device");
    if (a.mapping && !a.op.empty()) throw input_error("--mapping sweeps a mapping; --op is for a reducer: give one");
    if (!a.mapping && !a.keys.empty()) throw input_error("--keys is for a shader mapping (--mapping)");
    // The compiler and the device run in a process of their own (isolated.hpp; Vulkan is first
    // touched in the child, as it does not survive a fork): a shader that loops forever, or that
    // crashes the compiler or the driver, is its check's failure, never a hang of flipcheck.
    const isolated::outcome o = isolated::run(
        [&] {
            try {
                const sh::source src = source_of(a);
                return std::to_string(a.mapping ? check_mapping_shader(a, src) : check_reducer_shader(a, src));
            } catch (const sh::compile_error& e) {
                throw input_error(e.what());
            } catch (const sh::vulkan_unavailable& e) {
                // Not a skip: the user asked for this shader to run. Exit 3, as for a device that fails.
                fmt::print(stderr, "flipcheck: no Vulkan device to run the shader on: {}\n", e.what());
                return std::to_string(exit_device);
            } catch (const sh::vulkan_error& e) {
                fmt::print(stderr, "flipcheck: the Vulkan device failed: {}\n", e.what());
                return std::to_string(exit_device);
            }
        },
        a.timeout, "shader " + a.shader);
    if (o.finished()) return std::stoi(o.result);
    if (o.how == isolated::outcome::end::stopped) {
        print_verdict_line(fmt::format("INTERRUPTED: the check of {} was stopped", a.shader));
        return exit_for_stop();
    }
    fmt::print("shader {}: FAIL: {}{}{}\n", a.shader, o.how == isolated::outcome::end::threw ? "" : "its check ", o.what,
               o.stage.empty() ? "" : " during " + o.stage);
    print_verdict_line("FAIL: the check of the shader did not finish");
    json_file("--json", a.json).write("fail", {{"shader", a.shader}, {"what", o.what}, {"stage", o.stage}});
    return exit_fail;
}

std::vector<audit_subject> shader_audit_subjects(std::vector<std::string>& versions) {
    try {
        const auto& info = sh::vulkan::get().info();
        versions.push_back("Vulkan: " + info.text() + fmt::format(" (denormals: {}{}; signed zero, inf, NaN preserved on request: {})",
                                                                   info.denorm_preserve32 ? "can preserve" : "cannot promise to preserve",
                                                                   info.denorm_flush32 ? ", can flush" : "", info.signed_zero_inf_nan32 ? "yes" : "no"));
        std::vector<audit_subject> rows;
        for (const char* name : {"driver_max", "driver_min", "seed001_interlocked_max", "seed001_interlocked_min"}) {
            const auto& entry = sh::shader_subject_named(name);
            auto compiled = std::make_shared<sh::compiled_reducer>(sh::compile_reducer(sh::reducer_of(entry), 64));
            const std::string row = entry.audit_only ? fmt::format("shader {}() on {}", entry.op == reduce_op::max ? "max" : "min", info.driver)
                                                     : fmt::format("shader {} on {}", entry.name, info.driver);
            rows.push_back({row, info.name, entry.op, false, [compiled](const audit::input& xs) -> std::optional<std::uint64_t> {
                                const std::vector<std::uint32_t> words(xs.begin(), xs.end());
                                const auto got = sh::reduce_arrays(*compiled, {words})[0];
                                return got ? std::optional<std::uint64_t>(*got) : std::nullopt;
                            }, "binary32", "--shaders"});
        }
        return rows;
    } catch (const sh::vulkan_unavailable& e) {
        throw device_error(std::string("no Vulkan device for the shader rows: ") + e.what());
    } catch (const sh::vulkan_error& e) {
        throw device_error(std::string("the Vulkan device failed: ") + e.what());
    }
}

std::string shader_list() {
    std::string out = "\nshader subjects (shader/shaders/, run through Vulkan by the shader tests and `flipcheck check --shader`;\n"
                      "the known-wrong ones must fail):\n";
    for (const auto& e : sh::shader_subjects())
        out += fmt::format("  0x{:02x} {:<34} {} {}, declares {}{}: {} [{}]\n", e.id, e.name, e.format, to_string(e.op), to_string(e.declared, false),
                           e.audit_only ? " (audited, not judged)" : e.known_wrong ? " (known wrong)" : "", e.description, e.origin);
    out += "shader mappings (swept over binary32's keys on the device, held against the CPU's sweep of the C++ twin):\n";
    for (const auto& m : sh::mapping_shaders())
        out += fmt::format("  {:<39} {} (twin: {}){}\n", m.name, m.description, m.cpu_twin, m.known_wrong ? " (known wrong)" : "");
    // No device is opened here: listing needs none (`flipcheck check --shader` names the device).
    return out;
}

}  // namespace flipcheck::cli
