// `flipcheck audit` as a user runs it: the questions answered in order with witnesses and replay
// commands, the replay itself, the adapter process (good, missing, broken and wrong frameworks).
// docs/audit.md's CPU section is held current by audit_doc_test (the release set: it checks every
// 16-bit pair, minutes under the sanitizers).
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
    EXPECT_NE(max.find("not ordered: -0 then +0: [-0, +0] (0x80000000 0x00000000) -> 0x80000000 = -0"), std::string::npos) << max;
    EXPECT_NE(max.find("replay: flipcheck audit --subject 'std::max fold' --case '-0 then +0'"), std::string::npos) << max;
    EXPECT_NE(max.find("made NaN: x86 NaN last: [1, -nan(payload=0x400000)] (0x3f800000 0xffc00000) -> 0x3f800000 = 1"), std::string::npos) << max;
    // flipcheck's keyed max keeps CUDA's NaN and drops x86's.
    const auto keyed = block(r.output, "flipcheck keyed max (sign_flip)");
    EXPECT_NE(keyed.find("NaN           total_order"), std::string::npos) << keyed;
    EXPECT_NE(keyed.find("made NaN: CUDA NaN last: [1, +nan(payload=0x7fffff)] (0x3f800000 0x7fffffff) -> 0x7fffffff"), std::string::npos) << keyed;
    EXPECT_NE(keyed.find("made NaN: x86 NaN last: [1, -nan(payload=0x400000)] (0x3f800000 0xffc00000) -> 0x3f800000 = 1"), std::string::npos) << keyed;
    // Sorts: std::sort with < is never run on a NaN; strong_order is totalOrder.
    EXPECT_NE(block(r.output, "std::sort with <").find("not run: NaN makes the comparison undefined behaviour"), std::string::npos) << r.output;
    EXPECT_NE(block(r.output, "std::ranges::sort with std::strong_order").find("named order   IEEE totalOrder"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("holds on 4194304 random pairs (sampled, not exhaustive)"), std::string::npos) << r.output;
}

TEST(audit_cli, a_witness_replays_with_what_each_policy_expects) {
    const auto r = run_flipcheck("audit --device cpu --subject 'std::max fold' --case 'NaN last'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("NaN last: [1, 2, +nan(payload=0x400000)] (0x3f800000 0x40000000 0x7fc00000) -> 0x40000000 = 2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("nan=propagate   zero=ordered  expects 0x7fc00000"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("DIFFERS"), std::string::npos) << r.output;
    // A user's own input: the result, then each policy's expectation, judged against that result.
    // Which zero libm's fmax gives is the library's business (GCC inlines it as maxsd when
    // optimizing, and calls glibc's at -O0: -0 and +0 here), so only the judgement is asserted.
    const auto own = run_flipcheck("audit --device cpu --subject 'std::fmax fold <double>' --input 0x8000000000000000,0x0");
    ASSERT_EQ(own.exit_code, 0) << own.output;
    const std::string shown = "input: [-0, +0] (0x8000000000000000 0x0000000000000000) -> ";
    const auto at = own.output.find(shown);
    ASSERT_NE(at, std::string::npos) << own.output;
    const std::string got = own.output.substr(at + shown.size(), 18);
    ASSERT_TRUE(got == "0x8000000000000000" || got == "0x0000000000000000") << own.output;
    std::istringstream lines(own.output);
    int judged = 0;
    for (std::string line; std::getline(lines, line);) {
        const auto e = line.find(" expects 0x");
        if (e == std::string::npos) continue;
        ++judged;
        // Under zero=equal, -0 and +0 are the same answer; otherwise only the same bits agree.
        const bool same = line.substr(e + 9, 18) == got || line.find("zero=equal") != std::string::npos;
        EXPECT_NE(line.find(same ? "agrees" : "DIFFERS"), std::string::npos) << line;
    }
    EXPECT_EQ(judged, 8) << own.output;  // four NaN policies by two zero policies
    const auto sorted = run_flipcheck("audit --device cpu --subject 'std::sort with <' --case 'zeros mixed'");
    EXPECT_EQ(sorted.exit_code, 0) << sorted.output;
    EXPECT_NE(sorted.output.find("zeros mixed: [+0, -0, +0, -0, +0] (0x00000000 0x80000000 0x00000000 0x80000000 0x00000000) -> "), std::string::npos) << sorted.output;
}

TEST(audit_cli, a_bad_replay_is_bad_input) {
    for (const char* args : {"--subject 'no such thing' --case 'n = 1'", "--subject 'std::max fold' --case 'no such case'",
                             "--subject 'std::max fold' --input 0x3f80000g", "--subject 'std::max fold'",
                             "--case 'n = 1'", "--subject 'std::max fold' --input 1, --case 'n = 1'",
                             "--subject 'std::max fold' --input 0x3f800000,0x17f800000"}) {
        const auto r = run_flipcheck(std::string("audit --device cpu --no-default-adapters ") + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("flipcheck"), std::string::npos) << r.output;
    }
    EXPECT_NE(run_flipcheck("audit --device cpu --no-default-adapters --subject nope --case x").output.find("std::max fold"), std::string::npos);  // lists them
}

// What flipcheck promises for a framework behind an adapter (NumPy's; Highway's and the parallel
// algorithms' below), whatever the framework answers on this machine (NumPy 1.24's float32 sort keeps a NaN's bits on AVX2 and rewrites them on AVX-512): every
// subject it declares gets a row, every question is answered, every rejected answer has a witness
// with a replay line, and the replay reproduces the witness.
TEST(audit_cli, numpy_through_its_adapter_is_judged_like_any_subject) {
    const auto r = run_flipcheck("audit --device cpu --randoms 50 --quick --frameworks-only");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // Highway and the parallel algorithms come in the same audit, through their C++ adapter
    // programs (adapters/*_adapter.cpp, built beside flipcheck because scripts/bootstrap installs
    // libhwy-dev and libtbb-dev): default adapters on the CPU, judged like any subject, and a
    // replay finds them by the subject's name alone.
    for (const std::string name : {"hwy Max+MaxOfLanes <float>", "hwy Min+MinOfLanes <float>", "hwy Max+MaxOfLanes <double>",
                                   "hwy Min+MinOfLanes <double>", "hwy::VQSort ascending <float>", "hwy::VQSort ascending <double>",
                                   "std::reduce(par_unseq, std::max) <float>", "std::reduce(par_unseq, std::min) <double>",
                                   "std::max_element(par_unseq) <float>", "std::min_element(par_unseq) <double>"}) {
        const auto b = block(r.output, name);
        ASSERT_FALSE(b.empty()) << name << " has no row:\n" << r.output;
        // The version (Highway's with the SIMD target it ran on; the parallel algorithms' with TBB's).
        EXPECT_TRUE(b.find("(Highway 1.") != std::string::npos || b.find("(libstdc++ par_unseq ") != std::string::npos) << b;
        const bool sort = name.find("VQSort") != std::string::npos;
        for (const std::string question : {"without NaN   ", "NaN           ", "zeros         ", sort ? "named order   " : "named policy  "})
            EXPECT_NE(b.find("\n  " + question), std::string::npos) << name << " does not answer '" << question << "':\n" << b;
    }
    {
        const std::string name = "std::reduce(par_unseq, std::max) <float>";
        const auto again = run_flipcheck("audit --device cpu --subject '" + name + "' --case '+0 then -0'");
        ASSERT_EQ(again.exit_code, 0) << again.output;
        EXPECT_NE(again.output.find(name + " ("), std::string::npos) << again.output;
        EXPECT_NE(again.output.find("+0 then -0: [+0, -0]"), std::string::npos) << again.output;
    }
    if (r.output.find("NumPy: not installed") != std::string::npos) GTEST_SKIP() << "NumPy is not installed (scripts/bootstrap installs it)";
    EXPECT_NE(r.output.find("host CPU: "), std::string::npos) << r.output;  // the environment the rows hold for
    EXPECT_EQ(r.output.find("std::max fold"), std::string::npos) << "--frameworks-only printed a built-in row";
    std::size_t witnesses = 0;
    std::string replay_line, witness_line;
    for (const std::string name : {"numpy.max", "numpy.min", "numpy.argmax", "numpy.argmin", "numpy.nanmax", "numpy.fmax.reduce",
                                   "numpy.max <float16>", "numpy.argmax <float64>", "numpy.sort"}) {
        const auto b = block(r.output, name);
        ASSERT_FALSE(b.empty()) << name << " has no row:\n" << r.output;
        const bool sort = name == "numpy.sort";
        for (const std::string question : {"without NaN   ", "NaN           ", "zeros         ", sort ? "named order   " : "named policy  "})
            EXPECT_NE(b.find("\n  " + question), std::string::npos) << name << " does not answer '" << question << "':\n" << b;
        if (!sort) {
            EXPECT_NE(b.find("\n  n = 0         "), std::string::npos) << b;
        }
        // Every answer a question rejects ("not X: input -> result") is followed by its replay line
        // (the named policy's rejections below reuse those inputs).
        std::istringstream lines(b);
        std::string line, previous;
        while (std::getline(lines, line) && line.rfind("  named ", 0) != 0) {
            if (previous.rfind("      not ", 0) == 0) {
                ++witnesses;
                EXPECT_EQ(line.rfind("        replay: flipcheck audit --subject '", 0), 0u) << name << ": a witness without a replay line:\n" << b;
                if (replay_line.empty() && line.find("--case '") != std::string::npos) replay_line = line, witness_line = previous;
            }
            previous = line;
        }
    }
    ASSERT_GT(witnesses, 0u) << r.output;
    ASSERT_FALSE(replay_line.empty()) << r.output;
    // The first witness replays to the same input and result.
    const std::string command = replay_line.substr(replay_line.find("flipcheck ") + 10);
    const auto again = run_flipcheck(command + " --device cpu");
    ASSERT_EQ(again.exit_code, 0) << command << "\n" << again.output;
    const std::string shown = witness_line.substr(witness_line.find(": ") + 2);  // "case: [input] -> result"
    EXPECT_NE(again.output.find(shown), std::string::npos) << "the replay of\n" << witness_line << "\nprinted\n" << again.output;
}

TEST(audit_cli, frameworks_only_without_a_framework_is_bad_input) {
    EXPECT_EQ(run_flipcheck("audit --device cpu --frameworks-only --no-default-adapters").exit_code, 2);
    EXPECT_EQ(run_flipcheck("audit --device cpu --frameworks-only --shaders-only").exit_code, 2);
}

TEST(audit_cli, a_wrong_framework_fails_its_questions) {
    const auto r = run_flipcheck(std::string("audit --device cpu --randoms 20 --quick --frameworks-only --no-default-adapters --adapter 'python3 ") +
                                 FLIPCHECK_TEST_ADAPTERS + "/first_element_adapter.py'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto first = block(r.output, "first.max");
    EXPECT_NE(first.find("without NaN   NO: +-denorm_min: [-1.4012984643248171e-45, 1.4012984643248171e-45] (0x80000001 0x00000001) -> 0x80000001"),
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
    EXPECT_NE(again.output.find("+-denorm_min: [-1.4012984643248171e-45, 1.4012984643248171e-45] (0x80000001 0x00000001) -> 0x80000001"),
              std::string::npos) << again.output;
}

// A framework whose bug needs a long array: its witness is shrunk through the adapter (a call a
// round) to the 9 elements it needs, printed with its bits, and replays by them (--input).
TEST(audit_cli, an_adapter_witness_is_shrunk_and_replays_by_its_bits) {
    const std::string adapter = std::string("--adapter 'python3 ") + FLIPCHECK_TEST_ADAPTERS + "/drops_last_adapter.py'";
    // Without --quick: it would cut the shrinking's time box to a quarter, and under the sanitizers
    // on a loaded machine the witness was then left bigger than this test's (seen once at -j2).
    const auto r = run_flipcheck("audit --device cpu --randoms 20 --frameworks-only --no-default-adapters " + adapter);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto b = block(r.output, "drops_last.max");
    const std::string witness = "without NaN   NO: n = 31, extremes at the ends, shrunk from 31 elements: [9 elements: " + [] {
        std::string zeros;
        for (int i = 0; i < 8; ++i) zeros += "0x00000000 ";
        return zeros;
    }() + "0x3f800000] -> 0x00000000 = +0";
    EXPECT_NE(b.find(witness), std::string::npos) << b;
    const auto replay = b.find("replay: flipcheck audit --subject 'drops_last.max' --input 0x00000000,");
    ASSERT_NE(replay, std::string::npos) << b;
    const std::string command = b.substr(replay + 18, b.find('\n', replay) - replay - 18);
    const auto again = run_flipcheck(command + " --no-default-adapters --device cpu");
    ASSERT_EQ(again.exit_code, 0) << command << "\n" << again.output;
    EXPECT_NE(again.output.find("0x3f800000] -> 0x00000000 = +0"), std::string::npos) << again.output;
    EXPECT_NE(again.output.find("expects 0x3f800000 = 1"), std::string::npos) << again.output;
}

// An adapter that fails when asked again (a shrink round) costs the witnesses their shrinking,
// never the rows: exit 0, the witness as the battery has it, and the reason on stderr.
TEST(audit_cli, an_adapter_that_fails_while_shrinking_keeps_its_rows) {
    const auto r = run_flipcheck(std::string("audit --device cpu --randoms 20 --quick --frameworks-only --no-default-adapters --adapter 'python3 ") +
                                 FLIPCHECK_TEST_ADAPTERS + "/fails_when_asked_again_adapter.py'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto b = block(r.output, "drops_last.max");
    EXPECT_NE(b.find("without NaN   NO: n = 31, extremes at the ends: [31 elements: "), std::string::npos) << b;
    EXPECT_NE(r.output.find("DropsLast's witnesses are left unshrunk: adapter"), std::string::npos) << r.output;
}

TEST(audit_cli, a_missing_framework_is_not_installed_and_a_broken_adapter_is_bad_input) {
    const auto absent = script("flipcheck_absent_adapter.sh",
                               "echo '{\"framework\": \"Nothing\", \"installed\": false, \"reason\": \"No module named nothing\"}' > \"$2\"\n");
    const auto r = run_flipcheck("audit --device cpu --randoms 5 --quick --frameworks-only --no-default-adapters --adapter 'sh " + absent.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("Nothing: not installed (No module named nothing): no rows"), std::string::npos) << r.output;

    const auto failing = script("flipcheck_failing_adapter.sh", "exit 3\n");
    const auto f = run_flipcheck("audit --device cpu --randoms 5 --quick --frameworks-only --no-default-adapters --adapter 'sh " + failing.string() + "'");
    EXPECT_EQ(f.exit_code, 2) << f.output;
    EXPECT_NE(f.output.find("failed (exit 3)"), std::string::npos) << f.output;

    const auto garbage = script("flipcheck_garbage_adapter.sh", "echo 'not json' > \"$2\"\n");
    const auto g = run_flipcheck("audit --device cpu --randoms 5 --quick --frameworks-only --no-default-adapters --adapter 'sh " + garbage.string() + "'");
    EXPECT_EQ(g.exit_code, 2) << g.output;
    EXPECT_NE(g.output.find("not JSON"), std::string::npos) << g.output;

    const auto partial = script("flipcheck_partial_adapter.sh",
                                "echo '{\"framework\": \"Half\", \"installed\": true, \"subjects\": [{\"name\": \"half.max\", \"kind\": \"value\", "
                                "\"op\": \"max\", \"format\": \"binary32\", \"answers\": {\"0\": \"0x0\"}}]}' > \"$2\"\n");
    const auto p = run_flipcheck("audit --device cpu --randoms 5 --quick --frameworks-only --no-default-adapters --adapter 'sh " + partial.string() + "'");
    EXPECT_EQ(p.exit_code, 2) << p.output;
    EXPECT_NE(p.output.find("no answer for case"), std::string::npos) << p.output;
}

// The conversion table (flipcheck audit --conversions): each conversion classified on the sampled
// domain, then judged under what it does, with its first disagreeing input.
TEST(audit_cli, conversions_name_what_each_conversion_does_and_its_first_wrong_input) {
    const auto r = run_flipcheck(std::string("audit --conversions --quick --device cpu --no-default-adapters --adapter '/usr/bin/python3 ") +
                                 FLIPCHECK_TEST_ADAPTERS + "/wrong_conversions_adapter.py'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // Truncation is toward zero, except that a NaN with its payload in the low half becomes +inf.
    const auto truncated = block(r.output, "truncated bfloat16");
    EXPECT_NE(truncated.find("documents     nearest_even, saturation infinity"), std::string::npos) << truncated;
    EXPECT_NE(truncated.find("does          none of the declarable policies (nearest: toward_zero, saturation infinity)"), std::string::npos)
        << truncated;
    EXPECT_NE(truncated.find("sampled       under toward_zero, saturation infinity: disagrees: quantize_special: quantize(0x7f800001 (nan snan)) = 0x7f80 (inf inf)"),
              std::string::npos) << truncated;
    // Its documentation's policy fails on the sample too, at the first input rounding up shows.
    EXPECT_NE(truncated.find("not on the sample: quantize_special: quantize(0x7f7f8000"), std::string::npos) << truncated;
    // Flushing: binary16's smallest subnormal, 2^-24, gives 0 instead of itself.
    const auto flushed = block(r.output, "flushed float16");
    EXPECT_NE(flushed.find("quantize_idempotent: quantize(0x33800000"), std::string::npos) << flushed;
    const auto right = block(r.output, "right float16");
    EXPECT_NE(right.find("does          nearest_even, saturation infinity"), std::string::npos) << right;
    EXPECT_NE(right.find("sampled       under nearest_even, saturation infinity: agrees on all"), std::string::npos) << right;
    // Two right float16 conversions under different saturations part ways at 65520, halfway from
    // binary16's largest value to 2^16 (a tie that rounds to the even code: infinity).
    EXPECT_NE(r.output.find("binary16: flushed float16 (WrongConversions 0.1) and saturating float16 (WrongConversions 0.1) differ first at "
                            "0x477ff000 (65520 normal): 0x7c00 (inf inf) under nearest_even, saturation infinity, 0x7bff (65504 normal) under "
                            "nearest_even, saturation finite"),
              std::string::npos) << r.output;
}

TEST(audit_cli, a_broken_conversion_adapter_is_bad_input) {
    const auto unknown = script("flipcheck_unknown_element.sh",
                                "echo '{\"framework\": \"X\", \"installed\": true, \"conversions\": [{\"name\": \"c\", \"from\": \"binary32\", \"to\": \"float9\"}]}' > \"$2\"\n");
    auto r = run_flipcheck("audit --conversions --quick --device cpu --no-default-adapters --adapter 'sh " + unknown.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("\"to\" must be one of"), std::string::npos) << r.output;
    // Too few codes: the adapter writes one byte whatever it is asked.
    const auto short_codes = script("flipcheck_short_codes.sh",
                                    "if [ \"$1\" = --conversions ]; then echo '{\"framework\": \"X\", \"installed\": true, \"conversions\": "
                                    "[{\"name\": \"c\", \"from\": \"binary32\", \"to\": \"float8_e4m3fn\"}]}' > \"$2\"; else printf 'x' > \"$4\"; fi\n");
    r = run_flipcheck("audit --conversions --quick --device cpu --no-default-adapters --adapter 'sh " + short_codes.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("must write"), std::string::npos) << r.output;
    EXPECT_EQ(run_flipcheck("audit --conversions --device cpu --no-default-adapters").exit_code, 2);
    EXPECT_EQ(run_flipcheck("audit --conversions --device cpu --subject x --case y").exit_code, 2);
}
