// `flipcheck audit` as a user runs it: the questions answered in order with witnesses and replay
// commands, the replay itself, the adapter process (good, missing, broken and wrong frameworks),
// and docs/audit.md's CPU section kept current.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

namespace {

std::string block(const std::string& out, const std::string& heading) {
    const auto at = out.find("\n" + heading + " (");
    if (at == std::string::npos) return {};
    return out.substr(at + 1, out.find("\n\n", at + 1) - at - 1);
}

std::filesystem::path script(const std::string& name, const std::string& body) {
    const auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p) << body;
    return p;
}

}  // namespace

TEST(audit_cli, every_cpu_subject_answers_the_questions_in_order_with_witnesses) {
    const auto r = run_flipcheck("audit --device cpu --randoms 100 --quick --no-default-adapters");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("libstdc++"), std::string::npos);  // versions are printed
    EXPECT_NE(r.output.find("made NaNs (binary32): x86 0/0 = 0xffc00000"), std::string::npos) << r.output;
    const auto max = block(r.output, "std::max fold");
    ASSERT_FALSE(max.empty()) << r.output;
    // The questions, in the user's order.
    const auto w = max.find("without NaN"), n = max.find("NaN  "), z = max.find("zeros"), e = max.find("n = 0");
    EXPECT_TRUE(w < n && n < z && z < e) << max;
    EXPECT_NE(max.find("without NaN   yes"), std::string::npos) << max;
    EXPECT_NE(max.find("zeros         equal"), std::string::npos) << max;
    EXPECT_NE(max.find("not ordered: -0 then +0: [-0, +0] -> 0x80000000 = -0"), std::string::npos) << max;
    EXPECT_NE(max.find("replay: flipcheck audit --subject 'std::max fold' --case '-0 then +0'"), std::string::npos) << max;
    EXPECT_NE(max.find("made NaN: x86 NaN last: [1, -nan(payload=0x400000)] -> 0x3f800000 = 1"), std::string::npos) << max;
    // flipcheck's keyed max keeps CUDA's NaN and drops x86's.
    const auto keyed = block(r.output, "flipcheck keyed max (sign_flip)");
    EXPECT_NE(keyed.find("NaN           total_order"), std::string::npos) << keyed;
    EXPECT_NE(keyed.find("made NaN: CUDA NaN last: [1, +nan(payload=0x7fffff)] -> 0x7fffffff"), std::string::npos) << keyed;
    EXPECT_NE(keyed.find("made NaN: x86 NaN last: [1, -nan(payload=0x400000)] -> 0x3f800000 = 1"), std::string::npos) << keyed;
    // Sorts: std::sort with < is never run on a NaN; strong_order is totalOrder.
    EXPECT_NE(block(r.output, "std::sort with <").find("not run: NaN makes the comparison undefined behaviour"), std::string::npos) << r.output;
    EXPECT_NE(block(r.output, "std::ranges::sort with std::strong_order").find("named order   IEEE totalOrder"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("holds on 4194304 random pairs (sampled, not exhaustive)"), std::string::npos) << r.output;
}

TEST(audit_cli, a_witness_replays_with_what_each_policy_expects) {
    const auto r = run_flipcheck("audit --device cpu --subject 'std::max fold' --case 'NaN last'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("NaN last: [1, 2, +nan(payload=0x400000)] -> 0x40000000 = 2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("nan=propagate   zero=ordered  expects 0x7fc00000"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("DIFFERS"), std::string::npos) << r.output;
    const auto own = run_flipcheck("audit --device cpu --subject 'std::fmax fold <double>' --input 0x8000000000000000,0x0");
    ASSERT_EQ(own.exit_code, 0) << own.output;
    EXPECT_NE(own.output.find("input: [-0, +0] -> 0x8000000000000000 = -0"), std::string::npos) << own.output;
    const auto sorted = run_flipcheck("audit --device cpu --subject 'std::sort with <' --case 'zeros mixed'");
    EXPECT_EQ(sorted.exit_code, 0) << sorted.output;
    EXPECT_NE(sorted.output.find("zeros mixed: [+0, -0, +0, -0, +0] -> "), std::string::npos) << sorted.output;
}

TEST(audit_cli, a_bad_replay_is_bad_input) {
    for (const char* args : {"--subject 'no such thing' --case 'n = 1'", "--subject 'std::max fold' --case 'no such case'",
                             "--subject 'std::max fold' --input 0x3f80000g", "--subject 'std::max fold'",
                             "--case 'n = 1'", "--subject 'std::max fold' --input 1, --case 'n = 1'"}) {
        const auto r = run_flipcheck(std::string("audit --device cpu --no-default-adapters ") + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("flipcheck"), std::string::npos) << r.output;
    }
    EXPECT_NE(run_flipcheck("audit --device cpu --subject nope --case x").output.find("std::max fold"), std::string::npos);  // lists them
}

TEST(audit_cli, numpy_through_its_adapter_is_judged_like_any_subject) {
    const auto r = run_flipcheck("audit --device cpu --randoms 50 --quick");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    if (r.output.find("NumPy: not installed") != std::string::npos) GTEST_SKIP() << "NumPy is not installed (scripts/bootstrap installs it)";
    const auto argmax = block(r.output, "numpy.argmax");
    ASSERT_FALSE(argmax.empty()) << r.output;
    EXPECT_NE(argmax.find("named policy  numpy arg (first NaN wins, first of ties)"), std::string::npos) << argmax;
    EXPECT_NE(argmax.find("n = 0         raises ValueError"), std::string::npos) << argmax;
    EXPECT_NE(block(r.output, "numpy.sort").find("NaN           NaN last"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("numpy.max <float16> (NumPy"), std::string::npos) << r.output;
}

TEST(audit_cli, a_wrong_framework_fails_its_questions) {
    const auto r = run_flipcheck(std::string("audit --device cpu --randoms 20 --quick --no-default-adapters --adapter 'python3 ") +
                                 FLIPCHECK_TEST_ADAPTERS + "/first_element_adapter.py'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto first = block(r.output, "first.max");
    EXPECT_NE(first.find("without NaN   NO: +-denorm_min: [-1.4012984643248171e-45, 1.4012984643248171e-45] -> 0x80000001"),
              std::string::npos) << r.output;
    EXPECT_NE(first.find("n = 0         raises ValueError: empty"), std::string::npos) << first;
    // n = 1023, 1024, 1025, 4097 and 100000: skipped by the adapter, counted, not judged.
    EXPECT_NE(first.find("not run on    5 inputs the framework cannot take: more than 1000 elements"), std::string::npos) << first;
    // Its replay line runs the same adapter again.
    const auto replay = first.find("replay: ");
    ASSERT_NE(replay, std::string::npos) << first;
    const std::string command = first.substr(replay + 8, first.find('\n', replay) - replay - 8);
    EXPECT_NE(command.find("--adapter"), std::string::npos) << command;
    const auto again = run_flipcheck(command.substr(std::string("flipcheck ").size()) + " --device cpu");
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find("+-denorm_min: [-1.4012984643248171e-45, 1.4012984643248171e-45] -> 0x80000001"), std::string::npos) << again.output;
}

TEST(audit_cli, a_missing_framework_is_not_installed_and_a_broken_adapter_is_bad_input) {
    const auto absent = script("flipcheck_absent_adapter.sh",
                               "echo '{\"framework\": \"Nothing\", \"installed\": false, \"reason\": \"No module named nothing\"}' > \"$2\"\n");
    const auto r = run_flipcheck("audit --device cpu --randoms 5 --quick --no-default-adapters --adapter 'sh " + absent.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("Nothing: not installed (No module named nothing): no rows"), std::string::npos) << r.output;

    const auto failing = script("flipcheck_failing_adapter.sh", "exit 3\n");
    const auto f = run_flipcheck("audit --device cpu --randoms 5 --quick --no-default-adapters --adapter 'sh " + failing.string() + "'");
    EXPECT_EQ(f.exit_code, 2) << f.output;
    EXPECT_NE(f.output.find("failed (exit 3)"), std::string::npos) << f.output;

    const auto garbage = script("flipcheck_garbage_adapter.sh", "echo 'not json' > \"$2\"\n");
    const auto g = run_flipcheck("audit --device cpu --randoms 5 --quick --no-default-adapters --adapter 'sh " + garbage.string() + "'");
    EXPECT_EQ(g.exit_code, 2) << g.output;
    EXPECT_NE(g.output.find("not JSON"), std::string::npos) << g.output;

    const auto partial = script("flipcheck_partial_adapter.sh",
                                "echo '{\"framework\": \"Half\", \"installed\": true, \"subjects\": [{\"name\": \"half.max\", \"kind\": \"value\", "
                                "\"op\": \"max\", \"format\": \"binary32\", \"answers\": {\"0\": \"0x0\"}}]}' > \"$2\"\n");
    const auto p = run_flipcheck("audit --device cpu --randoms 5 --quick --no-default-adapters --adapter 'sh " + partial.string() + "'");
    EXPECT_EQ(p.exit_code, 2) << p.output;
    EXPECT_NE(p.output.find("no answer for case"), std::string::npos) << p.output;
}

// docs/audit.md's CPU section is `flipcheck audit --markdown --device cpu` (scripts/update_readme).
TEST(audit_cli, the_cpu_section_of_docs_audit_md_is_current) {
    const auto r = run_flipcheck("audit --device cpu --markdown");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(FLIPCHECK_AUDIT_DOC);
    std::stringstream doc;
    doc << in.rdbuf();
    const auto section = [](const std::string& text) {
        const auto b = text.find("<!-- audit:CPU:begin -->"), e = text.find("<!-- audit:CPU:end -->");
        if (b == std::string::npos || e == std::string::npos) return std::string("(no CPU section)");
        std::string s = text.substr(b, e - b);
        const auto date = s.find("\n## CPU (");  // its heading carries the date: not compared
        return s.erase(date, s.find('\n', date + 1) - date);
    };
    EXPECT_EQ(section(doc.str()), section(r.output)) << "docs/audit.md is stale: run scripts/update_readme";
}
