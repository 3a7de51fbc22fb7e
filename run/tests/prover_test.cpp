// The main job's link to flipcheck-prove (prover.hpp), with stand-ins for the prover: one that
// cannot start, one that fails, one that says why it cannot prove, one whose verdicts are read
// back law by law. The real prover proving the built-ins is cli/tests/main_job_test.cpp's.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "flipcheck/run/prover.hpp"

namespace {

namespace fr = flipcheck::run;

// A stand-in prover: a shell script that writes `json` to the file after --json, then exits `status`.
std::string stand_in(const std::string& name, const std::string& json, int status) {
    const auto path = std::filesystem::temp_directory_path() / ("flipcheck_prover_test_" + name);
    std::ofstream(path) << "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --json ] && out=$2; shift; done\n"
                        << (json.empty() ? "" : "cat > \"$out\" <<'JSON'\n" + json + "\nJSON\n") << "echo 'said on its way out' >&2\nexit "
                        << status << "\n";
    ::chmod(path.c_str(), 0755);
    return path.string();
}

const std::vector<std::string> two{"flipcheck::sign_flip<flipcheck::binary64>", "flipcheck::signed_key<flipcheck::binary64>"};

TEST(prover, one_that_cannot_run_gives_no_verdicts_and_says_why) {
    const fr::prover_answer missing = fr::prove_builtins("/nonexistent/flipcheck-prove", "flipcheck/mapping.hpp", two, 5);
    EXPECT_TRUE(missing.subjects.empty());
    EXPECT_NE(missing.why_not.find("could not prove them (exit status 127)"), std::string::npos) << missing.why_not;
    const fr::prover_answer failing = fr::prove_builtins(stand_in("failing", "", 3), "flipcheck/mapping.hpp", two, 5);
    EXPECT_TRUE(failing.subjects.empty());
    EXPECT_NE(failing.why_not.find("(exit status 3): said on its way out"), std::string::npos) << failing.why_not;
    const fr::prover_answer refusing = fr::prove_builtins(
        stand_in("refusing", R"({"schema": 1, "verdict": "error", "error": "compiling the subject with clang failed"})", 2),
        "flipcheck/mapping.hpp", two, 5);
    EXPECT_TRUE(refusing.subjects.empty());
    EXPECT_NE(refusing.why_not.find("(exit status 2): compiling the subject with clang failed"), std::string::npos) << refusing.why_not;
    EXPECT_EQ(fr::prove_builtins(stand_in("garbled", "{\"subjects\": [", 0), "flipcheck/mapping.hpp", two, 5).subjects.size(), 0u);
}

TEST(prover, reads_each_subject_s_verdict_and_the_first_law_it_did_not_prove) {
    const std::string json = R"({"schema": 1, "verdict": "fail", "subjects": [
      {"subject": "flipcheck::sign_flip<flipcheck::binary64>", "format": "binary64", "verdict": "pass", "seconds": 0.5,
       "compile_command": "clang++-14 -O2", "laws": [{"law": "defined", "result": "proved"}, {"law": "pairs_max", "result": "proved"}]},
      {"subject": "flipcheck::signed_key<flipcheck::binary64>", "format": "binary64", "verdict": "fail", "seconds": 0.25,
       "laws": [{"law": "defined", "result": "proved"}, {"law": "successor_order", "result": "refuted", "where": "key 0x7ff0000000000000",
                 "counterexample": "successor_order broken"}, {"law": "zero_placement", "result": "unknown"}]}]})";
    const fr::prover_answer a = fr::prove_builtins(stand_in("answering", json, 1), "flipcheck/mapping.hpp", two, 5);
    EXPECT_EQ(a.why_not, "");
    ASSERT_EQ(a.subjects.size(), 2u);
    EXPECT_EQ(a.compile_command, "clang++-14 -O2");
    const fr::proved_subject* good = a.find(two[0]);
    ASSERT_NE(good, nullptr);
    EXPECT_TRUE(good->passed());
    EXPECT_EQ(good->laws, (std::vector<std::string>{"defined", "pairs_max"}));
    EXPECT_DOUBLE_EQ(good->seconds, 0.5);
    const fr::proved_subject* bad = a.find(two[1]);
    ASSERT_NE(bad, nullptr);
    EXPECT_FALSE(bad->passed());
    EXPECT_EQ(bad->not_proved, "successor_order: FAIL at key 0x7ff0000000000000: successor_order broken");
    EXPECT_EQ(a.find("flipcheck::format_key<flipcheck::binary64>"), nullptr);
}

TEST(prover, is_found_beside_the_program_or_where_flipcheck_prover_says) {
    std::string why;
    ::setenv("FLIPCHECK_PROVER", "none", 1);
    EXPECT_EQ(fr::find_prover(why), "");
    EXPECT_EQ(why, "FLIPCHECK_PROVER=none");
    ::setenv("FLIPCHECK_PROVER", "/opt/my/flipcheck-prove", 1);
    EXPECT_EQ(fr::find_prover(why), "/opt/my/flipcheck-prove");
    ::unsetenv("FLIPCHECK_PROVER");
    why.clear();
    EXPECT_EQ(fr::find_prover(why), "");  // this test's folder has none
    EXPECT_NE(why.find("no flipcheck-prove beside flipcheck"), std::string::npos) << why;
    EXPECT_EQ(fr::builtin_type("format_key", "binary64"), "flipcheck::format_key<flipcheck::binary64>");
}

}  // namespace
