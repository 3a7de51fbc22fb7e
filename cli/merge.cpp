// `flipcheck merge DIR`: a sharded run's manifests (manifest.hpp) into one verdict. It proves what
// it can before it sums: every manifest reads and its digest matches its results; all come from
// one build (the executable's digest), one workload, subject and space, and one shard count; each
// shard's range is exactly its slice of the space; and the slices tile the space, no gap and no
// overlap. Then it sums the counts and reports the smallest counterexample. Exhaustive only when
// the tiling is complete, every shard finished, and the space is the format's whole key space.
//   exit 0  every shard present and passed
//   exit 1  a shard found a failure (the verdict is FAIL even where shards are missing)
//   exit 2  not one run: manifests of different builds, subjects or shard counts, or a shard twice
//   exit 5  shards missing or damaged, no failure among the others: listed, with their reruns
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exit_code.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/run/shell_quote.hpp"
#include "flipcheck/run/sweep_entries.hpp"
#include "manifest.hpp"
#include "output.hpp"
#include "render.hpp"
#include "scale_out.hpp"

namespace flipcheck::cli {

namespace fs = std::filesystem;
__extension__ using u128 = unsigned __int128;  // 2^64 itself: a binary64 space end, a binary32 pair count

namespace {

struct loaded {
    fs::path file;
    nlohmann::json m;
    std::uint64_t index = 0;
};

u128 parse_end(const std::string& text) {
    if (text == "0x10000000000000000") return u128(1) << 64;
    return parse_number(text, "a manifest's range");
}

std::string u128_text(u128 v) {
    if (v >> 64) return fmt::format("2^64 + {}", std::uint64_t(v));
    return std::to_string(std::uint64_t(v));
}

// The shard index a file's name says (shard-00007-of-00016.json), for files that do not parse.
std::optional<std::pair<std::uint64_t, std::uint64_t>> index_from_name(const fs::path& p) {
    unsigned long long i = 0, n = 0;
    char tail[8] = {};
    if (std::sscanf(p.filename().c_str(), "shard-%llu-of-%llu.%5s", &i, &n, tail) == 3 && std::string(tail) == "json") return {{i, n}};
    return std::nullopt;
}

// What must be the same in every manifest of one run, as text for messages.
std::string run_key(const nlohmann::json& m) {
    return nlohmann::json{{"workload", m.at("workload")},
                          {"subject", m.at("subject")},
                          {"space", m.at("space")},
                          {"shard count", m.at("shard").at("count")},
                          {"executable", m.at("build").at("executable_digest")}}
        .dump();
}

std::string differs(const nlohmann::json& a, const nlohmann::json& b) {
    if (a.at("workload") != b.at("workload")) return fmt::format("workload {} vs {}", b.at("workload").dump(), a.at("workload").dump());
    if (a.at("subject") != b.at("subject")) return fmt::format("subject {} vs {}", b.at("subject").dump(), a.at("subject").dump());
    if (a.at("space") != b.at("space")) return fmt::format("space {} vs {}", b.at("space").dump(), a.at("space").dump());
    if (a.at("shard").at("count") != b.at("shard").at("count"))
        return fmt::format("{} shards vs {}", b.at("shard").at("count").dump(), a.at("shard").at("count").dump());
    return fmt::format("another build (executable digest {} vs {}; flipcheck {} commit {})", b.at("build").at("executable_digest").dump(),
                       a.at("build").at("executable_digest").dump(), b.at("build").at("version").dump(), b.at("build").at("commit").dump());
}

// Everything merge reads later, read once here: a manifest whose digest holds but that lacks a
// field (the digest leaves out the build, the device and the rerun command) is damaged, never an
// internal error.
void validate(const nlohmann::json& m) {
    (void)run_key(m);
    const int bits = m.at("key_bits").get<int>();
    if (bits < 1 || bits > 64) throw std::runtime_error("key_bits out of range");
    // The width is the format's, never the file's word: the space's size follows from it.
    const std::string format = m.at("subject").at("format").get<std::string>();
    if (run::format_width(format) != bits)
        throw std::runtime_error(fmt::format("key_bits {} is not the width of {}", bits, format));
    for (const char* part : {"space", "range"})
        for (const char* end : {"begin", "end"}) (void)parse_end(m.at(part).at(end).get<std::string>());
    (void)m.at("shard").at("index").get<std::uint64_t>();
    if (m.at("shard").at("count").get<std::uint64_t>() == 0) throw std::runtime_error("shard count 0");
    for (const char* f : {"version", "commit", "executable_digest"}) (void)m.at("build").at(f).get<std::string>();
    for (const auto& w : m.at("rerun")) (void)w.get<std::string>();
    const auto& r = m.at("result");
    const bool sweep = m.at("workload").get<std::string>() == "sweep";
    if (!sweep && m.at("workload").get<std::string>() != "pairs") throw std::runtime_error("unknown workload");
    for (const char* f : sweep ? std::vector<const char*>{"keys_checked", "failing_keys"} : std::vector<const char*>{"rows_checked", "failing_pairs"})
        (void)r.at(f).get<std::uint64_t>();
    if (sweep)
        for (const auto& [law, n] : r.at("failures_by_law").items()) (void)n.get<std::uint64_t>();
    for (const auto& c : r.at("counterexamples"))
        for (const char* f : sweep ? std::vector<const char*>{"law", "key", "bits", "value", "repro"} : std::vector<const char*>{"a", "b", "actual", "expected"})
            (void)c.at(f).get<std::string>();
    const auto& sub = m.at("subject");
    for (const char* f : sweep ? std::vector<const char*>{"format", "mapping", "laws"} : std::vector<const char*>{"format", "mapping", "op"})
        (void)sub.at(f).get<std::string>();
}

std::string rerun_line(const nlohmann::json& words, std::uint64_t index) {
    std::string out;
    for (const auto& w : words) {
        std::string s = w.get<std::string>();
        for (std::size_t at; (at = s.find("{index}")) != std::string::npos;) s.replace(at, 7, std::to_string(index));
        out += (out.empty() ? "" : " ") + run::quote(s);
    }
    return out;
}

std::string index_list(const std::vector<std::uint64_t>& v) {
    std::string s;
    for (const auto i : v) s += (s.empty() ? "" : ",") + std::to_string(i);
    return s;
}

}  // namespace

int run_merge(const merge_args& a) {
    const fs::path dir = a.dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw input_error(fmt::format("merge: {} is not a folder of manifests", a.dir));
    const json_file out("--json", a.json);
    std::vector<loaded> good;
    struct damaged_file {
        fs::path file;
        std::optional<std::uint64_t> index;
        std::string why;
    };
    std::vector<damaged_file> damaged;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind("shard-", 0) == 0 && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        const auto named = index_from_name(f);
        try {
            // A manifest is a small file: a FIFO would be waited on, a huge file read whole.
            std::error_code fe;
            if (!fs::is_regular_file(f, fe)) throw std::runtime_error("not a regular file");
            if (fs::file_size(f, fe) > (std::uintmax_t(1) << 24)) throw std::runtime_error("over 16 MiB: not a manifest");
            std::ifstream in(f);
            nlohmann::json m = nlohmann::json::parse(in);
            if (m.value("manifest", 0) != manifest_version)
                throw std::runtime_error(fmt::format("not a manifest of version {}", manifest_version));
            if (results_digest(m) != m.at("digest").get<std::string>())
                throw std::runtime_error("its digest does not match its results (the file was changed or cut after it was written)");
            validate(m);
            const std::uint64_t index = m.at("shard").at("index").get<std::uint64_t>();
            if (named && named->first != index) throw std::runtime_error(fmt::format("its name says shard {} but it holds shard {}", named->first, index));
            good.push_back({f, std::move(m), index});
        } catch (const std::exception& e) {
            damaged.push_back({f, named ? std::optional<std::uint64_t>(named->first) : std::nullopt, e.what()});
        }
    }
    if (good.empty()) {
        std::string why = files.empty() ? "no shard-*.json manifests" : fmt::format("{} manifests, none readable", files.size());
        for (const auto& d : damaged) why += fmt::format("\n  {}: {}", d.file.string(), d.why);
        throw input_error(fmt::format("merge: {} in {} (a shard writes one with --manifest {})", why, a.dir, a.dir));
    }
    std::sort(good.begin(), good.end(), [](const loaded& x, const loaded& y) { return x.index < y.index; });
    // One run: the key of the lowest shard is the reference; every other must equal it.
    const nlohmann::json& ref = good.front().m;
    std::vector<std::string> not_one_run;
    for (const auto& g : good)
        if (run_key(g.m) != run_key(ref)) not_one_run.push_back(fmt::format("  {}: {}", g.file.string(), differs(ref, g.m)));
    std::map<std::uint64_t, std::vector<fs::path>> by_index;
    for (const auto& g : good) by_index[g.index].push_back(g.file);
    for (const auto& [i, fs_] : by_index)
        if (fs_.size() > 1) {
            std::string names;
            for (const auto& f : fs_) names += " " + f.filename().string();
            not_one_run.push_back(fmt::format("  shard {} appears {} times:{} (their ranges overlap)", i, fs_.size(), names));
        }
    if (!not_one_run.empty()) {
        std::string all;
        for (const auto& l : not_one_run) all += "\n" + l;
        throw input_error(fmt::format("merge: the manifests in {} are not one run's (compared with {}):{}", a.dir,
                                      good.front().file.filename().string(), all));
    }
    const std::string workload = ref.at("workload");
    const int key_bits = ref.at("key_bits");
    const std::uint64_t count = ref.at("shard").at("count");
    const u128 space_begin = parse_end(ref.at("space").at("begin")), space_end = parse_end(ref.at("space").at("end"));
    // Each shard's range must be its slice of the space (report.hpp's shard::of).
    const key_range space{std::uint64_t(space_begin), std::uint64_t(space_end)};
    for (const auto& g : good) {
        const key_range want = shard{g.index, count}.of(space);
        const u128 b = parse_end(g.m.at("range").at("begin")), e = parse_end(g.m.at("range").at("end"));
        if (g.index >= count || b != want.begin || std::uint64_t(e) != want.end)
            throw input_error(fmt::format("merge: {} says shard {} of {} covers [{}, {}), but that shard is [{:#x}, {}) of the space",
                                          g.file.string(), g.index, count, u128_text(b), u128_text(e), want.begin,
                                          range_end_text(want, key_bits)));
    }
    std::vector<std::uint64_t> missing;
    for (std::uint64_t i = 0, k = 0; i < count; ++i) {
        if (k < good.size() && good[k].index == i) ++k;
        else missing.push_back(i);
    }
    // Sum what the shards checked and found.
    const bool sweep = workload == "sweep";
    u128 checked = 0;  // keys, or rows for pairs
    std::uint64_t failing = 0;
    std::map<std::string, std::uint64_t> by_law;
    std::optional<nlohmann::json> smallest;
    std::optional<std::uint64_t> smallest_shard;
    bool all_finished = true;
    for (const auto& g : good) {
        const auto& r = g.m.at("result");
        const std::uint64_t done = sweep ? r.at("keys_checked").get<std::uint64_t>() : r.at("rows_checked").get<std::uint64_t>();
        const key_range range = shard{g.index, count}.of(space);
        checked += done;
        if (done != range.size()) all_finished = false;
        failing += sweep ? r.at("failing_keys").get<std::uint64_t>() : r.at("failing_pairs").get<std::uint64_t>();
        if (sweep)
            for (const auto& [law, n] : r.at("failures_by_law").items()) by_law[law] += n.get<std::uint64_t>();
        // Shards go in index order and each lists its smallest first: the first one seen is the smallest.
        if (!smallest && !r.at("counterexamples").empty()) {
            smallest = r.at("counterexamples").front();
            smallest_shard = g.index;
        }
    }
    // The whole key space of the format: every key (sweep) or every first operand (pairs). A
    // 64-bit format's space ends at 2^64 - 1 (report.hpp): a range, never all of it.
    const bool whole = space_begin == 0 && space_end == (u128(1) << key_bits);
    const bool complete = missing.empty() && damaged.empty() && all_finished;
    const std::string what = sweep ? fmt::format("sweep of {} on {} (laws: {})", ref.at("subject").at("mapping").get<std::string>(),
                                                 ref.at("subject").at("format").get<std::string>(), ref.at("subject").at("laws").get<std::string>())
                                   : fmt::format("pairs of {} through {}'s {} step", ref.at("subject").at("format").get<std::string>(),
                                                 ref.at("subject").at("mapping").get<std::string>(), ref.at("subject").at("op").get<std::string>());
    const std::string unit = sweep ? "keys" : "rows";
    fmt::print("flipcheck merge {}: {}\n", a.dir, what);
    fmt::print("  space: {} [{:#x}, {}) in {} shards\n", unit, std::uint64_t(space_begin), ref.at("space").at("end").get<std::string>(), count);
    fmt::print("  build: flipcheck {} (commit {}, executable {})\n", ref.at("build").at("version").get<std::string>(),
               ref.at("build").at("commit").get<std::string>(), ref.at("build").at("executable_digest").get<std::string>().substr(0, 16));
    fmt::print("  manifests: {} of {} present, each digest verified; their ranges are their slices of the space, none twice\n",
               good.size(), count);
    const double share = double(checked) / double(u128(1) << key_bits);
    if (sweep)
        fmt::print("  checked: {} keys of 2^{} ({} of the key space){}\n", u128_text(checked), key_bits, human_share(share),
                   whole && complete ? ": every key, exhaustive" : "");
    else
        fmt::print("  checked: {} rows of 2^{}, {:.6g} pairs ({} of the pair space){}\n", u128_text(checked), key_bits,
                   std::ldexp(double(checked), key_bits), human_share(share), whole && complete ? ": every pair, exhaustive" : "");
    if (failing) {
        fmt::print("  failing {}: {}", sweep ? "keys" : "pairs", failing);
        for (const auto& [law, n] : by_law)
            if (n) fmt::print(" {}={}", law, n);
        fmt::print("\n");
    }
    if (smallest) {
        if (sweep)
            fmt::print("  smallest counterexample (shard {}): {} at key {} ({} = {})\n    repro: {}\n", *smallest_shard,
                       smallest->at("law").get<std::string>(), smallest->at("key").get<std::string>(), smallest->at("bits").get<std::string>(),
                       smallest->at("value").get<std::string>(), smallest->at("repro").get<std::string>());
        else
            fmt::print("  smallest counterexample (shard {}): {}({}, {}) gives {}, totalOrder's is {}\n", *smallest_shard,
                       ref.at("subject").at("op").get<std::string>(), smallest->at("a").get<std::string>(), smallest->at("b").get<std::string>(),
                       smallest->at("actual").get<std::string>(), smallest->at("expected").get<std::string>());
    }
    std::vector<std::uint64_t> to_rerun = missing;
    for (const auto& d : damaged) {
        fmt::print("  damaged: {}{}: {}\n", d.file.string(), d.index ? fmt::format(" (shard {})", *d.index) : "", d.why);
        if (d.index && *d.index < count) to_rerun.push_back(*d.index);
    }
    std::sort(to_rerun.begin(), to_rerun.end());
    to_rerun.erase(std::unique(to_rerun.begin(), to_rerun.end()), to_rerun.end());
    if (!missing.empty()) fmt::print("  missing: shard{} {} of {}\n", missing.size() == 1 ? "" : "s", index_list(missing), count);
    if (!to_rerun.empty()) {
        fmt::print("  rerun {}:\n", to_rerun.size() == 1 ? "it" : "them");
        for (const auto i : to_rerun) fmt::print("    {}\n", rerun_line(ref.at("rerun"), i));
        const fs::path script = dir / "flipcheck-array.sbatch";
        if (fs::exists(script, ec))
            fmt::print("    or, with Slurm: sbatch --array={} {}\n", index_list(to_rerun), run::quote(fs::absolute(script, ec).string()));
    }
    const std::string verdict = failing ? "fail" : complete ? "pass" : "incomplete";
    const std::string coverage = whole && complete ? "exhaustive" : complete ? "range" : "partial";
    fmt::print("verdict: {}: {} {} checked ({}), {} failing{}\n", failing ? "FAIL" : complete ? "PASS" : "INCOMPLETE", u128_text(checked), unit,
               coverage, failing, to_rerun.empty() ? "" : fmt::format("; shards to rerun: {}", index_list(to_rerun)));
    nlohmann::json j{{"workload", workload},
                     {"subject", ref.at("subject")},
                     {"space", ref.at("space")},
                     {"key_bits", key_bits},
                     {"shards", {{"count", count}, {"present", good.size()}, {"missing", missing}, {"to_rerun", to_rerun}}},
                     {"checked", u128_text(checked)},
                     {"unit", unit},
                     {"coverage", coverage},
                     {"share", share},
                     {"failing", failing},
                     {"build", ref.at("build")}};
    j["damaged"] = nlohmann::json::array();
    for (const auto& d : damaged) j["damaged"].push_back({{"file", d.file.string()}, {"why", d.why}});
    if (sweep) j["failures_by_law"] = by_law;
    if (smallest) j["smallest_counterexample"] = *smallest;
    j["rerun"] = nlohmann::json::array();
    for (const auto i : to_rerun) j["rerun"].push_back(rerun_line(ref.at("rerun"), i));
    out.write(verdict, j);
    return failing ? exit_fail : complete ? exit_pass : exit_incomplete;
}

}  // namespace flipcheck::cli
