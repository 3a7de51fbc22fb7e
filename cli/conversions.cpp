// `flipcheck audit --conversions`: the conversion table (run/conversions.hpp), in text, Markdown
// (docs/conversions.md's sections) and JSON. An audit states what each conversion does; it exits
// 0 whatever the frameworks do, 2 on bad input (a broken adapter), 3 when the device fails.
#include <algorithm>
#include <set>

#include <atomic>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "audit.hpp"
#include "progress.hpp"
#include "flipcheck/run/adapter.hpp"
#include "flipcheck/run/conversions.hpp"
#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::cli {

using namespace flipcheck::run;

namespace {

std::string policy_or(const std::optional<quantize_policy>& p, const char* none) { return p ? run::to_string(*p) : none; }

std::string does_words(const conversion_row& r) {
    if (r.does) return run::to_string(*r.does);
    if (r.nearest) return "none of the declarable policies (nearest: " + run::to_string(*r.nearest) + ")";
    return "not what it declares (below)";
}

// The verdict on the domain, under the policy the row was judged under.
std::string verdict(const conversion_row& r) {
    const std::string under = "under " + run::to_string(r.under) + ": ";
    if (r.report.passed()) return under + fmt::format("agrees on all {} inputs", r.report.checks);
    return under + "disagrees: " + r.report.counterexample.value_or("");
}

// audit.cpp's cell, with a "|" in a name or a counterexample kept from ending the cell.
std::string table_cell(std::string s) {
    for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.replace(at, 1, "\\|");
    return cell(std::move(s));
}

nlohmann::json to_json(const conversion_row& r) {
    nlohmann::json j{{"name", r.name},           {"library", r.library},
                     {"from", r.from},           {"to", r.to},
                     {"declares", policy_or(r.declares, "")}, {"does", r.does ? run::to_string(*r.does) : ""},
                     {"nearest", r.nearest ? run::to_string(*r.nearest) : ""}, {"under", run::to_string(r.under)},
                     {"domain", r.report.domain}, {"exhaustive", r.report.exhaustive},
                     {"checks", r.report.checks}, {"passed", r.report.passed()},
                     {"seconds", r.seconds}};
    if (r.report.counterexample) j["counterexample"] = *r.report.counterexample;
    if (!r.documented_differs.empty()) j["documented_differs"] = r.documented_differs;
    return j;
}

}  // namespace

int run_conversion_audit(const audit_options& o, backend b, const json_file& json) {
    const bool every = !o.quick;
    const auto commands = conversion_adapter_commands(o.adapters, o.default_adapters, b);
    // The GPU rows are flipcheck's and CUDA's (gpu/every_input.hpp): --frameworks-only leaves them out.
    const bool device_rows = b == backend::gpu && !o.frameworks_only;
    if (commands.empty() && !device_rows) throw input_error("--conversions with --no-default-adapters and no --adapter leaves nothing to audit");
    const bool md = o.markdown;
    const std::string section = b == backend::gpu ? "GPU" : "CPU";
    if (md) {
        fmt::print("<!-- conversions:{}:begin -->\n## {} (`flipcheck audit --conversions --markdown --device {}{}{}`, {})\n\n", section, section,
                   b == backend::gpu ? "gpu" : "cpu", o.frameworks_only ? " --frameworks-only" : "", every ? "" : " --quick", today());
        fmt::print("- {}\n", host_cpu());
    } else {
        fmt::print("flipcheck audit --conversions: what each float conversion does, on {}\n  {}\n",
                   every ? "every binary32 input" : "the sampled domain (--quick)", host_cpu());
    }
    if (md) {
        fmt::print("\n| conversion | library | to | documents | does (sampled classification) | under that, on {} | seconds |\n",
                   every ? "every binary32 input" : "the sample");
        fmt::print("|---|---|---|---|---|---|---|\n");
    }
    std::fflush(stdout);
    nlohmann::json rows = nlohmann::json::array();
    // Each row as soon as it is judged: a stopped or failing audit keeps what it showed.
    std::vector<conversion_row> judged;
    const auto show = [&](const conversion_row& r) {
        judged.push_back(r);
        rows.push_back(to_json(r));
        const std::string v = verdict(r);
        std::string documents = policy_or(r.declares, md ? "-" : "(nothing declared)");
        if (!r.documented_differs.empty()) documents += "; not on the sample: " + r.documented_differs;
        if (md) {
            fmt::print("| {} | {} | {} | {} | {} | {} | {:.1f} |\n", table_cell(r.name), table_cell(r.library), r.to, table_cell(documents), does_words(r), table_cell(v),
                       r.seconds);
        } else {
            fmt::print("\n{} ({}, {} -> {})\n", r.name, r.library, r.from, r.to);
            fmt::print("  {:<13} {}\n", "documents", documents);
            fmt::print("  {:<13} {}\n", "does", does_words(r));
            fmt::print("  {:<13} {} ({}, {:.1f} s)\n", r.report.exhaustive ? "every input" : "sampled", v, r.report.domain, r.seconds);
        }
        std::fflush(stdout);
    };
    std::vector<std::string> not_run;
    {
        // How many rows are judged so far (each adapter lists its own, so there is no total to show).
        std::atomic<std::uint64_t> shown = 0;
        heartbeat::options h;
        h.how_far = [&] { return work_done{shown.load(), 0}; };
        h.unit = "rows judged";
        h.capture_stdout = true;
        const heartbeat beat("the conversions", std::move(h));
        not_run = audit_conversions(commands, every, [&](const conversion_row& r) { show(r), ++shown; });
        if (device_rows)
            for (const auto& r : gpu_backend::conversion_rows()) show(r), ++shown;
    }
    if (md && !not_run.empty()) fmt::print("\n");
    for (const auto& n : not_run) fmt::print("{}not run: {}\n", md ? "- " : "\n  ", n);
    // Where the rows part ways: for each element, each pair of the policies the rows were judged
    // under, and the smallest input where those two give different codes.
    std::vector<std::string> differ;
    std::set<std::string> pairs;  // one line per element and pair of policies: the first rows that show it
    for (std::size_t i = 0; i < judged.size(); ++i)
        for (std::size_t j = i + 1; j < judged.size(); ++j) {
            const auto &a = judged[i], &b = judged[j];
            const std::string pa = run::to_string(a.under), pb = run::to_string(b.under);
            if (a.to != b.to || pa == pb || !pairs.insert(a.to + "|" + std::min(pa, pb) + "|" + std::max(pa, pb)).second) continue;
            const std::string d = first_difference(a.to, a.under, b.under);
            if (!d.empty()) differ.push_back(fmt::format("{}: {} ({}) and {} ({}) differ first at {}", a.to, a.name, a.library, b.name, b.library, d));
        }
    if (!differ.empty()) {
        fmt::print("{}", md ? "\n### Where the rows differ\n\n" : "\nwhere the rows differ (the smallest input for each pair of policies an element was converted under):\n");
        for (const auto& d : differ) fmt::print("{}{}\n", md ? "- " : "  ", md ? table_cell(d) : d);
    }
    if (md) fmt::print("\n<!-- conversions:{}:end -->\n", section);
    if (json) json.write("done", {{"conversions", rows}, {"not_run", not_run}});
    return 0;
}

}  // namespace flipcheck::cli
