// The command's contract: verdicts, counterexample reports, and exit code 2 for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

TEST(cli, a_built_in_16_bit_sweep_passes) {
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_flip --device cpu");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("keys=65536"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("verdict=pass"), std::string::npos) << r.output;
}

TEST(cli, a_mutant_fails_with_bits_class_law_and_repro) {
    const auto r = run_flipcheck("sweep --format bfloat16 --mapping zeros_swapped --device cpu");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("zero_placement broken at key 0x8000"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("0x8000 = -0 (zero-)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("expected:"), std::string::npos);
    EXPECT_NE(r.output.find("actual:   decode(key+1) = 0x0001"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("repro:    flipcheck sweep --format bfloat16 --mapping zeros_swapped --laws zero_placement --key 0x8000"),
              std::string::npos) << r.output;
}

TEST(cli, the_repro_command_reproduces_just_that_key) {
    const auto r = run_flipcheck("sweep --format bfloat16 --mapping zeros_swapped --laws zero_placement --key 0x8000");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("keys=1 "), std::string::npos) << r.output;
    const auto ok = run_flipcheck("sweep --format bfloat16 --mapping zeros_swapped --laws zero_placement --key 0x8001");
    EXPECT_EQ(ok.exit_code, 0) << ok.output;
}

TEST(cli, the_limit_keeps_the_smallest_keys) {
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_bit_only --limit 2 --laws successor_order");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find("successor_order broken at key 0x0000"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("successor_order broken at key 0x0001"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("broken at key 0x0002"), std::string::npos) << r.output;
}

TEST(cli, shards_cover_the_keys_exactly_once) {
    std::uint64_t total = 0;
    for (int i = 0; i < 3; ++i) {
        const auto r = run_flipcheck("sweep --format binary16 --mapping signed_key --shard " + std::to_string(i) + "/3");
        EXPECT_EQ(r.exit_code, 0) << r.output;
        const auto at = r.output.find("keys=");
        ASSERT_NE(at, std::string::npos);
        total += std::stoull(r.output.substr(at + 5));
    }
    EXPECT_EQ(total, 65536u);
}

TEST(cli, json_report_is_written) {
    const auto path = std::filesystem::temp_directory_path() / "flipcheck_cli_test.json";
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_flip --json " + path.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"keys_checked\": 65536"), std::string::npos) << text;
    EXPECT_NE(text.find("\"verdict\": \"pass\""), std::string::npos) << text;
    std::filesystem::remove(path);
}

// The low-precision formats (issue 15): the seeds' key reverses e8m0's order, exits 1 and shows it;
// the format-aware key passes there; `codes` prints every code; `list` gives every verdict.
TEST(cli, sign_flip_on_e8m0_fails_with_the_reversed_order) {
    const auto r = run_flipcheck("sweep --format float8_e8m0fnu --mapping sign_flip --laws successor_order --limit 2");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    // key 0x01 holds 2^127 and key 0x02 2^126: the upper half of the codes runs backwards.
    EXPECT_NE(r.output.find("decode(key 0x01) = 0xfe = 1.7014118346046923e+38"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("decode(key+1) = 0xfd = 8.5070591730234616e+37"), std::string::npos) << r.output;
    const auto ok = run_flipcheck("sweep --format float8_e8m0fnu --mapping format_key");
    EXPECT_EQ(ok.exit_code, 0) << ok.output;
    EXPECT_NE(ok.output.find("keys=256"), std::string::npos) << ok.output;
}

TEST(cli, unused_bits_are_reported_for_fp6_and_fp4) {
    const auto r = run_flipcheck("sweep --format float4_e2m1fn --mapping format_key");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("codes with unused container bits set: the mapping masks them"), std::string::npos) << r.output;
    const auto bad = run_flipcheck("sweep --format float6_e2m3fn --mapping unmasked_key --limit 1");
    EXPECT_EQ(bad.exit_code, 1) << bad.output;
    EXPECT_NE(bad.output.find("(unused bits set)"), std::string::npos) << bad.output;
    EXPECT_NE(bad.output.find("neither masks nor rejects"), std::string::npos) << bad.output;
}

TEST(cli, codes_lists_every_code_with_its_value) {
    const auto r = run_flipcheck("codes --format float4_e2m1fn");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("0x07  6 "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("0x08  -0 "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("0x10"), std::string::npos) << r.output;  // only the 16 canonical codes
    const auto e8m0 = run_flipcheck("codes --format float8_e8m0fnu");
    EXPECT_NE(e8m0.output.find("0xff  +nan"), std::string::npos) << e8m0.output;
}

TEST(cli, list_gives_every_built_in_verdict_on_the_byte_formats) {
    const auto r = run_flipcheck("list");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("float8_e8m0fnu   wrong: successor_order"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("float4_e2m1fn    wrong: round_trip_bits"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("UNEXPECTED"), std::string::npos) << r.output;
    for (const char* name : {"float8_e4m3fnuz", "float6_e3m2fn", "sign_xor_key", "unmasked_key", "format_key"})
        EXPECT_NE(r.output.find(name), std::string::npos) << name;
}

TEST(cli, list_names_everything) {
    const auto r = run_flipcheck("list");
    EXPECT_EQ(r.exit_code, 0);
    for (const char* name : {"binary16", "bfloat16", "binary32", "binary64", "sign_flip_branchless", "signed_key",
                             "zeros_swapped", "successor_order", "nan_ignore", "total_order", "lowest_index"})
        EXPECT_NE(r.output.find(name), std::string::npos) << name;
}

struct bad_input_case {
    const char* args;
    const char* message;
};

class cli_bad_input : public ::testing::TestWithParam<bad_input_case> {};

TEST_P(cli_bad_input, exits_2_with_a_clear_message) {
    const auto r = run_flipcheck(GetParam().args);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    cli, cli_bad_input,
    ::testing::Values(
        bad_input_case{"sweep --format binary33 --mapping sign_flip", "{binary16,bfloat16,binary32,binary64,float8_e4m3fn,"},
        bad_input_case{"codes --format binary32", "codes` lists formats of 16 bits or fewer"},
        bad_input_case{"sweep --format float4_e2m1fn --mapping sign_flip --keys 0:0x101", "outside the key space"},
        bad_input_case{"sweep --format binary32 --mapping nope", "sign_flip_branchless"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --shard 3/2", "expected i/n"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --shard x", "expected i/n"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --shard 1/0", "expected i/n"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --laws nope", "valid: all, round_trip_key"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --json /nonexistent/dir/x.json", "cannot write --json"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --checkpoint /nonexistent/dir/c", "cannot write --checkpoint"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --keys 0:0x20000", "outside the key space"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --key zz", "is not a number"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --device tpu", "{cpu,gpu,auto}"},
        bad_input_case{"sweep --format binary16", "--mapping is required"},
        bad_input_case{"--bogus", "not expected"}),
    [](const ::testing::TestParamInfo<bad_input_case>& i) { return "case_" + std::to_string(i.index); });

TEST(cli, a_damaged_checkpoint_is_bad_input_not_a_crash) {
    const auto path = std::filesystem::temp_directory_path() / "flipcheck_damaged.ckpt";
    std::ofstream(path) << "flipcheck-checkpoint 2\nformat binary16\ngarbage\n";
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_flip --checkpoint " + path.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("damaged"), std::string::npos) << r.output;
    std::filesystem::remove(path);
}

TEST(cli, a_checkpoint_of_another_sweep_is_refused) {
    const auto path = std::filesystem::temp_directory_path() / "flipcheck_other.ckpt";
    std::filesystem::remove(path);
    ASSERT_EQ(run_flipcheck("sweep --format binary16 --mapping sign_flip --checkpoint " + path.string()).exit_code, 0);
    const auto r = run_flipcheck("sweep --format bfloat16 --mapping sign_flip --checkpoint " + path.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("belongs to another sweep"), std::string::npos) << r.output;
    std::filesystem::remove(path);
}

TEST(cli, cross_check_without_a_gpu_is_bad_input) {
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_flip --cross-check --device cpu");
    if (r.output.find("agree exactly") != std::string::npos) GTEST_SKIP() << "a GPU is present";
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--cross-check"), std::string::npos) << r.output;
}

// binary64 is sampled, and every report says so; the sampled domain runs on the threads asked for,
// and refuses a checkpoint (exit 2) rather than ignore it.
TEST(cli, binary64_is_reported_as_sampled_with_its_coverage) {
    const auto r = run_flipcheck("sweep --format binary64 --mapping sign_flip --device cpu --threads 1");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("[cpu sampled]"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("coverage=6.8e-13"), std::string::npos) << r.output;
    const auto whole = run_flipcheck("sweep --format binary16 --mapping sign_flip --device cpu");
    EXPECT_NE(whole.output.find("[cpu exhaustive]"), std::string::npos) << whole.output;
    EXPECT_NE(whole.output.find("coverage=1 "), std::string::npos) << whole.output;
}

TEST(cli, options_that_would_be_ignored_are_refused) {
    const auto ckpt = std::filesystem::temp_directory_path() / "flipcheck_cli_b64.ckpt";
    const auto r = run_flipcheck("sweep --format binary64 --mapping sign_flip --device cpu --checkpoint " + ckpt.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--checkpoint is for exhaustive sweeps"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(ckpt));
}
