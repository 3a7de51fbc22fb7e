// The conversion table (run/conversions.hpp): adapters' conversions, classified on the sampled
// domain, then judged on every binary32 input as their codes stream in.
#include "flipcheck/run/conversions.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/run/adapter.hpp"
#include "flipcheck/run/child_groups.hpp"
#include "flipcheck/run/shell_quote.hpp"

namespace flipcheck::run {
namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

// Calls fn.template operator()<E>() for the element format named so; false if none is.
template <class Fn>
bool with_element(const std::string& name, Fn&& fn) {
    bool found = false;
    auto visit = [&]<class E>() {
        if (!found && E::name == name) found = true, fn.template operator()<E>();
    };
    registry::for_each<registry::quantizer_elements>([&]<class Entry>() { visit.template operator()<typename Entry::type>(); });
    visit.template operator()<binary16>();
    visit.template operator()<bfloat16>();
    return found;
}

// Every policy a conversion may be found to do, in the order ties go by.
std::vector<quantize_policy> all_policies() {
    std::vector<quantize_policy> out;
    for (rounding r : {rounding::nearest_even, rounding::toward_zero, rounding::up})
        for (saturation s : {saturation::finite, saturation::infinity, saturation::nan}) out.push_back({r, s});
    return out;
}
bool same(quantize_policy a, quantize_policy b) { return a.round == b.round && a.saturate == b.saturate; }

// The walk's order of binary32 inputs: magnitude, then + before -.
bool walk_order(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t ra = std::uint64_t(a & 0x7fffffffu) * 2 + (a >> 31), rb = std::uint64_t(b & 0x7fffffffu) * 2 + (b >> 31);
    return ra < rb;
}

quantize_policy parse_policy(const nlohmann::json& j, const std::string& where) {
    const auto word = [&](const char* key) {
        if (!j.is_object() || !j.contains(key) || !j[key].is_string())
            throw input_error(where + ": \"declares\" must be {\"round\": ..., \"saturate\": ...}");
        return j[key].get<std::string>();
    };
    quantize_policy p;
    const std::string r = word("round"), s = word("saturate");
    bool ok_r = false, ok_s = false;
    for (rounding x : {rounding::nearest_even, rounding::toward_zero, rounding::up})
        if (to_string(x) == r) p.round = x, ok_r = true;
    for (saturation x : {saturation::finite, saturation::infinity, saturation::nan})
        if (to_string(x) == s) p.saturate = x, ok_s = true;
    if (!ok_r) throw input_error(where + ": round must be nearest_even, toward_zero or up, not '" + r + "'");
    if (!ok_s) throw input_error(where + ": saturate must be finite, infinity or nan, not '" + s + "'");
    return p;
}

struct temp_dir {
    fs::path p = fs::temp_directory_path() / fmt::format("flipcheck_conversions_{}", ::getpid());
    temp_dir() { fs::create_directories(p); }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(p, ec);
    }
};

std::string text_of(const fs::path& p) {
    std::ifstream in(p);
    std::string t((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (t.size() > 2000) t = "..." + t.substr(t.size() - 2000);
    return t;
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

void fail(const std::string& cmd, int code, const fs::path& errors) {
    const std::string t = text_of(errors);
    throw input_error(fmt::format("adapter command failed (exit {}): {}{}", code, cmd, t.empty() ? "" : "\nits stderr:\n" + t));
}

struct listed {
    std::string run, framework, version, reason;
    bool installed = false;
    nlohmann::json conversions;
    std::vector<std::string> left_out;  // "name (why)": conversions the framework cannot run here
};

// `RUN --conversions LIST`, by the first interpreter that imports the framework.
listed list_conversions(const std::string& command, const temp_dir& dir) {
    listed out;
    const auto runs = adapter_runs(command);
    for (const auto& run : runs) {
        const auto list = dir.p / "list.json", errors = dir.p / "stderr.txt";
        fs::remove(list);
        const std::string cmd = run + " --conversions " + shell_quote(list.string());
        const int code = exit_code(run_shell(cmd + " 2> " + shell_quote(errors.string())));
        if (code == 127 && &run != &runs.back()) continue;
        if (code != 0) fail(cmd, code, errors);
        nlohmann::json j;
        try {
            std::ifstream in(list);
            if (!in) throw input_error(fmt::format("adapter '{}' wrote no conversions list", cmd));
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
            throw input_error(fmt::format("adapter '{}': its conversions list is not JSON: {}", cmd, e.what()));
        }
        if (!j.is_object() || !j.contains("framework") || !j.contains("installed"))
            throw input_error(fmt::format("adapter '{}': the conversions list needs \"framework\" and \"installed\"", cmd));
        out = {run, j["framework"].get<std::string>(), j.value("version", ""), j.value("reason", ""), j["installed"].get<bool>(), {}, {}};
        if (!out.installed) continue;  // another interpreter may have it
        if (!j.contains("conversions") || !j["conversions"].is_array())
            throw input_error(fmt::format("adapter '{}': \"conversions\" must be a list", cmd));
        out.conversions = j["conversions"];
        if (j.contains("left_out") && j["left_out"].is_array())
            for (const auto& x : j["left_out"])
                if (x.is_object() && x.contains("name") && x["name"].is_string())
                    out.left_out.push_back(x["name"].get<std::string>() + " (" + x.value("reason", "") + ")");
        break;
    }
    return out;
}

// One listed conversion, as the adapter named it, and its element's judge.
struct conversion {
    std::string name, to;
    std::optional<quantize_policy> declares;
    std::size_t code_bytes = 1;
    std::vector<std::uint32_t> (*sample)() = nullptr;  // the element's sampled domain, + then - a magnitude
    // The row from the sampled codes (classification, and the report on the sample).
    conversion_row (*classify)(const conversion&, const std::vector<std::uint32_t>& inputs, const unsigned char* codes) = nullptr;
    // The report on every input, codes read from `in` (2^32 of them).
    scaling_report (*every)(quantize_policy, std::FILE* in) = nullptr;
};

template <class E>
std::vector<std::uint32_t> sample_inputs() {
    std::vector<std::uint32_t> x;
    for (std::uint32_t m : quantize_check::sampled_binary32<E>()) x.push_back(m), x.push_back(m | 0x80000000u);
    return x;
}

// inputs: the sample of every conversion of the adapter together, in walk order; codes: this
// conversion's code for each of them.
template <class E>
conversion_row classify(const conversion& c, const std::vector<std::uint32_t>& inputs, const unsigned char* raw) {
    using C = code_t<E>;
    conversion_row row{c.name, "", "binary32", std::string(E::name), c.declares, {}, {}, {}, {}, {}, 0};
    const auto code_at = [&](std::size_t i) {
        C v;
        std::memcpy(&v, raw + i * sizeof(C), sizeof(C));
        return v;
    };
    const auto lookup = [&](std::uint32_t x) {
        const auto i = std::size_t(std::lower_bound(inputs.begin(), inputs.end(), x, walk_order) - inputs.begin());
        return code_at(i);
    };
    // The policy whose oracle gives the fewest different codes on this element's sample (none: it
    // does that policy there). Elements without NaNs have no answer for a NaN input: not counted.
    const std::vector<std::uint32_t> mine = sample_inputs<E>();
    std::optional<quantize_policy> best;
    std::size_t best_wrong = ~std::size_t(0);
    for (quantize_policy p : all_policies()) {
        if (!can_declare<E>(p)) continue;
        std::size_t wrong = 0;
        for (std::uint32_t x : mine) {
            const double v = double(bit_cast<float>(x));
            if (E::nans == nan_encoding::none && v != v) continue;
            wrong += !quantize_check::same_code<E>(lookup(x), oracle::quantize<E>(p, v));
        }
        if (wrong < best_wrong) best_wrong = wrong, best = p;
    }
    if (best_wrong == 0) row.does = best;
    else row.nearest = best;
    row.under = *best;
    if (c.declares && !same(*c.declares, row.under))
        row.documented_differs = check_quantizer_of<binary32, E>(*c.declares, lookup, {}, mine).counterexample.value_or("");
    row.report = check_quantizer_of<binary32, E>(row.under, lookup, {}, mine);
    row.report.domain = "every code, midpoint and threshold of " + std::string(E::name) +
                        " and their binary32 neighbours, every bfloat16 pattern, both signs (sampled: " + std::to_string(mine.size()) +
                        " inputs)";
    return row;
}

template <class E>
scaling_report every(quantize_policy p, std::FILE* in) {
    using C = code_t<E>;
    return check_quantizer_codes<E>(p, [in](C* dst, std::uint64_t n) { return std::fread(dst, sizeof(C), n, in); });
}

template <class E>
conversion conversion_to(std::string name, std::optional<quantize_policy> declares) {
    return {std::move(name), std::string(E::name), declares, sizeof(code_t<E>), &sample_inputs<E>, &classify<E>, &every<E>};
}

void write_names(const fs::path& p, const std::vector<conversion>& cs) {
    std::ofstream f(p);
    for (const auto& c : cs) f << c.name << "\n";
    if (!f.flush()) throw input_error("cannot write " + p.string());
}

// Every conversion of one adapter: one process for the sample, one for every input.
void judge_adapter(const listed& l, const std::vector<conversion>& cs, bool all_inputs, const temp_dir& dir,
                   const std::function<void(conversion_row)>& on_row) {
    if (cs.empty()) return;
    const auto started = clock_type::now();
    const std::string errors = shell_quote((dir.p / "stderr.txt").string());
    const auto names = dir.p / "names.txt", in_path = dir.p / "inputs.bin", out_path = dir.p / "codes.bin";
    write_names(names, cs);
    // The sample: every conversion's sampled inputs together, in walk order, converted in one run.
    std::vector<std::uint32_t> inputs;
    for (const auto& c : cs)
        for (std::uint32_t x : c.sample()) inputs.push_back(x);
    std::sort(inputs.begin(), inputs.end(), walk_order);
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    {
        std::ofstream f(in_path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(inputs.data()), std::streamsize(inputs.size() * 4));
        if (!f.flush()) throw input_error("cannot write " + in_path.string());
    }
    fs::remove(out_path);
    const std::string cmd = l.run + " --convert " + shell_quote(names.string()) + " " + shell_quote(in_path.string()) + " " +
                            shell_quote(out_path.string());
    if (const int code = exit_code(run_shell(cmd + " 2> " + errors)); code != 0) fail(cmd, code, dir.p / "stderr.txt");
    std::size_t want = 0;
    for (const auto& c : cs) want += inputs.size() * c.code_bytes;
    std::vector<unsigned char> raw(want);
    {
        std::ifstream f(out_path, std::ios::binary);
        f.read(reinterpret_cast<char*>(raw.data()), std::streamsize(want));
        if (std::size_t(f.gcount()) != want || f.peek() != EOF)
            throw input_error(fmt::format("adapter command '{}' must write {} bytes: {} codes for each of its {} conversions", cmd, want,
                                          inputs.size(), cs.size()));
    }
    std::vector<conversion_row> rows;
    std::size_t at = 0;
    for (const auto& c : cs) {
        rows.push_back(c.classify(c, inputs, raw.data() + at));
        rows.back().library = l.framework + " " + l.version;
        at += inputs.size() * c.code_bytes;
    }
    const double sample_seconds = std::chrono::duration<double>(clock_type::now() - started).count() / double(cs.size());
    if (!all_inputs) {
        for (auto& r : rows) r.seconds = sample_seconds, on_row(std::move(r));
        return;
    }
    // Every input: each conversion's codes stream in turn through one pipe as the adapter makes them.
    const std::string every_cmd = l.run + " --convert " + shell_quote(names.string()) + " every -";
    shell_pipe child = open_shell_pipe(every_cmd + " 2> " + errors);
    std::FILE* pipe = child.out;
    if (!pipe) throw input_error("cannot run " + every_cmd);
    for (std::size_t k = 0; k < cs.size(); ++k) {
        const auto t0 = clock_type::now();
        try {
            rows[k].report = cs[k].every(rows[k].under, pipe);
        } catch (const input_error& e) {
            close_shell_pipe(child);
            throw input_error(fmt::format("adapter command '{}', conversion '{}': {}", every_cmd, cs[k].name, e.what()));
        }
        rows[k].report.subject = cs[k].name;
        rows[k].seconds = sample_seconds + std::chrono::duration<double>(clock_type::now() - t0).count();
        on_row(rows[k]);
    }
    char extra;
    const bool more = std::fread(&extra, 1, 1, pipe) == 1;
    if (const int code = exit_code(close_shell_pipe(child)); code != 0) fail(every_cmd, code, dir.p / "stderr.txt");
    if (more) throw input_error(fmt::format("adapter command '{}' wrote more than 2^32 codes a conversion", every_cmd));
}

}  // namespace

std::string to_string(quantize_policy p) {
    return std::string(flipcheck::to_string(p.round)) + ", saturation " + std::string(flipcheck::to_string(p.saturate));
}

std::vector<std::string> conversion_adapter_commands(std::vector<std::string> c, bool repo_adapters, backend b) {
    if (!repo_adapters) return c;
    std::vector<std::string> names{"numpy"};
    if (b == backend::gpu) names.insert(names.end(), {"torch", "jax", "ml_dtypes", "triton"});
    for (const auto& n : names) c.push_back(repo_adapter(n));
    return c;
}

std::string first_difference(const std::string& element, quantize_policy a, quantize_policy b) {
    std::string out;
    with_element(element, [&]<class E>() {
        // The policies' answers change only at the sample's points (every code, midpoint and
        // threshold, and their neighbours), so the first sampled input where they differ is the first.
        for (std::uint32_t x : sample_inputs<E>()) {
            const double v = double(bit_cast<float>(x));
            if (v != v && E::nans == nan_encoding::none) continue;
            const auto ca = oracle::quantize<E>(a, v), cb = oracle::quantize<E>(b, v);
            if (quantize_check::same_code<E>(ca, cb)) continue;
            out = show<binary32>(x) + ": " + show<E>(ca) + " under " + to_string(a) + ", " + show<E>(cb) + " under " + to_string(b);
            return;
        }
    });
    return out;
}

std::vector<std::string> audit_conversions(const std::vector<std::string>& commands, bool every,
                                           const std::function<void(conversion_row)>& on_row) {
    std::vector<std::string> not_run;
    const temp_dir dir;
    for (const auto& command : commands) {
        const listed l = list_conversions(command, dir);
        if (!l.installed) {
            not_run.push_back(l.framework + ": " + (l.reason.empty() ? "not installed" : l.reason));
            continue;
        }
        for (const auto& x : l.left_out) not_run.push_back(l.framework + " " + l.version + ": " + x);
        std::vector<conversion> cs;
        for (const auto& c : l.conversions) {
            const std::string where = fmt::format("adapter '{}', a conversion", l.run);
            if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("from") || !c.contains("to"))
                throw input_error(where + ": each needs \"name\", \"from\" and \"to\"");
            const std::string name = c["name"].get<std::string>(), from = c["from"].get<std::string>(), to = c["to"].get<std::string>();
            if (name.empty() || name.find('\n') != std::string::npos) throw input_error(where + ": a name must be one non-empty line");
            if (from != "binary32") throw input_error(where + " '" + name + "': \"from\" must be binary32 (the only input audited)");
            std::optional<quantize_policy> declares;
            if (c.contains("declares")) declares = parse_policy(c["declares"], where + " '" + name + "'");
            const bool known = with_element(to, [&]<class E>() { cs.push_back(conversion_to<E>(name, declares)); });
            if (!known)
                throw input_error(where + " '" + name + "': \"to\" must be one of float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, "
                                                        "float8_e5m2fnuz, float6_e2m3fn, float6_e3m2fn, float4_e2m1fn, binary16, bfloat16");
        }
        judge_adapter(l, cs, every, dir, on_row);
    }
    return not_run;
}

}  // namespace flipcheck::run
