#include "shards.hpp"

#include <unistd.h>

#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "audit.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/run/gpu_backend.hpp"
#include "flipcheck/run/shard_environment.hpp"
#include "manifest.hpp"
#include "render.hpp"

namespace flipcheck::cli {

namespace fs = std::filesystem;

std::vector<std::string> command_words;

chosen_shard choose_shard(const std::string& text) {
    if (text.empty()) return {};
    if (text == "auto") {
        const auto e = run::shard_from_environment();
        return {e.part, e.engine};
    }
    return {run::parse_shard(text), "command line"};
}

key_range parse_range(const std::string& text, const std::string& option) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw input_error(fmt::format("bad {}: expected BEGIN:END (END excluded)", option));
    const key_range r{parse_number(text.substr(0, colon), option + " begin"), parse_number(text.substr(colon + 1), option + " end")};
    if (r.end <= r.begin) throw input_error(fmt::format("bad {}: END must be greater than BEGIN", option));
    return r;
}

std::string device_text(run::backend b, unsigned threads) {
    if (b == run::backend::gpu) return "gpu: " + run::gpu_backend::device_name();
    std::string cpu = host_cpu();
    if (cpu.rfind("host CPU: ", 0) == 0) cpu.erase(0, 10);
    const unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    return fmt::format("cpu: {} ({} thread{})", cpu, n, n == 1 ? "" : "s");
}

namespace {

// The command that reruns shard {index} of this run: the words it was started with, the shard
// explicit, the manifest folder and the executable absolute (a node's working folder differs).
std::vector<std::string> rerun_words(shard part) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    for (std::size_t i = 0; i < command_words.size(); ++i) {
        const std::string& w = command_words[i];
        if (i == 0) {
            out.push_back(ec ? w : self.string());
        } else if (w == "--shard" || w == "--manifest" || w == "--json") {
            if (i + 1 == command_words.size()) break;
            const std::string& v = command_words[++i];
            if (w == "--json") continue;  // each shard's --json would overwrite the others'
            out.push_back(w);
            out.push_back(w == "--shard" ? fmt::format("{{index}}/{}", part.count) : fs::absolute(v, ec).lexically_normal().string());
        } else if (w.rfind("--shard=", 0) == 0) {
            out.push_back(fmt::format("--shard={{index}}/{}", part.count));
        } else if (w.rfind("--manifest=", 0) == 0) {
            out.push_back("--manifest=" + fs::absolute(w.substr(11), ec).lexically_normal().string());
        } else if (w.rfind("--json=", 0) != 0) {
            out.push_back(w);
        }
    }
    return out;
}

void write_one(const std::string& dir, const chosen_shard& s, key_range space, int key_bits, const std::string& workload,
               nlohmann::json subject, const std::string& verdict, nlohmann::json result, key_range range, run::backend b, unsigned threads) {
    shard_result m;
    m.workload = workload;
    m.subject = std::move(subject);
    m.key_bits = key_bits;
    m.space = space;
    m.part = s.part;
    m.range = range;
    m.engine = s.engine;
    m.device = device_text(b, threads);
    m.verdict = verdict;
    m.result = std::move(result);
    m.rerun = rerun_words(s.part);
    write_manifest(dir, m);
}

}  // namespace

void write_sweep_manifest(const std::string& dir, const chosen_shard& s, key_range space, const sweep_report& r, unsigned threads) {
    if (dir.empty() || r.interrupted) return;
    write_one(dir, s, space, r.key_bits, "sweep", {{"format", r.format}, {"mapping", r.mapping}, {"laws", law_list(r.laws)}},
              r.passed() ? "pass" : "fail", to_json(r), r.range, r.backend == "gpu" ? run::backend::gpu : run::backend::cpu, threads);
}

void write_pairs_manifest(const std::string& dir, const chosen_shard& s, key_range space, const pairs_report& r, unsigned threads) {
    if (dir.empty() || r.interrupted) return;
    write_one(dir, s, space, r.key_bits, "pairs", {{"format", r.format}, {"mapping", r.mapping}, {"op", r.op}}, r.passed() ? "pass" : "fail",
              to_json(r), r.rows, r.backend == "gpu" ? run::backend::gpu : run::backend::cpu, threads);
}

}  // namespace flipcheck::cli
