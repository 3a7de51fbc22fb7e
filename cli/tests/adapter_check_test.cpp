// `flipcheck check --adapter CMD`: a user's Python functions (cli/tests/adapters/
// served_subjects_adapter.py: right ones and known-wrong ones, in plain Python) judged against
// the policy each declares, with shrunk counterexamples and --case replay; and adapters that
// raise, exit, hang or break the protocol (misbehaving_served_adapter.py). Each test runs in its
// own folder: a failure writes NAME.case in the current directory.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using flipcheck::test::command_result;

const std::string subjects = std::string("--adapter 'python3 ") + FLIPCHECK_TEST_ADAPTERS + "/served_subjects_adapter.py'";
const std::string misbehaving = std::string("--adapter 'python3 ") + FLIPCHECK_TEST_ADAPTERS + "/misbehaving_served_adapter.py'";

// Runs flipcheck in a fresh folder of its own (the test's name), where case files land.
struct in_folder {
    fs::path dir;
    in_folder() {
        dir = fs::temp_directory_path() / ("adapter_check_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~in_folder() { fs::remove_all(dir); }
    command_result run(const std::string& args, const std::string& env = "") const {
        return flipcheck::test::run_flipcheck_env("cd '" + dir.string() + "' && " + env, args);
    }
    std::string read(const std::string& name) const {
        std::ifstream in(dir / name);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
};

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

TEST(adapter_check, right_functions_pass_every_stage) {
    const in_folder f;
    for (const char* s : {"right.max", "right.argmax", "right.amax"}) {
        const auto r = f.run("check " + subjects + " --subject " + s + " --cases 300 --json v.json");
        EXPECT_EQ(r.exit_code, 0) << r.output;
        EXPECT_TRUE(has(r.output, std::string(s) + " (")) << r.output;
        EXPECT_TRUE(has(f.read("v.json"), "\"verdict\": \"pass\"")) << f.read("v.json");
    }
    const auto r = f.run("check " + subjects + " --subject right.max --cases 300");
    EXPECT_TRUE(has(r.output, "edge_battery, 300 random_arrays")) << r.output;
    EXPECT_TRUE(has(r.output, "large_arrays")) << r.output;
    // The verdict holds for the framework at the version its adapter reported: the environment says which.
    const std::size_t end = r.output.find(", through the adapter"), line = r.output.rfind('\n', end);
    const std::string first = r.output.substr(line == std::string::npos ? 0 : line + 1, end - (line == std::string::npos ? 0 : line + 1));
    EXPECT_TRUE(end != std::string::npos && !first.empty()) << r.output;
    EXPECT_TRUE(has(r.output.substr(r.output.find("environment: ")), "; " + first)) << r.output;
    EXPECT_TRUE(has(f.read("v.json"), "\"libraries\"")) << f.read("v.json");
}

// Each known-wrong function fails with its smallest counterexample, writes it, and replays it;
// the right twin passes the same case.
TEST(adapter_check, known_wrong_functions_fail_with_a_minimal_case_that_replays) {
    const in_folder f;
    struct expectation {
        const char *wrong, *right, *minimal;
    };
    for (const expectation& e : {expectation{"wrong.max_by_comparison", "right.max", "binary32: 0x00000000,0x7fc00000"},
                                 expectation{"wrong.argmax_sign_by_comparison", "right.argmax", "binary32: 0x80000000,0x00000000"},
                                 expectation{"wrong.amax_by_abs_comparison", "right.amax", "binary32: 0x7fc00000"}}) {
        const auto r = f.run("check " + subjects + " --subject " + e.wrong + " --cases 300 --json v.json");
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_TRUE(has(r.output, std::string("case: ") + e.minimal)) << r.output;
        EXPECT_TRUE(has(r.output, std::string("repro: flipcheck check --adapter")) && has(r.output, std::string("--case '") + e.wrong + ".case'"))
            << r.output;
        EXPECT_TRUE(has(f.read("v.json"), "\"verdict\": \"fail\""));
        EXPECT_EQ(f.read(std::string(e.wrong) + ".case"), std::string(e.minimal) + "\n");
        const auto again = f.run("check " + subjects + " --subject " + e.wrong + " --case " + e.wrong + ".case");
        EXPECT_EQ(again.exit_code, 1) << again.output;
        EXPECT_TRUE(has(again.output, "1 replay cases") || has(again.output, "after 1 arrays, the given case")) << again.output;
        const auto twin = f.run("check " + subjects + " --subject " + e.right + " --case " + e.wrong + ".case");
        EXPECT_EQ(twin.exit_code, 0) << twin.output;
    }
}

TEST(adapter_check, a_subject_declaring_nothing_is_left_out_or_takes_policy) {
    const in_folder f;
    const auto all = f.run("check " + subjects + " --cases 100");
    EXPECT_EQ(all.exit_code, 1) << all.output;  // the known-wrong ones
    EXPECT_TRUE(has(all.output, "undeclared.max: not checked: it declares no policy")) << all.output;
    EXPECT_TRUE(has(all.output, "3 of 6 subjects failed")) << all.output;
    const auto named = f.run("check " + subjects + " --subject undeclared.max");
    EXPECT_EQ(named.exit_code, 2) << named.output;
    const auto given = f.run("check " + subjects + " --subject undeclared.max --policy nan=propagate,zero=ordered --cases 100");
    EXPECT_EQ(given.exit_code, 0) << given.output;
    const auto wrong_policy = f.run("check " + subjects + " --subject undeclared.max --policy nan=ignore --cases 100");
    EXPECT_EQ(wrong_policy.exit_code, 1) << wrong_policy.output;
    // Issue 59: --policy changes only the fields it names. The sign-by-comparison argmax ties -0 and
    // +0, which zero=equal allows; its declared nan=propagate and ties=lowest_index stay (it was
    // replaced wholesale, and "zero=equal" alone was refused for saying nothing of NaN).
    const auto one_field = f.run("check " + subjects + " --subject wrong.argmax_sign_by_comparison --policy zero=equal --cases 300");
    EXPECT_EQ(one_field.exit_code, 0) << one_field.output;
    EXPECT_TRUE(has(one_field.output, "nan=propagate zero=equal ties=lowest_index")) << one_field.output;
    const auto no_nan = f.run("check " + subjects + " --subject undeclared.max --policy zero=equal");
    EXPECT_EQ(no_nan.exit_code, 2) << no_nan.output;
    EXPECT_TRUE(has(no_nan.output, "say what it does with NaN")) << no_nan.output;
    EXPECT_TRUE(has(wrong_policy.output, "--policy 'nan=ignore' --case")) << wrong_policy.output;  // the replay keeps the policy
}

TEST(adapter_check, a_function_that_raises_exits_or_hangs_fails_on_its_input) {
    const in_folder f;
    const auto raises = f.run("check " + misbehaving + " --subject raises --cases 50");
    EXPECT_EQ(raises.exit_code, 1) << raises.output;
    EXPECT_TRUE(has(raises.output, "raises raised ValueError: cannot take more than one element")) << raises.output;
    EXPECT_TRUE(has(raises.output, "case: binary32: 0x00000000,0x00000000")) << raises.output;
    // An exit while answering a batch: the adapter is started again and asked each array alone.
    const auto exits = f.run("check " + misbehaving + " --subject exits --cases 50");
    EXPECT_EQ(exits.exit_code, 1) << exits.output;
    EXPECT_TRUE(has(exits.output, "exited with status 3")) << exits.output;
    EXPECT_TRUE(has(exits.output, "case: binary32: 0x00000000,0x00000000")) << exits.output;
    const auto t0 = std::chrono::steady_clock::now();
    const auto hangs = f.run("check " + misbehaving + " --subject hangs --timeout 2 --cases 50");
    EXPECT_EQ(hangs.exit_code, 1) << hangs.output;
    EXPECT_TRUE(has(hangs.output, "answered nothing for 2 s")) << hangs.output;
    EXPECT_TRUE(has(hangs.output, "case: binary32: 0x00000000,0x00000000")) << hangs.output;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60);
    // What the function prints goes to standard error, never into the protocol's lines.
    const auto prints = f.run("check " + misbehaving + " --subject prints --cases 50");
    EXPECT_EQ(prints.exit_code, 0) << prints.output;
    EXPECT_TRUE(has(prints.output, "debug output from the user's function")) << prints.output;
}

TEST(adapter_check, an_adapter_that_breaks_the_protocol_is_bad_input) {
    const in_folder f;
    const auto no_serve = f.run("check " + misbehaving, "MISBEHAVE=no_serve");
    EXPECT_EQ(no_serve.exit_code, 2) << no_serve.output;
    EXPECT_TRUE(has(no_serve.output, "COMMAND --serve")) << no_serve.output;
    const auto garbage = f.run("check " + misbehaving, "MISBEHAVE=garbage");
    EXPECT_EQ(garbage.exit_code, 2) << garbage.output;
    EXPECT_TRUE(has(garbage.output, "not a JSON line")) << garbage.output;
    const auto silent = f.run("check --adapter 'python3 -c \"import sys; sys.stdin.read()\"' --timeout 1");
    EXPECT_EQ(silent.exit_code, 2) << silent.output;
    const auto missing = f.run("check --adapter no-such-command-here");
    EXPECT_EQ(missing.exit_code, 2) << missing.output;
}

TEST(adapter_check, options_that_do_not_apply_are_bad_input) {
    const in_folder f;
    for (const std::string extra : {"--plugin x.so", "--key 0x1", "--all", "--every-input", "--device gpu", "--adapter-stdio",
                                    "--cpu-targets all", "--rounding upward",
                                    "--policy nan=nonsense", "--policy zero=equal", "--case no-such.case", "--subject no.such"}) {
        const auto r = f.run("check " + subjects + " " + extra);
        EXPECT_EQ(r.exit_code, 2) << extra << "\n" << r.output;
    }
}

}  // namespace
