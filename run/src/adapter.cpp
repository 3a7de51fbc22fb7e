// The adapter process: cases out, answers in (adapters/README.md). The cases are exactly the inputs
// the classifiers will ask about (the battery, the random arrays, their reversals, the sort
// battery), in every format the audit takes; each answer is looked up by its input.
#include "flipcheck/run/adapter.hpp"
#include "flipcheck/run/audit_subjects.hpp"
#include "flipcheck/run/child_groups.hpp"
#include "flipcheck/run/shell_quote.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"

namespace flipcheck::run {
namespace {

namespace fs = std::filesystem;
using audit::input;
using audit::word;

// Where the repo's adapters are: $FLIPCHECK_ADAPTERS, an installed copy beside the binary
// (bin/../share/flipcheck/adapters), or the source tree this binary was built from.
fs::path adapter_dir() {
    if (const char* e = std::getenv("FLIPCHECK_ADAPTERS")) return e;
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share" / "flipcheck" / "adapters";
        if (fs::exists(installed / "protocol.py")) return installed;
    }
    return FLIPCHECK_SOURCE_ADAPTERS;
}

// The C++ adapter programs (adapters/*_adapter.cpp): Highway's and the parallel algorithms'. Each is
// beside this binary in the build tree, or in PREFIX/libexec/flipcheck once installed; one that is
// neither (a flipcheck binary copied alone, as to the GPU machine) is left out.
std::vector<std::string> program_adapters() {
    std::vector<std::string> out;
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return out;
    for (const char* name : {"flipcheck_highway_adapter", "flipcheck_pstl_adapter"})
        for (const auto& p : {exe.parent_path() / name, exe.parent_path().parent_path() / "libexec" / "flipcheck" / name})
            if (fs::exists(p, ec)) {
                out.push_back(shell_quote(p.string()));
                break;
            }
    return out;
}

// `where` is made only for a message: an audit reads hundreds of thousands of answers.
template <class Where>
word parse_hex(const nlohmann::json& j, const Where& where) {
    if (!j.is_string()) throw input_error(where() + ": a bit pattern must be a hex string like \"0x3f800000\"");
    const auto& text = j.get_ref<const std::string&>();
    std::uint64_t v = 0;
    if (read_number(text, std::numeric_limits<std::uint64_t>::max(), v)) return v;
    return parse_number(text, where() + ": the bit pattern");  // throws, naming the text
}

struct case_set {
    std::map<input, std::size_t> id;            // input -> case id, per format
    std::map<std::size_t, unsigned> uses;       // case id -> reduce (1) | sort (2): which subjects answer it
};
constexpr unsigned for_reduce = 1, for_sort = 2;

using case_map = std::map<std::string, case_set>;  // format -> its cases

void add_case(case_set& set, std::size_t& next, const input& xs, unsigned use) {
    const auto [it, fresh] = set.id.emplace(xs, next);
    if (fresh) ++next;
    set.uses[it->second] |= use;
}

// Every format present, even with no case: read_answers looks each subject's format up.
case_map empty_cases() {
    case_map out;
    for (const auto& format : audit_formats()) out[format];
    return out;
}

// Every input the reducer and sort classifiers will run, per format, and `extra` (a replay's
// --input) in each format whose width holds its bit patterns.
case_map cases_for(std::size_t randoms, bool device, const std::vector<input>& extra, std::size_t largest_sort) {
    case_map out = empty_cases();
    std::size_t next = 0;
    for (const auto& format : audit_formats()) {
        auto& set = out[format];
        auto add = [&](const input& xs, unsigned use) { add_case(set, next, xs, use); };
        with_audit_format(format, [&]<class F>() {
            const auto nans = made_nans(format, device);
            auto inputs = audit::battery<F>(nans);
            for (auto& r : audit::random_inputs<F>(randoms)) inputs.push_back(std::move(r));
            for (const auto& in : inputs) {
                add(in.xs, for_reduce);
                if (in.xs.size() >= 2 && in.xs.size() <= 64) add(input(in.xs.rbegin(), in.xs.rend()), for_reduce);
            }
            for (const auto& in : audit::sort_battery<F>(nans, std::min<std::size_t>(randoms, 300), largest_sort)) add(in.xs, for_sort);
            for (const auto& xs : extra)
                if (std::all_of(xs.begin(), xs.end(), [](word x) { return x == word(typename F::storage(x)); })) add(xs, for_reduce | for_sort);
        });
    }
    return out;
}

struct parsed_answer {
    std::optional<std::uint64_t> value;  // bits or an index
    std::optional<input> sorted;
    std::string error;                   // what the framework raised, if it did
    std::string skip;                    // why the framework cannot take this input, if it cannot
};

template <class Where>
parsed_answer parse_answer(const nlohmann::json& j, const std::string& kind, const Where& where) {
    parsed_answer a;
    if (j.is_null()) return a;
    if (j.is_object()) {
        if (j.contains("skip") && j["skip"].is_string() && kind != "sort") {
            a.skip = j["skip"].get<std::string>();
            return a;
        }
        if (!j.contains("error") || !j["error"].is_string())
            throw input_error(where() + ": an object answer must be {\"error\": \"...\"} (or, for a reducer, {\"skip\": \"why\"})");
        a.error = j["error"].get<std::string>();
        return a;
    }
    if (kind == "value") a.value = parse_hex(j, where);
    else if (kind == "arg") {
        if (!j.is_number_integer() || j.get<long long>() < 0) throw input_error(where() + ": an arg answer must be a non-negative index");
        a.value = j.get<std::uint64_t>();
    } else {
        if (!j.is_array()) throw input_error(where() + ": a sort answer must be an array of hex bit patterns");
        input xs;
        xs.reserve(j.size());
        for (const auto& e : j) xs.push_back(parse_hex(e, where));
        a.sorted = std::move(xs);
    }
    return a;
}

adapter_result read_answers(const fs::path& path, const std::map<std::string, case_set>& cases, const std::string& command,
                            const std::string& replay) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw input_error(fmt::format("adapter '{}' wrote no answers file", command));
    // Parsed from memory: nlohmann-json reads a stream a character at a time through its buffer.
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw input_error(fmt::format("adapter '{}': its answers are not JSON: {}", command, e.what()));
    }
    const auto need = [&](const nlohmann::json& o, const char* key, const std::string& where) -> const nlohmann::json& {
        if (!o.is_object() || !o.contains(key)) throw input_error(fmt::format("adapter '{}': {} has no \"{}\"", command, where, key));
        return o[key];
    };
    adapter_result r;
    r.framework = need(j, "framework", "the answers").get<std::string>();
    r.installed = need(j, "installed", "the answers").get<bool>();
    r.version = j.value("version", "");
    r.reason = j.value("reason", "");
    if (!r.installed) return r;
    for (const auto& s : need(j, "subjects", "the answers")) {
        const std::string name = need(s, "name", "a subject").get<std::string>(), where = fmt::format("adapter '{}', subject '{}'", command, name);
        const std::string kind = need(s, "kind", where).get<std::string>(), format = need(s, "format", where).get<std::string>();
        if (kind != "value" && kind != "arg" && kind != "sort") throw input_error(where + ": kind must be value, arg or sort");
        const auto set = cases.find(format);
        if (set == cases.end()) throw input_error(where + ": format must be one of binary16, bfloat16, binary32, binary64");
        const auto& answers = need(s, "answers", where);
        if (!answers.is_object()) throw input_error(where + ": \"answers\" must map case ids to answers");
        auto table = std::make_shared<std::map<input, parsed_answer>>();
        std::string empty_note, skip_reason;
        const unsigned use = kind == "sort" ? for_sort : for_reduce;
        for (const auto& [xs, id] : set->second.id) {
            if (!(set->second.uses.at(id) & use)) continue;
            const auto key = std::to_string(id);
            if (!answers.contains(key)) throw input_error(fmt::format("{}: no answer for case {} (every case of its format needs one)", where, id));
            auto a = parse_answer(answers[key], kind, [&] { return fmt::format("{}, case {}", where, id); });
            if (xs.empty() && !a.error.empty()) empty_note = "raises " + a.error;
            if (!a.skip.empty()) skip_reason = a.skip;
            table->emplace(xs, std::move(a));
        }
        auto lookup = [table, where](const input& xs) -> const parsed_answer& {
            const auto it = table->find(xs);
            if (it == table->end())
                throw input_error(where + ": the adapter was not asked about this input");
            return it->second;
        };
        const std::string library = r.framework + " " + r.version;
        if (kind == "sort") {
            r.sorts.push_back({name, library, false, [lookup](const input& xs) { return lookup(xs).sorted; }, format, replay});
            r.sorts.back().answers_any_input = false;
        } else {
            const std::string op = need(s, "op", where).get<std::string>();
            if (op != "max" && op != "min") throw input_error(where + ": op must be max or min");
            audit::subject sub{name, library, op == "max" ? reduce_op::max : reduce_op::min, kind == "arg",
                              [lookup](const input& xs) { return lookup(xs).value; }, format, replay, empty_note};
            sub.answers_any_input = false;
            if (!skip_reason.empty()) {
                sub.skip = [lookup](const input& xs) { return !lookup(xs).skip.empty(); };
                sub.skip_reason = skip_reason;
            }
            r.reducers.push_back(std::move(sub));
        }
    }
    return r;
}

}  // namespace

std::string repo_adapter(const std::string& name) {
    return "{python} " + shell_quote((adapter_dir() / (name + "_adapter.py")).string());
}

std::vector<std::string> adapter_commands(std::vector<std::string> c, bool repo_adapters, backend b) {
    if (!repo_adapters) return c;
    const std::vector<std::string> names = b == backend::gpu ? std::vector<std::string>{"torch", "jax", "cupy", "triton"}
                                                             : std::vector<std::string>{"numpy"};
    for (const auto& n : names) c.push_back(repo_adapter(n));
    if (b != backend::gpu)
        for (auto& p : program_adapters()) c.push_back(std::move(p));
    return c;
}

std::vector<std::string> adapter_runs(const std::string& command) {
    // A repo adapter names no interpreter: try $FLIPCHECK_PYTHON, python3 on PATH, then Debian's
    // /usr/bin/python3, until one imports the framework.
    if (command.rfind("{python} ", 0) != 0) return {command};
    std::vector<std::string> runs;
    const std::string script = command.substr(9);
    if (const char* p = std::getenv("FLIPCHECK_PYTHON")) runs.push_back(shell_quote(p) + " " + script);
    runs.push_back("python3 " + script);
    runs.push_back("/usr/bin/python3 " + script);
    return runs;
}

namespace {

// Writes `cases`, runs `command CASES ANSWERS` (each interpreter adapter_runs lists, until one
// imports the framework) and reads the answers.
adapter_result ask(const std::string& command, const case_map& cases, bool device) {
    const auto dir = fs::temp_directory_path() / fmt::format("flipcheck_adapter_{}", ::getpid());
    fs::create_directories(dir);
    struct cleanup {
        fs::path p;
        ~cleanup() {
            std::error_code ec;
            fs::remove_all(p, ec);
        }
    } removes_the_cases{dir};
    const auto cases_path = dir / "cases.json", answers_path = dir / "answers.json";
    {
        // Written as text, not built as a json tree: the cases hold arrays of up to 100000 elements
        // in every format, and a json node per element made this the audit's slowest step (20 s of
        // an adapter run in the sanitize build).
        struct entry {
            std::size_t id;
            const std::string* format;
            const std::vector<word>* xs;
            unsigned uses;
        };
        std::vector<entry> by_id;
        for (const auto& [format, set] : cases)
            for (const auto& [xs, id] : set.id) by_id.push_back({id, &format, &xs, set.uses.at(id)});
        std::sort(by_id.begin(), by_id.end(), [](const entry& a, const entry& b) { return a.id < b.id; });
        std::string text = "{\"flipcheck_adapter\": 1, \"cases\": [";
        for (const entry& e : by_id) {
            nlohmann::json uses = nlohmann::json::array();
            if (e.uses & for_reduce) uses.push_back("reduce");
            if (e.uses & for_sort) uses.push_back("sort");
            text += fmt::format("{}{{\"id\": {}, \"format\": {}, \"uses\": {}, \"bits\": [", &e == by_id.data() ? "" : ", ", e.id,
                                nlohmann::json(*e.format).dump(), uses.dump());
            for (std::size_t k = 0; k < e.xs->size(); ++k) fmt::format_to(std::back_inserter(text), "{}\"{}\"", k ? ", " : "", hex((*e.xs)[k], 0));
            text += "]}";
        }
        text += "]}\n";
        std::ofstream out(cases_path);
        out << text;
        if (!out.flush()) throw input_error(fmt::format("cannot write the adapter's cases to {}", cases_path.string()));
    }
    const std::vector<std::string> runs = adapter_runs(command);
    adapter_result r;
    for (const auto& run : runs) {
        fs::remove(answers_path);
        const std::string cmd = run + " " + shell_quote(cases_path.string()) + " " + shell_quote(answers_path.string());
        // Its stderr (a framework's warnings) is kept out of the report, and shown if it fails.
        const auto errors = dir / "stderr.txt";
        const int status = run_shell(cmd + " 2> " + shell_quote(errors.string()));
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (code == 127 && &run != &runs.back()) continue;  // no such interpreter: the next one
        if (code != 0) {
            removes_the_cases.p.clear();  // kept, so the command below can be run by hand
            std::ifstream in(errors);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
            throw input_error(fmt::format("adapter '{}' failed (exit {}); its cases are kept, to run it by hand: {}{}", run, code, cmd,
                                          text.empty() ? "" : "\nits stderr:\n" + text));
        }
        // The replay of one of its rows runs the same adapter: the repo's run by default, a user's named.
        std::string replay = device ? "--device gpu" : "";
        const auto programs = program_adapters();
        if (command.rfind("{python} ", 0) != 0 && std::find(programs.begin(), programs.end(), command) == programs.end())
            replay += (replay.empty() ? "" : " ") + std::string("--adapter ") + shell_quote(command);
        r = read_answers(answers_path, cases, run, replay);
        r.run = run;
        if (r.installed) break;
    }
    return r;
}

}  // namespace

adapter_result run_adapter(const std::string& command, std::size_t randoms, bool device, const std::vector<audit::input>& extra,
                           std::size_t largest_sort) {
    auto r = ask(command, cases_for(randoms, device, extra, largest_sort), device);
    r.randoms = randoms;
    r.largest_sort = largest_sort;
    return r;
}

void shrink_witnesses(const adapter_result& f, std::vector<audit::report>& reducers, std::vector<audit::sort_report>& sorts, bool device,
                      std::size_t rounds, double seconds) {
    if (!f.installed) return;
    // Half the time for the reducers' witnesses, half for the sorts'.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds / 2);
    bool broken = false;  // the adapter failed in a round: the witnesses stay as they are
    const auto in_time = [&] { return !broken && std::chrono::steady_clock::now() < deadline; };
    // A round's answers, or none where the adapter fails: the audit's rows are already judged, and
    // a failure while shrinking must not lose them (it is said on stderr instead).
    const auto ask_again = [&](const case_map& cases) -> std::optional<adapter_result> {
        try {
            return ask(f.run, cases, device);
        } catch (const input_error& e) {
            if (!broken) fmt::print(stderr, "flipcheck: {}'s witnesses are left unshrunk: {}\n", f.framework, e.what());
            broken = true;
            return std::nullopt;
        }
    };
    // The subject of the same name and format in a round's answers.
    const auto in = [](const auto& list, const auto& s) {
        const auto it = std::find_if(list.begin(), list.end(), [&](const auto& t) { return t.name == s.name && t.format == s.format; });
        if (it == list.end()) throw input_error(fmt::format("adapter '{}' left out subject '{}' when asked again", s.library, s.name));
        return it;
    };
    {
        std::vector<audit::witness<audit::observation>> ws;
        std::vector<std::size_t> owner;
        for (std::size_t i = 0; i < f.reducers.size(); ++i)
            with_audit_format(f.reducers[i].format, [&]<class F>() {
                for (auto& w : audit::witnesses<F>(reducers.at(i), f.reducers[i].op, f.reducers[i].arg)) {
                    ws.push_back(std::move(w));
                    owner.push_back(i);
                }
            });
        audit::shrink_witnesses_together(ws, [&](const std::vector<std::pair<std::size_t, input>>& steps) {
            case_map cases = empty_cases();
            std::size_t next = 0;
            for (const auto& [k, xs] : steps) add_case(cases[f.reducers[owner[k]].format], next, xs, for_reduce);
            std::vector<audit::answer> got;
            const auto r = ask_again(cases);
            if (!r) return std::vector<audit::answer>(steps.size());
            for (const auto& [k, xs] : steps) {
                const auto s = in(r->reducers, f.reducers[owner[k]]);
                got.push_back(s->skip && s->skip(xs) ? std::nullopt : s->run(xs));
            }
            return got;
        }, rounds, in_time);
    }
    deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds / 2);
    std::vector<audit::witness<audit::sort_observation>> ws;
    std::vector<std::size_t> owner;
    for (std::size_t i = 0; i < f.sorts.size(); ++i)
        with_audit_format(f.sorts[i].format, [&]<class F>() {
            for (auto& w : audit::witnesses<F>(sorts.at(i))) {
                ws.push_back(std::move(w));
                owner.push_back(i);
            }
        });
    audit::shrink_witnesses_together(ws, [&](const std::vector<std::pair<std::size_t, input>>& steps) {
        case_map cases = empty_cases();
        std::size_t next = 0;
        for (const auto& [k, xs] : steps) add_case(cases[f.sorts[owner[k]].format], next, xs, for_sort);
        std::vector<std::optional<input>> got;
        const auto r = ask_again(cases);
        if (!r) return std::vector<std::optional<input>>(steps.size());
        for (const auto& [k, xs] : steps) got.push_back(sort_answer(*in(r->sorts, f.sorts[owner[k]]), xs));
        return got;
    }, rounds, in_time);
}

}  // namespace flipcheck::run
