// The audit's SIMD targets (issue 57): a library that dispatches at run time answers differently on
// different targets, so the Highway and NumPy adapters offer each subject once as the library
// dispatches by itself (the unlabelled name; the version names that target) and once per target
// or feature set this CPU allows, labelled. What is tested here is flipcheck's promise only: every
// such row is labelled with what it ran on, every subject has the same targets, and every row gets
// a verdict. What a library does on a target is never asserted: CI machines differ (AVX2 or
// AVX-512), and so do their answers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;
using nlohmann::json;

namespace {

// The audit of the frameworks (`flipcheck audit --frameworks-only` and `adapters`), as JSON; on
// failure {"failed": its output}.
json audit(const std::string& adapters) {
    const auto path = std::filesystem::temp_directory_path() / ("flipcheck_simd_targets_" + std::to_string(getpid()) + ".json");
    const auto r = run_flipcheck("audit --device cpu --frameworks-only --randoms 5 --quick --json '" + path.string() + "' " + adapters);
    json j;
    if (r.exit_code == 0) {
        std::ifstream in(path);
        j = json::parse(in, nullptr, false);
    }
    std::filesystem::remove(path);
    if (r.exit_code != 0 || j.is_discarded()) return json{{"failed", r.output}};
    return j;
}

// "NAME [LABEL]" -> {NAME, LABEL}; an unlabelled name -> {NAME, ""}.
std::pair<std::string, std::string> split_label(const std::string& name) {
    const auto at = name.rfind(" [");
    if (name.empty() || name.back() != ']' || at == std::string::npos) return {name, ""};
    return {name.substr(0, at), name.substr(at + 2, name.size() - at - 3)};
}

struct framework_rows {
    std::string version;                                      // as the adapter wrote it
    bool installed = false;
    std::map<std::string, std::vector<std::string>> labels;   // subject -> its rows' labels ("" unlabelled)
    std::vector<json> rows;
};

framework_rows rows_of(const json& audit, const std::string& framework) {
    framework_rows out;
    for (const auto& f : audit.value("frameworks", json::array()))
        if (f.value("framework", "") == framework) out.installed = f.value("installed", false), out.version = f.value("version", "");
    for (const auto& r : audit.value("rows", json::array())) {
        if (r.value("library", "").rfind(framework + " ", 0) != 0) continue;
        const auto [subject, label] = split_label(r.value("subject", ""));
        out.labels[subject].push_back(label);
        out.rows.push_back(r);
    }
    return out;
}

// The target a library picks by itself, from its version ("1.0.3, dispatches to AVX2", "1.24.2,
// dispatches up to AVX2"): what its unlabelled rows ran on.
std::string own_target(const std::string& version, const std::string& words) {
    const auto at = version.find(words);
    return at == std::string::npos ? std::string() : version.substr(at + words.size());
}

// Every question of the row answered: a verdict without NaN, a NaN and a zero answer, a named
// policy or order (whatever they are).
void expect_judged(const json& r) {
    const std::string name = r.value("subject", "?");
    const bool sort = r.value("kind", "") == "sort";
    EXPECT_TRUE(r.contains("without_nan") && r["without_nan"].is_boolean()) << name << ": no verdict without NaN\n" << r.dump(1);
    for (const char* q : {sort ? "nan_order" : "nan_policy", sort ? "zero_order" : "zero_policy"}) {
        const bool answered = r.contains(q) && r[q].is_object() && !r[q].value("answer", "").empty();
        EXPECT_TRUE(answered) << name << ": " << q << " unanswered\n" << r.dump(1);
    }
    EXPECT_FALSE(r.value(sort ? "named_order" : "named_policy", "").empty()) << name << ": no named " << (sort ? "order" : "policy");
}

const std::regex highway_label("[A-Z0-9_]+(, asked for [A-Z0-9_]+)?");
const std::regex numpy_label("[A-Z0-9_]+ disabled|baseline");

// What a label says was asked for: "SCALAR, asked for AVX3_DL" -> "AVX3_DL", "SSE4" -> "SSE4".
std::string asked(const std::string& label) {
    const auto at = label.find(", asked for ");
    return at == std::string::npos ? label : label.substr(at + 12);
}

}  // namespace

// Highway (its adapter alone: the default adapters' discovery is audit_cli_test's): each subject
// once as Highway dispatches it, then once per target this CPU supports, labelled with the target
// that ran; the same targets for every subject, Highway's own among them.
TEST(audit_simd_targets, every_highway_row_is_labelled_with_its_target_and_judged) {
    const std::string adapter = "--no-default-adapters --adapter '" FLIPCHECK_HIGHWAY_ADAPTER "'";
    const json doc = audit(adapter);
    ASSERT_FALSE(doc.contains("failed")) << doc.value("failed", "");
    const auto hwy = rows_of(doc, "Highway");
    ASSERT_TRUE(hwy.installed) << "flipcheck_highway_adapter is built beside flipcheck (adapters/CMakeLists.txt)";
    const std::string own = own_target(hwy.version, ", dispatches to ");
    ASSERT_TRUE(std::regex_match(own, std::regex("[A-Z0-9_]+"))) << "the version names no target: " << hwy.version;
    ASSERT_GE(hwy.labels.size(), 6u) << "Max, Min and VQSort on float and double";
    std::set<std::string> targets;  // the first subject's, which every other must repeat
    for (const auto& [subject, labels] : hwy.labels) {
        std::set<std::string> these;
        std::size_t unlabelled = 0;
        for (const auto& label : labels) {
            if (label.empty()) {
                ++unlabelled;
                continue;
            }
            EXPECT_TRUE(std::regex_match(label, highway_label)) << subject << " [" << label << "]: not a Highway target";
            EXPECT_TRUE(these.insert(asked(label)).second) << subject << ": two rows for " << asked(label);
        }
        EXPECT_EQ(unlabelled, 1u) << subject << ": one row as Highway dispatches by itself";
        EXPECT_FALSE(these.empty()) << subject << " has no row labelled with a target";
        EXPECT_TRUE(these.count(own)) << subject << ": no row forced to " << own << ", the target Highway picks here";
        if (targets.empty()) targets = these;
        EXPECT_EQ(these, targets) << subject << " was run on other targets than " << hwy.labels.begin()->first;
    }
    for (const auto& r : hwy.rows) expect_judged(r);

    // A labelled row replays by its name.
    const auto& sort_labels = hwy.labels.at("hwy::VQSort ascending <float>");
    const std::string name = "hwy::VQSort ascending <float> [" + sort_labels.back() + "]";
    const auto again = run_flipcheck("audit --device cpu --subject '" + name + "' --case '+0 then -0' " + adapter);
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find("\n" + name + " ("), std::string::npos) << again.output;
    EXPECT_NE(again.output.find("+0 then -0: [+0, -0]"), std::string::npos) << again.output;
}

// NumPy (as the audit runs it by default, with the interpreter it finds): each subject once as
// NumPy dispatches it, then once per feature set disabled (NPY_DISABLE_CPU_FEATURES, a child Python
// each), labelled "[X disabled]" or "[baseline]"; the same sets for every subject (the sets only
// NumPy's 16-bit sort is built for label that subject alone), and a baseline row wherever NumPy
// dispatches past its baseline here.
TEST(audit_simd_targets, every_numpy_row_is_labelled_with_its_feature_set_and_judged) {
    const json doc = audit("");
    ASSERT_FALSE(doc.contains("failed")) << doc.value("failed", "");
    const auto np = rows_of(doc, "NumPy");
    if (!np.installed) GTEST_SKIP() << "NumPy is not installed (scripts/bootstrap installs it)";
    const std::string own = own_target(np.version, ", dispatches up to ");
    ASSERT_TRUE(std::regex_match(own, std::regex("[A-Z0-9_]+|baseline"))) << "the version names no feature: " << np.version;
    ASSERT_GE(np.labels.size(), 21u) << "7 subjects on float16, float32 and float64";
    std::set<std::string> sets;  // every subject's but the float16 sort's, which may have more
    bool first = true;
    for (const auto& [subject, labels] : np.labels) {
        std::set<std::string> these;
        std::size_t unlabelled = 0;
        for (const auto& label : labels) {
            if (label.empty()) {
                ++unlabelled;
                continue;
            }
            EXPECT_TRUE(std::regex_match(label, numpy_label)) << subject << " [" << label << "]: not a feature set";
            EXPECT_TRUE(these.insert(label).second) << subject << ": two rows for [" << label << "]";
        }
        EXPECT_EQ(unlabelled, 1u) << subject << ": one row as NumPy dispatches by itself";
        if (own != "baseline") {
            EXPECT_TRUE(these.count("baseline")) << subject << ": no [baseline] row, and NumPy dispatches up to " << own;
        }
        if (subject == "numpy.sort <float16>") continue;
        if (first) sets = these, first = false;
        EXPECT_EQ(these, sets) << subject << " was run with other feature sets than the other subjects";
    }
    if (np.labels.count("numpy.sort <float16>")) {
        std::set<std::string> sort16;
        for (const auto& label : np.labels.at("numpy.sort <float16>"))
            if (!label.empty()) sort16.insert(label);
        for (const auto& s : sets) EXPECT_TRUE(sort16.count(s)) << "numpy.sort <float16> lacks [" << s << "]";
    }
    for (const auto& r : np.rows) expect_judged(r);
}
