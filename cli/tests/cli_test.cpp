// The command's contract: verdicts, counterexample reports, and exit code 2 for bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "flipcheck/run/shell_quote.hpp"
#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

// Every repro line and adapter command goes through these two: a word comes back from a real shell
// unchanged, and a plain word stays unquoted so that repro lines read well.
TEST(cli, words_for_the_shell_come_back_unchanged) {
    using flipcheck::run::quote;
    using flipcheck::run::shell_quote;
    EXPECT_EQ(quote("./libmy_subjects.so"), "./libmy_subjects.so");
    EXPECT_EQ(quote("my lib.so"), "'my lib.so'");
    EXPECT_EQ(shell_quote("x"), "'x'");
    for (const std::string word : {"it's", "a b", "$HOME", "`id`", "back\\slash", "\"q\"", "''", "-n"}) {
        for (const std::string& q : {quote(word), shell_quote(word)}) {
            FILE* p = popen(("printf '%s' " + q).c_str(), "r");
            ASSERT_NE(p, nullptr);
            std::string out;
            for (int c; (c = std::fgetc(p)) != EOF;) out += char(c);
            pclose(p);
            EXPECT_EQ(out, word) << "quoted as " << q;
        }
    }
}

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
    EXPECT_EQ(text.rfind("{\n  \"schema\": 1,\n  \"verdict\": \"pass\",", 0), 0u) << text;  // docs/json.md
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
        bad_input_case{"--bogus", "not expected"},
        // issue 29: numbers, empty and conflicting options, resources, outputs
        bad_input_case{"sweep --format binary64 --mapping sign_flip --key -2", "is not a number from 0 to 2^64 - 1"},
        bad_input_case{"sweep --format binary32 --mapping sign_flip --key 0x100000000", "is not a number from 0 to 4294967295"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --key ''", "--key was given an empty value"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --keys ''", "--keys was given an empty value"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --shard ''", "--shard was given an empty value"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --checkpoint ''", "--checkpoint was given an empty value"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --json ''", "--json was given an empty value"},
        bad_input_case{"--json ''", "--json was given an empty value"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --key 5 --keys 0:10", "--key excludes --keys"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --key 5 --shard 0/2", "--shard excludes --key"},
        bad_input_case{"sweep --format float8_e4m3fn --mapping sign_flip --shard 0/1000", "holds no key"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --keys 5:5", "END must be greater than BEGIN"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --threads 100000", "--threads"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --limit 0", "--limit"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --checkpoint-every nan", "--checkpoint-every"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --checkpoint /tmp", "is a folder"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --json /tmp", "is a folder"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --json /dev/full", "cannot write --json /dev/full"},
        // Issue 59: one number rule for the options CLI11 used to parse itself.
        bad_input_case{"sweep --format binary16 --mapping sign_flip --limit 010x", "--limit: '010x' is not a whole number from 1 to 1048576"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --limit -1", "--limit"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --threads 1e3", "--threads: '1e3' is not a whole number"},
        bad_input_case{"pairs --format binary16 --mapping sign_flip --limit 0", "--limit: '0' is not a whole number from 1"},
        bad_input_case{"check --plugin x.so --seed -1", "--seed: '-1' is not a whole number from 0 to 2^64 - 1"},
        bad_input_case{"check --plugin x.so --seed 18446744073709551616", "--seed"},
        bad_input_case{"check --plugin x.so --cases -1", "--cases: '-1' is not a whole number from 1 to 100000000"},
        bad_input_case{"audit --randoms -1", "--randoms: '-1' is not a whole number from 0 to 100000000"},
        bad_input_case{"audit --randoms 99999999999999999999999", "--randoms"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate nan", "--rate"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e-300",
                       "must be keys or pairs per second from 1 to 1e+18"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e9 --price nan", "--price"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e9 --keys 0:0x100000000",
                       "binary16 has only 65536 codes"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e9 --partition 'a\nrm -rf /'",
                       "--partition holds a line break"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e9 --partition 'gpu;reboot'",
                       "a Slurm partition name is letters"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest 'm\nx' --format binary16 --mapping sign_flip --rate 1e9",
                       "--manifest holds a line break"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --format binary16 --mapping sign_flip --rate 1e9 --op min",
                       "--op is for --workload pairs"},
        bad_input_case{"plan --engine slurm --shards 4 --manifest m --workload pairs --format binary16 --mapping sign_flip --rate 1e9 "
                       "--laws zero_placement",
                       "--laws is for --workload sweep"},
        bad_input_case{"sweep --format binary16 --mapping sign_flip --checkpoint /dev/zero", "is not a regular file"},
        bad_input_case{"check --plugin x.so --entry foo", "--entry, --workgroup, --mapping and --define are for --shader"},
        bad_input_case{"check --plugin x.so --mapping", "--entry, --workgroup, --mapping and --define are for --shader"},
        bad_input_case{"check --plugin x.so --workgroup 64", "--entry, --workgroup, --mapping and --define are for --shader"}),
    [](const ::testing::TestParamInfo<bad_input_case>& i) { return "case_" + std::to_string(i.index); });

TEST(cli, a_damaged_checkpoint_is_bad_input_not_a_crash) {
    const auto path = std::filesystem::temp_directory_path() / "flipcheck_damaged.ckpt";
    std::ofstream(path) << "flipcheck-checkpoint 3\nformat binary16\ngarbage\n";
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

// issue 29, defect 1: a range that ends at the top of binary64's keys ends; the last key is a key.
TEST(cli, a_range_at_the_top_of_the_64_bit_keys_ends) {
    for (const char* keys : {"--key 0xfffffffffffff000", "--key 0xffffffffffffffff", "--keys 0xffffffffffffff00:0xffffffffffffffff"}) {
        const auto r = run_flipcheck(std::string("sweep --format binary64 --mapping sign_flip --device cpu ") + keys);
        EXPECT_EQ(r.exit_code, 0) << keys << "\n" << r.output;
        EXPECT_NE(r.output.find("[cpu range]"), std::string::npos) << r.output;  // a part of the keys, not "exhaustive"
        EXPECT_NE(r.output.find("verdict: PASS"), std::string::npos) << r.output;
    }
    const auto one = run_flipcheck("sweep --format binary64 --mapping sign_flip --device cpu --key 0xffffffffffffffff");
    EXPECT_NE(one.output.find("keys=1 "), std::string::npos) << one.output;
}

TEST(cli, numbers_are_decimal_or_hex_never_octal) {
    const auto ten = run_flipcheck("sweep --format binary16 --mapping sign_flip --key 010 --json /dev/stdout");
    EXPECT_EQ(ten.exit_code, 0) << ten.output;
    const auto range = ten.output.find("\"range\": [");
    ASSERT_NE(range, std::string::npos) << ten.output;
    EXPECT_EQ(std::stoull(ten.output.substr(range + 10)), 10u) << ten.output;
    EXPECT_EQ(run_flipcheck("sweep --format binary16 --mapping sign_flip --key 09").exit_code, 0);
}

// Defect 8: a report that cannot be written is an error, and a run that fails before its results
// leaves the previous file as it was.
TEST(cli, outputs_are_checked_and_never_half_written) {
    const auto full = run_flipcheck("sweep --format binary16 --mapping sign_flip > /dev/full");
    EXPECT_EQ(full.exit_code, 2) << full.output;  // (its message went to /dev/full too)
    const auto path = std::filesystem::temp_directory_path() / "flipcheck_cli_keep.json";
    std::ofstream(path) << "the previous run's report\n";
    const auto bad = run_flipcheck("sweep --format binary16 --mapping sign_flip --keys 9:3 --json " + path.string());
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "the previous run's report\n");
    std::filesystem::remove(path);
}

// Defect 11: --version, one verdict line, one exit-code table in --help and the README.
TEST(cli, version_verdict_line_and_one_exit_code_table) {
    const auto v = run_flipcheck("--version");
    EXPECT_EQ(v.exit_code, 0) << v.output;
    EXPECT_EQ(v.output.rfind("flipcheck ", 0), 0u) << v.output;
    const auto pass = run_flipcheck("sweep --format binary16 --mapping sign_flip");
    EXPECT_NE(pass.output.find("verdict: PASS: 65536 keys checked (exhaustive), 0 failing"), std::string::npos) << pass.output;
    const auto fail = run_flipcheck("sweep --format binary16 --mapping zeros_swapped");
    EXPECT_EQ(fail.exit_code, 1);
    EXPECT_NE(fail.output.find("verdict: FAIL: "), std::string::npos) << fail.output;
    const auto help = run_flipcheck("--help");
    const auto at = help.output.find("Exit codes:\n");
    ASSERT_NE(at, std::string::npos) << help.output;
    std::ifstream readme(FLIPCHECK_README);
    const std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
    const std::string table = help.output.substr(at, help.output.find("\n\n", at) - at);
    EXPECT_NE(text.find(table), std::string::npos) << "README lacks the exit-code table of --help:\n" << table;
}

// Issue 59: a value CLI11 refuses is echoed short, whatever its length.
TEST(cli, a_long_bad_value_is_not_echoed_whole) {
    const std::string huge(100000, 'x');
    const auto r = run_flipcheck("sweep --format " + huge + " --mapping sign_flip");
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 500);
    EXPECT_NE(r.output.find("(100000 bytes)"), std::string::npos) << r.output.substr(0, 500);
    EXPECT_LT(r.output.size(), 4000u);
}

// Issue 59: the verdict line says "exhaustive" only for a walk of every key asked for.
TEST(cli, the_verdict_line_says_how_far_the_walk_went) {
    // (a range around the zeros, where zeros_swapped fails: the whole space would take a minute under ASan)
    const auto stopped = run_flipcheck("sweep --format binary32 --mapping zeros_swapped --device cpu --limit 1 --keys 0x7f000000:0x81000000");
    EXPECT_EQ(stopped.exit_code, 1) << stopped.output;
    EXPECT_EQ(stopped.output.find("(range)"), std::string::npos) << stopped.output;
    EXPECT_NE(stopped.output.find("keys checked (not the whole range: stopped at --limit after "), std::string::npos) << stopped.output;
    EXPECT_NE(stopped.output.find(" of the 33554432 keys asked for; --all checks them all), "), std::string::npos) << stopped.output;
    const auto all = run_flipcheck("sweep --format binary16 --mapping zeros_swapped --device cpu --all");
    EXPECT_NE(all.output.find("verdict: FAIL: 65536 keys checked (exhaustive), 2 failing"), std::string::npos) << all.output;
}
