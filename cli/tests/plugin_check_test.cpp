// `flipcheck check --plugin`: the examples' plug-ins pass and fail as they must, a failure's repro
// command fails again, and every kind of bad input is refused with exit code 2 before anything runs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

namespace {
// A subject that crashes must die of its signal, as it does without ASan, whose handler would turn
// the child's SIGSEGV into exit status 1 (flipcheck reports both as the subject's failure).
flipcheck::test::command_result run_misbehaving(const std::string& args) {
    return flipcheck::test::run_flipcheck_env("ASAN_OPTIONS=handle_segv=0", args);
}
}  // namespace

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
    // A byte format's reducer and the scaling kinds go through the same path.
    EXPECT_TRUE(has(r.output, "e4m3_max (float8_e4m3fn max, declares nan=undefined zero=ordered): pass")) << r.output;
    EXPECT_TRUE(has(r.output, "e4m3_decode (decode, float8_e4m3fn): pass after 256 inputs, every code (exhaustive)")) << r.output;
    EXPECT_TRUE(has(r.output, "e8m0_scale_e4m3 (mx scale, element float8_e4m3fn): pass")) << r.output;
    // An atomic strategy is stepped in the library (ABI v2), a lane strategy with its neighbours,
    // and a reducer of packed pairs is judged lane by lane on every array of up to three bytes.
    EXPECT_TRUE(has(r.output, "interleaved_steps")) << r.output;
    EXPECT_FALSE(has(r.output, "whole updates only")) << r.output;
    EXPECT_TRUE(has(r.output, "bf16_max_shared_word (bfloat16 max")) << r.output;
    EXPECT_TRUE(has(r.output, "(lane atomic strategy)")) << r.output;
    EXPECT_TRUE(has(r.output, "fp4x2_max (pair reducer, float4_e2m1fnx2, max, nan=total_order zero=ordered): pass after 16843009 arrays, "
                              "every array of 0 to 3 bytes (exhaustive)")) << r.output;
    // Issue 59: a pass says how many passed, not "0 of N ... failed".
    EXPECT_TRUE(has(r.output, "subjects checked, none failed\n")) << r.output;
    EXPECT_FALSE(has(r.output, "verdict: PASS: 0 of")) << r.output;
}

TEST(plugin_check, atomic_steps_lanes_and_pairs_fail_through_the_plugin_with_a_repro_that_fails_again) {
    const auto r = run_flipcheck("check --plugin " + wrong + " --subject cas_max_stale");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "in the atomic steps")) << r.output;
    EXPECT_TRUE(has(r.output, "--subject cas_max_stale --case cas_max_stale.case")) << r.output;
    const auto again = run_flipcheck("check --plugin " + wrong + " --subject cas_max_stale --case cas_max_stale.case");
    EXPECT_EQ(again.exit_code, 1) << again.output;
    EXPECT_TRUE(has(again.output, "in the atomic steps")) << again.output;
    // The same schedule on the right CAS loop passes; a schedule it cannot follow is bad input.
    const auto right = run_flipcheck("check --plugin " + good + " --subject cas_max_float --case cas_max_stale.case");
    EXPECT_EQ(right.exit_code, 0) << right.output;
    std::ofstream("bad_steps.case") << "binary32: 0x00000000,0x00000001 steps 7\n";
    const auto bad = run_flipcheck("check --plugin " + good + " --subject cas_max_float --case bad_steps.case");
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    EXPECT_TRUE(has(bad.output, "which is not waiting at a step")) << bad.output;

    const auto half = run_flipcheck("check --plugin " + wrong + " --subject bf16_max_wrong_half");
    EXPECT_EQ(half.exit_code, 1) << half.output;
    EXPECT_TRUE(has(half.output, "byte offset 0 of their 32-bit word")) << half.output;
    const auto half_again = run_flipcheck("check --plugin " + wrong + " --subject bf16_max_wrong_half --case bf16_max_wrong_half.case");
    EXPECT_EQ(half_again.exit_code, 1) << half_again.output;

    const auto pairs = run_flipcheck("check --plugin " + wrong + " --subject fp4x2_max_whole_byte");
    EXPECT_EQ(pairs.exit_code, 1) << pairs.output;
    EXPECT_TRUE(has(pairs.output, "fp4x2_max_whole_byte (pair reducer, float4_e2m1fnx2, max, nan=total_order zero=ordered): FAIL")) << pairs.output;
    EXPECT_TRUE(has(pairs.output, "--subject fp4x2_max_whole_byte --case fp4x2_max_whole_byte.case")) << pairs.output;
    const auto pairs_again = run_flipcheck("check --plugin " + wrong + " --subject fp4x2_max_whole_byte --case fp4x2_max_whole_byte.case");
    EXPECT_EQ(pairs_again.exit_code, 1) << pairs_again.output;
    EXPECT_TRUE(has(pairs_again.output, "FAIL after 1 arrays, the given case")) << pairs_again.output;
    const auto pairs_right = run_flipcheck("check --plugin " + good + " --subject fp4x2_max --case fp4x2_max_whole_byte.case");
    EXPECT_EQ(pairs_right.exit_code, 0) << pairs_right.output;
}

TEST(plugin_check, a_library_built_for_abi_v1_still_loads_and_says_what_it_cannot_check) {
    // The lost-update CAS loop through a v1 table: replayed in whole updates, where it is right.
    const auto r = run_flipcheck("check --plugin " + std::string(ABI_V1_PLUGIN));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has(r.output, "cas_max_stale (binary32 max")) << r.output;
    EXPECT_TRUE(has(r.output, "whole updates only: a library built for plug-in ABI v1")) << r.output;
}

TEST(plugin_check, every_scaling_kind_is_judged_as_its_macro_judges_it) {
    const auto r = run_flipcheck("check --plugin " + std::string(SCALES_PLUGIN) + " --json scales.json");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    for (const char* s : {"tensor_scale_e4m3 (tensor scale, element float8_e4m3fn): pass",
                          "block_scale_f32 (block scale, binary32 -> e8m0 for float8_e4m3fn, nan=propagate): pass",
                          "block_scale_e5m2 (block scale, float8_e5m2 -> e8m0 for float8_e4m3fn, nan=propagate): pass after",
                          "every pair of codes at the block's first positions (exhaustive)",
                          "nvfp4_scale (nvfp4 scale, binary32 block amax -> e4m3fn, global scale 448*6/amax): pass",
                          "tensor_scale_unguarded (tensor scale, element float8_e4m3fn): FAIL",
                          "nvfp4_truncated (nvfp4 scale, binary32 block amax -> e4m3fn, global scale 448*6/amax): FAIL",
                          "verdict: FAIL: 2 of 6 subjects failed"})
        EXPECT_TRUE(has(r.output, s)) << s << "\n" << r.output;
    // Each failure's input is a case that replays: it fails again, and the right subject passes it.
    EXPECT_TRUE(has(r.output, "--subject nvfp4_truncated --case nvfp4_truncated.case")) << r.output;
    const auto again = run_flipcheck("check --plugin " + std::string(SCALES_PLUGIN) + " --subject nvfp4_truncated --case nvfp4_truncated.case");
    EXPECT_EQ(again.exit_code, 1) << again.output;
    EXPECT_TRUE(has(again.output, "FAIL after 1 inputs, the given case's inputs")) << again.output;
    const auto right = run_flipcheck("check --plugin " + std::string(SCALES_PLUGIN) + " --subject nvfp4_scale --case nvfp4_truncated.case");
    EXPECT_EQ(right.exit_code, 0) << right.output;
    const auto unguarded = run_flipcheck("check --plugin " + std::string(SCALES_PLUGIN) +
                                         " --subject tensor_scale_unguarded --case tensor_scale_unguarded.case");
    EXPECT_EQ(unguarded.exit_code, 1) << unguarded.output;
    // A case that is not one: bad input.
    const auto odd = run_flipcheck("check --plugin " + std::string(SCALES_PLUGIN) + " --subject nvfp4_scale --case tensor_scale_unguarded.case");
    EXPECT_EQ(odd.exit_code, 2) << odd.output;
    EXPECT_TRUE(has(odd.output, "pairs: an even count")) << odd.output;
}

// Quantizers, e8m0 scales under their recipe (codes and values), a tensor scale with its own
// target and canonical keys: each judged as FLIPCHECK_CHECK_QUANTIZER, _SCALING and _KEY judge it,
// every known-wrong one with its public bug's symptom, and each failure's case replays.
TEST(plugin_check, quantizers_recipes_and_keys_are_judged_under_what_they_declare) {
    const std::string lib = MANY_TO_ONE_PLUGIN;
    const auto r = run_flipcheck("check --plugin " + lib + " --json many.json");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    for (const char* s : {
             "e4m3_rne (quantizer, binary32 -> float8_e4m3fn, nearest_even, finite): pass after 67590 inputs",
             "bf16_to_e5m2_rz (quantizer, bfloat16 -> float8_e5m2, toward_zero, infinity): pass after 65536 inputs, every bfloat16 pattern (exhaustive)",
             "e4m3_truncated (quantizer, binary32 -> float8_e4m3fn, nearest_even, finite): FAIL",
             "quantize_rounding: quantize(0x3a800001 (0.000976562616 normal)) = 0x00 (0 zero); the oracle's: 0x01 (0.001953125 subnormal)",
             "e4m3_nosat (quantizer, binary32 -> float8_e4m3fn, nearest_even, finite): FAIL",
             "quantize_special: quantize(0x43e80001 (464.000031 normal)) = 0x7f (nan qnan); the oracle's: 0x7e (448 normal)",
             "rceil_code (mx scale, element float8_e4m3fn, recipe rceil): pass",
             // The right RCEIL scale, undeclared, judged under OCP's floor: the first amax where they part.
             "rceil_undeclared (mx scale, element float8_e4m3fn): FAIL",
             "the e8m0 scale of amax 0x04600002 (2.6331077e-36 normal) for float8_e4m3fn elements is 0x01 (2^-126); recipe ocp_floor's: 0x00 (2^-127)",
             "rceil_value (scale value, element float8_e4m3fn, recipe rceil): pass",
             "clamped_after_rounding (scale value, element float8_e4m3fn, recipe rceil): FAIL",
             "which is no power of two from 2^-127 to 2^127 (no e8m0 scale)",
             "nvfp4_global (tensor scale, element float4_e2m1fn, target 2688): pass",
             "nvfp4_global_unguarded (tensor scale, element float4_e2m1fn, target 2688): FAIL",
             "sql_bytes_f32 (canonical key, binary32, sql): pass",
             "sql_widened (canonical key, binary32, sql): pass",
             "total_order_f64 (canonical key, binary64, total_order): pass",
             "every code with its low 48 bits zero, every binade's edge mantissas",
             "signed_zeros_f32 (canonical key, binary32, sql): FAIL",
             "key_equivalence: 0x80000000 (-0 zero) and 0x00000000 (0 zero) are equal under sql, but their keys are 0x7fffffff and 0x80000000",
             "little_endian_f16 (canonical key, binary16, sql): FAIL",
             "key_order: 0xfc00 (-inf inf) and 0xfbff (-65504 normal) are in order under sql, but their keys are bytes ff 03 and bytes 00 04",
             "fused_e4m3 (scaled quantizer, binary32 -> float8_e4m3fn, nearest_even, finite, x * s exact): pass",
             "bf16_mx_e2m1 (scaled quantizer, bfloat16 -> float4_e2m1fn, nearest_even, finite, x / s rounded to binary32): pass",
             "fused_double_rounding (scaled quantizer, binary32 -> float8_e4m3fn, nearest_even, finite, x * s exact): FAIL",
             "quantize_rounding: quantize(0x365b6db8 (3.26974077e-06 normal) * 0x44baaaaa (1493.33325 normal)) = 0x02",
             "verdict: FAIL: 8 of 18 subjects failed"})
        EXPECT_TRUE(has(r.output, s)) << s << "\n" << r.output;
    for (const char* failed : {"e4m3_truncated", "e4m3_nosat", "rceil_undeclared", "clamped_after_rounding", "signed_zeros_f32", "little_endian_f16",
                               "fused_double_rounding"}) {
        SCOPED_TRACE(failed);
        const std::string replay = " --subject " + std::string(failed) + " --case " + failed + ".case";
        EXPECT_TRUE(has(r.output, replay)) << r.output;
        const auto again = run_flipcheck("check --plugin " + lib + replay);
        EXPECT_EQ(again.exit_code, 1) << again.output;
        EXPECT_TRUE(has(again.output, "the given case's inputs")) << again.output;
    }
    // The right twins pass the wrong ones' cases.
    for (const auto& [right, wrong] : {std::pair{"e4m3_rne", "e4m3_truncated"}, std::pair{"rceil_code", "clamped_after_rounding"},
                                       std::pair{"sql_bytes_f32", "signed_zeros_f32"}, std::pair{"fused_e4m3", "fused_double_rounding"}}) {
        const auto twin = run_flipcheck("check --plugin " + lib + " --subject " + right + " --case " + wrong + ".case");
        EXPECT_EQ(twin.exit_code, 0) << right << "\n" << twin.output;
    }
    // Under the recipe it declares, the first amax OCP's floor disagrees on passes.
    std::ofstream("amax.case") << "binary32: 0x04600002\n";
    EXPECT_EQ(run_flipcheck("check --plugin " + lib + " --subject rceil_code --case amax.case").exit_code, 0);
    EXPECT_EQ(run_flipcheck("check --plugin " + lib + " --subject rceil_undeclared --case amax.case").exit_code, 1);
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
    EXPECT_TRUE(has(r.output, "e4m3_decode_480 (decode, float8_e4m3fn): FAIL")) << r.output;
    EXPECT_TRUE(has(r.output, "float8_e4m3fn code 0x7f decodes to 0x43f00000 (480 normal)")) << r.output;
    EXPECT_TRUE(has(r.output, "e8m0_scale_no_nan (mx scale, element float8_e4m3fn): FAIL")) << r.output;
    EXPECT_TRUE(has(r.output, "--subject amax_std_max --case amax_std_max.case")) << r.output;
    const auto amax = run_flipcheck("check --plugin " + wrong + " --subject amax_std_max --case amax_std_max.case");
    EXPECT_EQ(amax.exit_code, 1) << amax.output;
    EXPECT_TRUE(has(amax.output, "FAIL after 1 arrays, the given case")) << amax.output;
    const auto amax_right = run_flipcheck("check --plugin " + good + " --subject amax_f32 --case amax_std_max.case");
    EXPECT_EQ(amax_right.exit_code, 0) << amax_right.output;
    const auto decoder = run_flipcheck("check --plugin " + wrong + " --subject e4m3_decode_480 --case e4m3_decode_480.case");
    EXPECT_EQ(decoder.exit_code, 1) << decoder.output;
    EXPECT_TRUE(has(decoder.output, "code 0x7f decodes to 0x43f00000 (480 normal)")) << decoder.output;
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
        {"check --plugin " + std::string(ABI_MISMATCH_PLUGIN), "was built for plug-in ABI version 99, but this flipcheck speaks versions 1 and 2"},
        {"check --plugin " + std::string(DUPLICATE_PLUGIN), "two subjects are named 'twin'"},
        {"check --plugin " + std::string(DECODER_OF_HALF_PLUGIN), "half_decoder decodes binary16: a decoder is of a byte format"},
        {"check --plugin " + good + " --subject nope", "has no subject named 'nope' (it has: float_key, atomic_max_float"},
        {"check --plugin " + good + " --subject float_key --format binary16", "subject float_key declares format binary32, not binary16"},
        {"check --plugin " + good + " --subject float_key --case x.case", "--case is for reducers"},
        {"check --plugin " + good + " --subject max_propagate --key 0x1", "--key is for mappings"},
        {"check --plugin " + good + " --subject max_propagate --case /nonexistent.case", "is not a readable file"},
        {"check --plugin " + good + " --subject float_key --key 0x100000000", "is not a number from 0 to 4294967295"},
        {"check --plugin " + good + " --subject float_key --key banana", "is not a number from 0 to 4294967295"},
        {"check --plugin " + good + " --subject float_key --key -1", "is not a number from 0 to 4294967295"},
        {"check --plugin " + good + " --subject float_key --key ''", "--key was given an empty value"},
        {"check --plugin " + good + " --timeout nan", "--timeout"},
        {"check --plugin " + good + " --device gpu", "run in the library on the host"},
        {"check", "give --plugin FILE.so (your compiled subjects), --shader FILE (a compute shader) or --adapter CMD"},
        {"FLIPCHECK_TEST_POLICY=inf check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares saturation=infinity, which float8_e4m3fn has no code for"},
        {"FLIPCHECK_TEST_POLICY=from_byte check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares a quantizer from float8_e4m3fn"},
        {"FLIPCHECK_TEST_POLICY=to_e8m0 check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares a quantizer to float8_e8m0fnu, which is no element"},
        {"FLIPCHECK_TEST_POLICY=recipe check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares recipe 7 (known: 0 ocp_floor, 1 rceil, 2 rceil_eps)"},
        {"FLIPCHECK_TEST_POLICY=key_bytes check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares policy word 0x00000901"},
        {"FLIPCHECK_TEST_POLICY=reducer check --plugin " + std::string(ODD_POLICY_PLUGIN), "which a reducer does not have (0)"},
        {"FLIPCHECK_TEST_POLICY=scaled_op check --plugin " + std::string(ODD_POLICY_PLUGIN), "subject odd declares policy word 0x00020000 (a scaled quantizer's"},
    };
    for (const bad& c : cases) {
        const bool env = c.args.rfind("FLIPCHECK_TEST_POLICY=", 0) == 0;
        const std::size_t space = c.args.find(' ');
        const auto r = env ? flipcheck::test::run_flipcheck_env(c.args.substr(0, space), c.args.substr(space + 1)) : run_flipcheck(c.args);
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

// A subject that misbehaves while checked runs in a process of its own: whatever it does is its
// failure (exit code 1), with the stage and the input it was running and a replay that fails again.
TEST(plugin_check, a_subject_that_throws_fails_with_its_message) {
    const auto r = run_flipcheck("check --plugin " + std::string(THROWING_PLUGIN));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "subject thrower failed: my kernel launch failed: out of memory")) << r.output;
    EXPECT_TRUE(has(r.output, "during edge_battery")) << r.output;
    EXPECT_TRUE(has(r.output, "verdict: FAIL: 1 of 1 subject failed")) << r.output;
}

TEST(plugin_check, a_subject_that_crashes_exits_or_hangs_fails_with_its_input_and_a_replay) {
    struct misbehaviour {
        std::string plugin, subject, what, extra;
    };
    const misbehaviour cases[] = {
        {CRASHING_PLUGIN, "crasher", "was killed by signal 11 (Segmentation fault)", ""},
        {EXITING_PLUGIN, "exiter", "ended the process (exit status 0) before its check was done", ""},
        {HANGING_PLUGIN, "hanger", "did not return within --timeout 1 s (killed)", " --timeout 1"},
    };
    for (const auto& c : cases) {
        const auto r = run_misbehaving("check --plugin " + c.plugin + c.extra);
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_TRUE(has(r.output, c.subject + " (reducer): FAIL: it " + c.what + " during edge_battery")) << r.output;
        EXPECT_TRUE(has(r.output, "  on binary32: ")) << r.output;  // the array it was given
        EXPECT_TRUE(has(r.output, "repro: flipcheck check --plugin " + c.plugin + " --subject " + c.subject + " --case " + c.subject + ".case"))
            << r.output;
        EXPECT_FALSE(has(r.output, "verdict: PASS")) << r.output;
        const auto again = run_misbehaving("check --plugin " + c.plugin + " --subject " + c.subject + " --case " + c.subject + ".case" + c.extra);
        EXPECT_EQ(again.exit_code, 1) << again.output;
        EXPECT_TRUE(has(again.output, "FAIL: it " + c.what + " during replay")) << again.output;
    }
}

// Every kind of subject (one library, misbehaving as FLIPCHECK_TEST_MISBEHAVE says): whatever it
// does on its trigger is that subject's failure, exit code 1, with the input it was given and, but
// for an amax or a hang, a replay that fails the same way again.
TEST(plugin_check, every_kind_that_throws_crashes_exits_hangs_or_answers_garbage_fails_with_its_input) {
    const std::string lib = EVERY_KIND_PLUGIN;
    struct kind {
        std::string subject, name;
    };
    const kind kinds[] = {{"map", "mapping"},   {"value", "reducer"},
                          {"index", "arg reducer"}, {"atomic", "atomic strategy"},
                          {"arg_atomic", "arg atomic strategy"}, {"amax", "amax"},
                          {"quant", "quantizer"},   {"sql", "canonical key"},
                          {"rceil", "mx scale"}};
    const std::pair<std::string, std::string> behaviours[] = {
        {"throw", "the subject's own error"},
        {"crash", "it was killed by signal 11 (Segmentation fault)"},
        {"exit", "it ended the process (exit status 0) before its check was done"},
        {"hang", "it did not return within --timeout 1 s (killed)"},
        {"garbage", ""},
    };
    for (const auto& [how, what] : behaviours)
        for (const auto& k : kinds) {
            if (how == "garbage" && k.subject == "map") continue;  // a mapping's garbage is its sweep's: GARBAGE_PLUGIN
            SCOPED_TRACE(how + " " + k.subject);
            const std::string env = "ASAN_OPTIONS=handle_segv=0 FLIPCHECK_TEST_MISBEHAVE=" + how;
            const std::string only = " --subject " + k.subject + (k.subject == "map" ? " --key 0x3f800000" : "");
            // --timeout 1 only for the hang: an exit under ASan runs the leak check, which a loaded
            // machine can make take longer than a second (issue 60).
            const auto r = flipcheck::test::run_flipcheck_env(env, "check --plugin " + lib + only + (how == "hang" ? " --timeout 1" : " --timeout 30"));
            EXPECT_EQ(r.exit_code, 1) << r.output;
            EXPECT_TRUE(has(r.output, "verdict: FAIL: 1 of 1 subject failed")) << r.output;
            if (how == "garbage") {
                EXPECT_TRUE(has(r.output, k.subject + " (binary32 ") || has(r.output, k.subject + " (amax, binary32") ||
                            has(r.output, k.subject + " (" + k.name + ", "))
                    << r.output;
                EXPECT_TRUE(has(r.output, "): FAIL after ")) << r.output;
                continue;
            }
            EXPECT_TRUE(has(r.output, k.subject + " (" + k.name + "): FAIL: ")) << r.output;
            // A mapping runs inside the sweep's noexcept law code: what it throws ends its process
            // (std::terminate), a crash like any other, still found at its key.
            EXPECT_TRUE(has(r.output, k.subject == "map" && how == "throw" ? "it was killed by signal 6 (Aborted)" : what)) << r.output;
            if (k.subject == "map") {
                EXPECT_TRUE(has(r.output, "on key 0x3f800000")) << r.output;
                continue;
            }
            EXPECT_TRUE(has(r.output, "  on binary32: 0x")) << r.output;
            // One input a call: the one it misbehaves on, in its own format (an amax's is binary32).
            if (k.name == "quantizer" || k.name == "canonical key" || k.name == "mx scale") {
                EXPECT_TRUE(has(r.output, "  on binary32: 0x3f800000\n")) << r.output;
            }
            if (k.subject == "amax" || how == "hang") continue;
            const auto again = flipcheck::test::run_flipcheck_env(env, "check --plugin " + lib + " --subject " + k.subject + " --case " +
                                                                                k.subject + ".case");
            EXPECT_EQ(again.exit_code, 1) << again.output;
            EXPECT_TRUE(has(again.output, what + " during replay")) << again.output;
        }
}

TEST(plugin_check, a_mapping_that_crashes_on_one_key_is_found_at_that_key) {
    const auto r = run_misbehaving("check --plugin " + std::string(CRASHING_MAPPING_PLUGIN));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "crashing_map (mapping): FAIL: it was killed by signal 11")) << r.output;
    EXPECT_TRUE(has(r.output, "on key 0x3f800000")) << r.output;
    EXPECT_TRUE(has(r.output, "--subject crashing_map --key 0x3f800000")) << r.output;
}

// Every kind runs isolated: an atomic strategy (its steps replayed in flipcheck's own code) and an
// amax as well as the reducers above.
TEST(plugin_check, an_atomic_strategy_or_an_amax_that_misbehaves_fails_with_its_input) {
    const auto atomic = run_misbehaving("check --plugin " + std::string(EXITING_ATOMIC_PLUGIN));
    EXPECT_EQ(atomic.exit_code, 1) << atomic.output;
    EXPECT_TRUE(has(atomic.output, "exiting_atomic (atomic strategy): FAIL: it ended the process (exit status 0) before its check "
                                   "was done during edge_battery")) << atomic.output;
    EXPECT_TRUE(has(atomic.output, "--subject exiting_atomic --case exiting_atomic.case")) << atomic.output;
    const auto amax = run_misbehaving("check --plugin " + std::string(CRASHING_AMAX_PLUGIN));
    EXPECT_EQ(amax.exit_code, 1) << amax.output;
    EXPECT_TRUE(has(amax.output, "crashing_amax (amax): FAIL: it was killed by signal 11 (Segmentation fault) during "
                                 "amax_battery_and_random_arrays")) << amax.output;
    EXPECT_TRUE(has(amax.output, "  on binary32: ")) << amax.output;
}

TEST(plugin_check, a_sweep_that_answers_garbage_fails_without_reading_it) {
    const auto r = run_flipcheck("check --plugin " + std::string(GARBAGE_PLUGIN));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "garbage's sweep answered garbage: a counterexample names law 999")) << r.output;
}

namespace {
// flipcheck on the hanging subject, signalled SIG once its stderr says the subject has run for 2 s.
// It waits for that line, not for a time: a sleep before the signal races flipcheck's start on a
// loaded machine. (Bounded: a flipcheck that never says so is signalled after 120 s, and the test
// fails on the missing line.) The output holds stdout, then the stderr it waited on.
flipcheck::test::command_result signalled_once_running(const std::string& sig) {
    const std::string err = (std::filesystem::temp_directory_path() / ("flipcheck_hang_" + std::to_string(::getpid()) + ".err")).string();
    const auto r = run_misbehaving("check --plugin " + std::string(HANGING_PLUGIN) + " --timeout 600 2>" + err +
                                   " & p=$!; i=0; until grep -q 'still running' " + err +
                                   " || [ $i -ge 1200 ]; do sleep 0.1; i=$((i+1)); done; kill -" + sig + " $p; wait $p; s=$?; cat " +
                                   err + "; rm -f " + err + "; exit $s");
    return r;
}
}  // namespace

// Defect 3: Ctrl-C and SIGTERM stop a check promptly (the subject's process is killed), print what
// was checked, and exit 130 / 143, never 0.
TEST(plugin_check, a_signal_stops_the_check_with_its_exit_code) {
    for (const auto& [sig, code] : {std::pair{"TERM", 143}, std::pair{"INT", 130}}) {
        const auto r = signalled_once_running(sig);
        EXPECT_EQ(r.exit_code, code) << sig << "\n" << r.output;
        EXPECT_TRUE(has(r.output, "verdict: INTERRUPTED: 0 of 1 subject checked, 1 not checked")) << r.output;
    }
}

// Defect 12: a step that runs longer than 2 seconds says so on stderr while it runs (with
// --timeout 600: a shorter timeout would race the line on a loaded machine).
TEST(plugin_check, a_long_subject_shows_progress) {
    const auto r = signalled_once_running("INT");
    EXPECT_EQ(r.exit_code, 130) << r.output;
    EXPECT_TRUE(has(r.output, "progress: subject hanger still running after 2")) << r.output;
}

// Issue 59: the library is opened in a child. Its constructor or entry point that exits, crashes or
// hangs is the plug-in's failure (exit 1, never a silent 0 and never flipcheck's own crash).
TEST(plugin_check, a_library_that_misbehaves_while_opened_fails) {
    const std::pair<std::string, std::string> cases[] = {
        {"constructor_exit", "it ended the process (exit status 0)"},
        {"constructor_crash", "it was killed by signal 11"},
        {"constructor_hang", "it did not return within --timeout 1 s (killed)"},
        {"entry_exit", "it ended the process (exit status 0)"},
        {"entry_crash", "it was killed by signal 11"},
    };
    for (const auto& [how, what] : cases) {
        SCOPED_TRACE(how);
        // --timeout 1 only where it is what is tested: an exit under ASan runs the leak check, which
        // a loaded machine can make take longer than a second.
        const std::string timeout = how.find("_hang") != std::string::npos ? " --timeout 1" : " --timeout 30";
        const auto r = flipcheck::test::run_flipcheck_env("ASAN_OPTIONS=handle_segv=0 FLIPCHECK_TEST_OPEN=" + how,
                                                          "check --plugin " + std::string(UNTRUSTED_PLUGIN) + timeout);
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_TRUE(has(r.output, ": FAIL: " + what)) << r.output;
        EXPECT_TRUE(has(r.output, "while flipcheck opened it")) << r.output;
        EXPECT_TRUE(has(r.output, "verdict: FAIL: the plug-in could not be opened")) << r.output;
    }
    // And the same library, opened quietly, has three subjects to check.
    const auto quiet = run_flipcheck("check --plugin " + std::string(UNTRUSTED_PLUGIN) + " --subject lying_map --key 0x3f800000");
    EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
}

// Issue 59: every answer is held against what was asked.
TEST(plugin_check, an_answer_that_claims_more_than_was_asked_fails) {
    const std::pair<std::string, std::string> sweeps[] = {
        {"sweep_one_key", "answered for keys [0, 1) where [0, 4294967296) was asked"},
        {"sweep_part", "answered for keys [0, 65536) where [0, 4294967296) was asked"},
        {"sweep_short", "checked 65536 of 4294967296 keys without saying that it stopped early"},
    };
    for (const auto& [lie, what] : sweeps) {
        SCOPED_TRACE(lie);
        const auto r = flipcheck::test::run_flipcheck_env("FLIPCHECK_TEST_LIE=" + lie,
                                                          "check --plugin " + std::string(UNTRUSTED_PLUGIN) + " --subject lying_map");
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_TRUE(has(r.output, "lying_map's sweep answered garbage: it " + what.substr(0, what.find(' ')) )) << r.output;
        EXPECT_TRUE(has(r.output, what)) << r.output;
    }
    const auto status = run_flipcheck("check --plugin " + std::string(UNTRUSTED_PLUGIN) + " --subject status_5 --cases 50");
    EXPECT_EQ(status.exit_code, 1) << status.output;
    EXPECT_TRUE(has(status.output, "it returned 5 (the ABI allows 1: an answer, 0: none, -1: an error)")) << status.output;
    const auto junk = run_flipcheck("check --plugin " + std::string(UNTRUSTED_PLUGIN) + " --subject pair_junk");
    EXPECT_EQ(junk.exit_code, 1) << junk.output;
    EXPECT_TRUE(has(junk.output, "wider than the one byte of a packed pair")) << junk.output;
}

// Issue 59: --every-input where it cannot apply is bad input, never a sampled pass.
TEST(plugin_check, every_input_on_a_subject_it_does_not_apply_to_is_refused) {
    const auto r = run_flipcheck("check --plugin " + good + " --subject float_key --every-input");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has(r.output, "--every-input is for quantizers, scales and canonical keys of 32 bits or fewer; float_key is a mapping"))
        << r.output;
}

// Issue 59: --every-input runs the sample first, and a failure there is the verdict at once (it took
// 142 s over every binary32 code to report what the sample finds in a fraction of a second).
TEST(plugin_check, every_input_stops_at_a_failure_the_sample_finds) {
    const auto r = run_flipcheck("check --plugin " + wrong + " --subject index_key_signed_zeros --every-input");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_TRUE(has(r.output, "index_key_signed_zeros (canonical key, ")) << r.output;
    EXPECT_TRUE(has(r.output, "(--every-input: the sample failed first, so every input was not run)")) << r.output;
}

// Issue 57: a library linked with -ffast-math sets FTZ and DAZ as it loads; the oracle would then
// read every subnormal as zero and fail this right mapping at denorm_min's key. The check runs in
// IEEE's default environment and says the library changed the process's.
TEST(plugin_check, a_plugin_linked_with_fast_math_is_judged_in_the_default_environment) {
    const auto r = run_flipcheck("check --plugin " + std::string(FAST_MATH_PLUGIN) + " --key 0x80000001");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has(r.output, "ftz_loaded_key")) << r.output;
    EXPECT_TRUE(has(r.output, "checks in IEEE's default floating-point environment")) << r.output;
#if defined(FLIPCHECK_TEST_FTZ_ON_LOAD)
    EXPECT_TRUE(has(r.output, "changed this process's floating-point environment to rounding to_nearest, FTZ and DAZ on")) << r.output;
#endif
}

// --rounding any: a scale computed in binary32 (max_E / amax) is right to nearest only, and says
// so nowhere; under another mode its quotient rounds elsewhere. The failure names the mode, its
// repro carries it, and the same case to nearest passes. A scale of bit arithmetic passes in all four.
TEST(plugin_check, rounding_any_kills_a_scale_that_rounds_in_the_callers_mode) {
    const std::string scales = SCALES_PLUGIN;
    const auto nearest = run_flipcheck("check --plugin " + scales + " --subject tensor_scale_e4m3");
    EXPECT_EQ(nearest.exit_code, 0) << nearest.output;
    const auto any = run_flipcheck("check --plugin " + scales + " --subject tensor_scale_e4m3 --rounding any --json rounding.json");
    EXPECT_EQ(any.exit_code, 1) << any.output;
    EXPECT_TRUE(has(any.output, "under rounding mode upward (right to_nearest)")) << any.output;
    EXPECT_TRUE(has(any.output, "--subject tensor_scale_e4m3 --case tensor_scale_e4m3.case --rounding upward")) << any.output;
    const std::string doc = flipcheck::test::read_file("rounding.json");
    EXPECT_TRUE(has(doc, "\"failed_rounding_mode\": \"upward\"")) << doc;
    EXPECT_TRUE(has(doc, "\"environment\"")) << doc;
    const auto again = run_flipcheck("check --plugin " + scales + " --subject tensor_scale_e4m3 --case tensor_scale_e4m3.case --rounding upward");
    EXPECT_EQ(again.exit_code, 1) << again.output;
    const auto case_to_nearest = run_flipcheck("check --plugin " + scales + " --subject tensor_scale_e4m3 --case tensor_scale_e4m3.case");
    EXPECT_EQ(case_to_nearest.exit_code, 0) << case_to_nearest.output;
    const auto bits = run_flipcheck("check --plugin " + scales + " --subject block_scale_f32 --rounding any");
    EXPECT_EQ(bits.exit_code, 0) << bits.output;
    EXPECT_TRUE(has(bits.output, "rounding: every mode (--rounding any")) << bits.output;
    const auto bad = run_flipcheck("check --plugin " + scales + " --rounding sideways");
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
}

// --cpu-targets: the same plug-in on each Highway target this CPU supports, one row per target. The
// fixture's bug needs vectors of more than four 32-bit lanes, so its 128-bit targets (EMU128, which
// Highway always builds, and SSE4/SSSE3) pass and its wider ones fail: which targets a CPU has is
// the machine's, what flipcheck promises is the labelled rows, their verdicts and the replay.
TEST(plugin_check, cpu_targets_check_a_highway_plugin_on_each_target) {
    const std::string hwy = HIGHWAY_PLUGIN;
    const auto all = run_flipcheck("check --plugin " + hwy + " --cpu-targets all --json targets.json");
    EXPECT_TRUE(has(all.output, "four_lane_amax [EMU128] (amax, binary32 nan=propagate): pass")) << all.output;
    const bool wide = has(all.output, "four_lane_amax [AVX2]");
    if (wide) {
        EXPECT_EQ(all.exit_code, 1) << all.output;
        EXPECT_TRUE(has(all.output, "four_lane_amax [AVX2] (amax, binary32 nan=propagate): FAIL")) << all.output;
        EXPECT_TRUE(has(all.output, "four_lane_amax: the verdict differs between Highway targets: FAIL on ")) << all.output;
        EXPECT_TRUE(has(all.output, "subject-target runs failed")) << all.output;
        EXPECT_TRUE(has(all.output, "--case four_lane_amax.case --cpu-targets ")) << all.output;
        const std::string doc = flipcheck::test::read_file("targets.json");
        EXPECT_TRUE(has(doc, "\"cpu_target\": \"AVX2\"")) << doc;
        EXPECT_TRUE(has(doc, "\"differs_between_targets\": true")) << doc;
        // The replay names one target and fails there; on EMU128 the same case passes.
        const auto again = run_flipcheck("check --plugin " + hwy + " --subject four_lane_amax --case four_lane_amax.case --cpu-targets AVX2");
        EXPECT_EQ(again.exit_code, 1) << again.output;
        const auto narrow = run_flipcheck("check --plugin " + hwy + " --case four_lane_amax.case --cpu-targets EMU128");
        EXPECT_EQ(narrow.exit_code, 0) << narrow.output;
    } else {
        std::cout << "this CPU has no AVX2 target: only the 128-bit rows were checked\n";
    }
    const auto emu = run_flipcheck("check --plugin " + hwy + " --cpu-targets EMU128");
    EXPECT_EQ(emu.exit_code, 0) << emu.output;
    const auto unknown = run_flipcheck("check --plugin " + hwy + " --cpu-targets AVX9");
    EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
    EXPECT_TRUE(has(unknown.output, "AVX9 is not a Highway target this CPU supports (it supports ")) << unknown.output;
    const auto none = run_flipcheck("check --plugin " + good + " --cpu-targets all");
    EXPECT_EQ(none.exit_code, 2) << none.output;
    EXPECT_TRUE(has(none.output, "does not dispatch through Highway")) << none.output;
}
