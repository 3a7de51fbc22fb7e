// `flipcheck check --plugin`: the examples' plug-ins pass and fail as they must, a failure's repro
// command fails again, and every kind of bad input is refused with exit code 2 before anything runs.
#include <gtest/gtest.h>

#include <string>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

namespace {
bool has(const std::string& out, const std::string& s) { return out.find(s) != std::string::npos; }
const std::string good = EXAMPLE_PLUGIN, wrong = KNOWN_WRONG_PLUGIN;
}  // namespace

TEST(plugin_check, every_right_subject_passes_every_driver) {
    const auto r = run_flipcheck("check --plugin " + good);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has(r.output, "float_key (binary32 mapping, exhaustive sweep of 4294967296 keys): pass")) << r.output;
    for (const char* s : {"atomic_max_float (binary32 max", "atomic_argmax_float (binary32 max index", "max_propagate (binary32 max",
                          "nanargmin (binary32 min index"})
        EXPECT_TRUE(has(r.output, s)) << s << "\n" << r.output;
    EXPECT_TRUE(has(r.output, "edge_battery, 2000 random_arrays")) << r.output;
}

TEST(plugin_check, every_known_wrong_subject_fails_with_a_repro_that_fails_again) {
    const auto r = run_flipcheck("check --plugin " + wrong);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "atomic_max_ge0 (binary32 max, declares nan=undefined zero=ordered): FAIL")) << r.output;
    EXPECT_TRUE(has(r.output, "expected 0x80000000 (-0 zero), got 0xff800000 (-inf inf) on n=1 [0x80000000 (-0 zero)]")) << r.output;
    EXPECT_TRUE(has(r.output, "repro: flipcheck check --plugin " + wrong + " --subject atomic_max_ge0 --case atomic_max_ge0.case")) << r.output;
    EXPECT_TRUE(has(r.output, "key_sign_only (binary32 mapping, exhaustive sweep of ")) << r.output;
    EXPECT_TRUE(has(r.output, "stopped at the first failing chunk")) << r.output;
    EXPECT_TRUE(has(r.output, "--subject key_sign_only --key 0x00000000")) << r.output;
    EXPECT_TRUE(has(r.output, "max_std_fold (binary32 max, declares nan=propagate zero=ordered): FAIL")) << r.output;
    EXPECT_TRUE(has(r.output, "argmax_no_inversion (binary32 max index")) << r.output;
    const auto again = run_flipcheck("check --plugin " + wrong + " --subject atomic_max_ge0 --case atomic_max_ge0.case");
    EXPECT_EQ(again.exit_code, 1) << again.output;
    EXPECT_TRUE(has(again.output, "1 replay cases")) << again.output;
    const auto key = run_flipcheck("check --plugin " + wrong + " --subject key_sign_only --key 0x00000000");
    EXPECT_EQ(key.exit_code, 1) << key.output;
    EXPECT_TRUE(has(key.output, "one-key sweep of 1 keys")) << key.output;
}

TEST(plugin_check, bad_input_is_refused_with_exit_code_2) {
    struct bad {
        std::string args, message;
    };
    const bad cases[] = {
        {"check --plugin /nonexistent/lib.so", "does not exist"},
        {"check --plugin /", "is a directory"},
        {"check --plugin " + std::string(FLIPCHECK_README), "cannot load plug-in library"},
        {"check --plugin " + std::string(NO_ENTRY_PLUGIN), "is not a flipcheck plug-in: it has no flipcheck_plugin entry point"},
        {"check --plugin " + std::string(ABI_MISMATCH_PLUGIN), "was built for plug-in ABI version 99, but this flipcheck speaks version 1"},
        {"check --plugin " + std::string(DUPLICATE_PLUGIN), "two subjects are named 'twin'"},
        {"check --plugin " + good + " --subject nope", "has no subject named 'nope' (it has: float_key, atomic_max_float"},
        {"check --plugin " + good + " --subject float_key --format binary16", "subject float_key declares format binary32, not binary16"},
        {"check --plugin " + good + " --subject float_key --case x.case", "--case is for reducers"},
        {"check --plugin " + good + " --subject max_propagate --key 0x1", "--key is for mappings"},
        {"check --plugin " + good + " --subject max_propagate --case /nonexistent.case", "is not a readable file"},
        {"check --plugin " + good + " --subject float_key --key 0x100000000", "outside the keys of binary32"},
        {"check --plugin " + good + " --subject float_key --key banana", "is not a key"},
        {"check --plugin " + good + " --device gpu", "run in the library on the host"},
        {"check", "give --plugin FILE.so (your compiled subjects) or --shader FILE"},
    };
    for (const bad& c : cases) {
        const auto r = run_flipcheck(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
        EXPECT_TRUE(has(r.output, c.message)) << c.args << "\n" << r.output;
        EXPECT_FALSE(has(r.output, "pass")) << "something ran: " << c.args << "\n" << r.output;
    }
}

TEST(plugin_check, a_bad_case_file_is_bad_input) {
    const auto r = run_flipcheck("check --plugin " + good + " --subject max_propagate --case " + std::string(FLIPCHECK_README));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has(r.output, "in the case")) << r.output;
}

TEST(plugin_check, a_subject_that_throws_is_exit_code_3_with_its_message) {
    const auto r = run_flipcheck("check --plugin " + std::string(THROWING_PLUGIN));
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_TRUE(has(r.output, "subject thrower failed: my kernel launch failed: out of memory")) << r.output;
}
