// The main job over all 2^32 binary32 keys of every built-in (label: exhaustive), and the same
// job with a mutant registered, which must make it fail and print the counterexamples.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

TEST(main_job, every_built_in_passes_on_the_cpu) {
    const auto json = std::filesystem::temp_directory_path() / "flipcheck_main_job_test.json";
    const auto r = run_flipcheck("--device cpu --json " + json.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    {  // docs/json.md: every mapping row has its wall time beside its own seconds; the parts' times
        std::ifstream in(json);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::size_t walls = 0;  // 26 exhaustive rows, 4 proved and 18 expected failures
        for (auto at = text.find("\"wall_seconds\": "); at != std::string::npos; at = text.find("\"wall_seconds\": ", at + 1)) ++walls;
        EXPECT_EQ(walls, 48u) << text.substr(0, 2000);
        for (const char* key : {"\"mapping_seconds\": ", "\"reducer_seconds\": ", "\"scaling_seconds\": ", "\"domain\": \"proved\"",
                                "\"by\": \"flipcheck-prove\"", "\"pairs_max\""})
            EXPECT_NE(text.find(key), std::string::npos) << key;
        std::filesystem::remove(json);
    }
    // Exhaustive, proved and sampled rows are counted apart. binary64's built-ins are proved by
    // flipcheck-prove, built beside flipcheck here (prove/), for every key and every pair of codes:
    // no sample runs.
    EXPECT_NE(r.output.find("26/26 exhaustive: every key of binary16, bfloat16, binary32, float8_e4m3fn,"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("4/4 proved: binary64, every key (2^64) and the max and min of every pair of codes (2^128), by Z3"),
              std::string::npos) << r.output;
    for (const char* m : {"sign_flip           ", "sign_flip_branchless", "signed_key          ", "format_key          "})
        EXPECT_NE(r.output.find(std::string("binary64        ") + m + "  all           2^64 proved            1 pass"), std::string::npos)
            << m << "\n" << r.output;
    EXPECT_EQ(r.output.find("sampled: binary64"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("not proved"), std::string::npos) << r.output;
    // The seeds' keys on the formats that are not IEEE-shaped: 6 formats x 3 mappings, each shown
    // as the expected failure it is, and none of them passes.
    EXPECT_NE(r.output.find("18 expected failures shown above"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("UNEXPECTED"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("float8_e8m0fnu  sign_flip             all            256 exhaustive        1 fail (expected)"),
              std::string::npos) << r.output;
    EXPECT_NE(r.output.find("float8_e4m3fnuz format_key            all            256 exhaustive        1 pass"),
              std::string::npos) << r.output;
    // and every registered reducer of every format against the oracle (core's update code on the
    // CPU), plus the keyed folds of every built-in mapping: all of them pass, and the 17 rows of
    // the atomic strategies and P3008 before the registry are still among them.
    const std::smatch m = [&] {
        std::smatch found;
        std::regex_search(r.output, found, std::regex(R"((\d+)/(\d+) reducers passed)"));
        return found;
    }();
    ASSERT_EQ(m.size(), 3u) << r.output;
    EXPECT_EQ(m[1].str(), m[2].str()) << r.output;
    EXPECT_GE(std::stoi(m[2].str()), 17) << r.output;
    for (const char* row : {"fetch_fmaximum_num ", "packed_arg ", "seed004_signbit ", "keyed folds(signed_key) ",
                            "mapped_propagate_w32 (all arrays n <= 2) float8_e5m2fnuz", "lanewise_key (all arrays n <= 2)"})
        EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
    // The FP8/MX scaling path: every built-in amax, scale, decoder and block pipeline passes, and
    // the byte formats' amax rows are exhaustive (every array of up to three codes).
    const std::smatch s = [&] {
        std::smatch found;
        std::regex_search(r.output, found, std::regex(R"((\d+)/(\d+) scaling subjects passed)"));
        return found;
    }();
    ASSERT_EQ(s.size(), 3u) << r.output;
    EXPECT_EQ(s[1].str(), s[2].str()) << r.output;
    EXPECT_GE(std::stoi(s[2].str()), 43) << r.output;
    EXPECT_NE(r.output.find("keyed_amax_propagate   cpu  amax             float8_e4m3fnuz nan=propagate"), std::string::npos) << r.output;
    // 16,843,009 arrays (every array of up to three codes) to nearest, and every array of up to two
    // (65,793) in each of the three other rounding modes the keyed amax declares (check/rounding_modes.hpp).
    EXPECT_NE(r.output.find("17040388 exhaustive"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("every rounding mode (declared any)"), std::string::npos) << r.output;
    // binary32 rows cover all 2^32 keys.
    std::size_t rows = 0;
    for (auto at = r.output.find("4294967296 exhaustive"); at != std::string::npos; at = r.output.find("4294967296 exhaustive", at + 1))
        ++rows;
    EXPECT_EQ(rows, 4u) << r.output;
    // The fastest to sweep is swept, the other three proved by agreeing with it on every key, and
    // said so.
    EXPECT_NE(r.output.find("binary32        sign_flip_branchless  all     4294967296 exhaustive        1 pass  "), std::string::npos) << r.output;
    for (const char* m : {"sign_flip           ", "signed_key          ", "format_key          "})
        EXPECT_NE(r.output.find(std::string("binary32        ") + m + "  all     4294967296 exhaustive        1 pass (equal)"),
                  std::string::npos) << m << "\n" << r.output;
    EXPECT_NE(r.output.find("binary32 rows marked \"pass (equal)\": encode and decode agree with sign_flip_branchless's on every key"),
              std::string::npos) << r.output;
}

// With a stand-in prover (run/tests/prover_test.cpp reads its answers) that refutes one binary64
// built-in and leaves another undecided: the refuted row fails though its sample passes, and both
// are sampled and say why they are not proved. A prover's FAIL is never outvoted by a sample.
TEST(main_job, a_registered_mutant_makes_it_exit_1_with_counterexamples) {
    const auto prover = std::filesystem::temp_directory_path() / "flipcheck_main_job_test_prover";
    std::ofstream(prover) << R"(#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --json ] && out=$2; shift; done
cat > "$out" <<'JSON'
{"schema": 1, "verdict": "fail", "subjects": [
 {"subject": "flipcheck::sign_flip<flipcheck::binary64>", "format": "binary64", "verdict": "fail",
  "laws": [{"law": "successor_order", "result": "refuted", "where": "key 0x1", "counterexample": "a stand-in's refutation"}]},
 {"subject": "flipcheck::signed_key<flipcheck::binary64>", "format": "binary64", "verdict": "unknown",
  "laws": [{"law": "nan_ignore", "result": "unknown"}]}]}
JSON
exit 1
)";
    std::filesystem::permissions(prover, std::filesystem::perms::owner_all);
    const auto r = flipcheck::test::run_flipcheck_env("FLIPCHECK_PROVER=" + prover.string(), "--device cpu --with-mutant wrong_at_neg_denorm_min");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("26/29 exhaustive"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("3/5 sampled"), std::string::npos) << r.output;  // the mutant, and sign_flip refuted by the prover, fail
    EXPECT_NE(r.output.find("not proved, sampled instead: binary64 sign_flip: successor_order: FAIL at key 0x1: a stand-in's refutation"),
              std::string::npos) << r.output;
    EXPECT_NE(r.output.find("not proved, sampled instead: binary64 signed_key: nan_ignore: undecided within 60 s"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("binary64        sign_flip_branchless  all       12623872 sampled"), std::string::npos) << r.output;  // no answer
    std::filesystem::remove(prover);
    // The one bad successor pair of binary32: keys 0x7ffffffd/0x7ffffffe. (A mutant is swept,
    // never proved by agreement.)
    EXPECT_NE(r.output.find("successor_order broken at key 0x7ffffffd"), std::string::npos) << r.output;
}
