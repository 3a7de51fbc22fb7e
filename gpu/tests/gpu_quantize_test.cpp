// Every binary32 input through the quantizers on the GPU (flipcheck/gpu/every_input.hpp): every
// built-in passes, every mutant is killed with the same first input as the CPU's walk, and CUDA's
// conversions do what NVIDIA documents. SKIPPED without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/gpu/every_input.hpp"
#include "require_device.hpp"

namespace fc = flipcheck;

namespace {
void print(const fc::gpu::quantizer_row& r) {
    std::printf("%-52s %-40s %-5s %8.2f ms kernel %8.1f ms row  %s\n", r.report.subject.c_str(), r.report.claim.c_str(),
                r.report.passed() ? "pass" : "FAIL", r.kernel_ms, r.wall_ms, r.report.counterexample.value_or("").c_str());
}
// The GPU row named `subject` (and, if given, of `claim`) reports what the CPU's walk reported.
template <class Rows>
void expect_as_on_the_cpu(const Rows& rows, const std::string& subject, const fc::scaling_report& cpu, bool match_claim) {
    bool found = false;
    for (const auto& r : rows)
        if (r.report.subject == subject && (!match_claim || r.report.claim == cpu.claim)) {
            found = true;
            EXPECT_EQ(r.report.counterexample, cpu.counterexample);
            EXPECT_EQ(r.report.failed, cpu.failed);
            EXPECT_EQ(r.report.replay, cpu.replay);
        }
    EXPECT_TRUE(found) << subject;
}
}  // namespace

TEST(GpuQuantize, EveryBuiltInPassesOnEveryBinary32Input) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto rows = fc::gpu::every_input(fc::gpu::quantizer_set::built_ins);
    EXPECT_EQ(rows.size(), 7u * 3 + 4 + 2);
    for (const auto& r : rows) {
        print(r);
        EXPECT_TRUE(r.report.passed()) << r.report.subject << " " << r.report.claim << ": " << r.report.counterexample.value_or("");
        EXPECT_TRUE(r.report.exhaustive);
        EXPECT_EQ(r.report.checks, std::uint64_t(1) << 32) << r.report.subject;
    }
}

// The GPU's verdict is the CPU's: the mutants' reports (laws and first inputs) on the CPU's
// every-core walk of the same domain are the same text. The carry mutant's CPU walk is the
// release suite's (quantize_exhaustive_test); here its first inputs are checked directly.
TEST(GpuQuantize, EveryMutantIsKilledAsOnTheCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto rows = fc::gpu::every_input(fc::gpu::quantizer_set::mutants);
    EXPECT_GE(rows.size(), 10u);
    for (const auto& r : rows) {
        print(r);
        EXPECT_FALSE(r.report.passed()) << r.report.subject << " survived " << r.report.checks << " checks";
    }
    fc::scaling_options o;
    o.every_binary32 = true;
    expect_as_on_the_cpu(rows, "quantize_truncated", fc::check_quantizer<fc::registry::quantize_truncated<fc::float8_e4m3fn>>(o), true);
}

// CUDA's conversions on the device against their documented semantics, every binary32 input.
// These are claims about CUDA, so each is printed; the test asserts only that each ran over the
// whole domain and that the ones flipcheck's oracle was validated on (on the host) agree.
TEST(GpuQuantize, CudasConversionsOnTheDevice) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto rows = fc::gpu::every_input(fc::gpu::quantizer_set::cuda_conversions);
    EXPECT_EQ(rows.size(), 13u);
    for (const auto& r : rows) {
        print(r);
        EXPECT_EQ(r.report.checks, std::uint64_t(1) << 32) << r.report.subject;
        EXPECT_TRUE(r.report.passed()) << r.report.subject << ": " << r.report.counterexample.value_or("");
    }
}

// The registry's binary32 keys on every code of their declared order: each built-in passes, each
// mutant is killed with the CPU's words (the CPU's every-core walk of the same order).
TEST(GpuKeys, EveryBuiltInPassesAndEveryMutantIsKilledAsOnTheCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto right = fc::gpu::every_key_code(false);
    EXPECT_EQ(right.size(), 4u);  // total_order_key, sql_key, sql_key_bytes, sql_key_widened
    for (const auto& r : right) {
        std::printf("%-28s %-24s %8.2f ms kernel %8.1f ms row  %s\n", r.report.subject.c_str(), r.report.claim.c_str(), r.kernel_ms,
                    r.wall_ms, r.report.passed() ? "pass" : r.report.counterexample->c_str());
        EXPECT_TRUE(r.report.passed()) << r.report.subject << ": " << r.report.counterexample.value_or("");
        EXPECT_TRUE(r.report.exhaustive);
        EXPECT_EQ(r.report.checks, std::uint64_t(1) << 32) << r.report.subject;
    }
    const auto wrong = fc::gpu::every_key_code(true);
    EXPECT_EQ(wrong.size(), 3u);
    for (const auto& r : wrong) {
        std::printf("%-28s %-24s %8.2f ms kernel  %s\n", r.report.subject.c_str(), r.report.claim.c_str(), r.kernel_ms,
                    r.report.counterexample.value_or("(survived)").c_str());
        EXPECT_FALSE(r.report.passed()) << r.report.subject;
    }
    fc::scaling_options o;
    o.every_binary32 = true;
    expect_as_on_the_cpu(wrong, "sql_key_nan_payloads", fc::check_canonical_key<fc::registry::sql_key_nan_payloads<fc::binary32>>(o), false);
}

// Every binary32 input under every e8m0 and per-tensor scale (273 x 2^32 pairs a row) through the
// registry's binary32 scaled quantizers: each built-in passes; each mutant is killed, and its replay
// pair fails again on the CPU with the same words (the CPU's sample of this domain may fail first
// elsewhere). Under e8m0 scales
// alone (MX), x * s is exact for every fp8/fp6/fp4 answer, so double rounding needs a per-tensor
// scale to show.
TEST(GpuScaled, EveryBuiltInPassesAndEveryMutantIsKilled) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto show = [](const fc::gpu::walk_row& r) {
        std::printf("%-28s %-84s %9.1f ms kernel %9.1f ms row  %s\n", r.report.subject.c_str(), r.report.claim.c_str(), r.kernel_ms,
                    r.wall_ms, r.report.passed() ? "pass" : r.report.counterexample->c_str());
    };
    const auto right = fc::gpu::every_scaled_pair(false);
    EXPECT_EQ(right.size(), 7u + 7 + 5);  // quantize_scaled, quantize_scaled_exact, quantize_divided
    for (const auto& r : right) {
        show(r);
        EXPECT_TRUE(r.report.passed()) << r.report.subject << ": " << r.report.counterexample.value_or("");
        EXPECT_TRUE(r.report.exhaustive);
        EXPECT_EQ(r.report.checks, std::uint64_t(fc::scaled_check::scales<fc::float8_e4m3fn>().size()) << 32) << r.report.subject;
    }
    const auto wrong = fc::gpu::every_scaled_pair(true);
    EXPECT_EQ(wrong.size(), 4u);
    int replayed = 0;
    fc::registry::for_each<fc::registry::scaling_mutant_instances>([&]<class I>() {
        using X = typename I::type;
        if constexpr (fc::scaled_quantizer_subject<X>) {
            using E = typename X::element;
            const std::string claim = fc::scaled_check::report_of<fc::binary32, E>(X::declared).claim;
            for (const auto& r : wrong) {
                if (r.report.subject != I::entry::name || r.report.claim != claim) continue;
                show(r);
                ASSERT_FALSE(r.report.passed()) << r.report.subject;
                const auto pair = fc::parse_case<fc::binary32>(r.report.replay).first;
                ASSERT_EQ(pair.size(), 2u) << r.report.replay;
                const auto cpu = fc::check_scaled_quantizer_of<fc::binary32, E>(X::declared, &X::quantize_scaled, {}, pair);
                EXPECT_FALSE(cpu.passed()) << r.report.replay;
                // The pair fails the first law the GPU lists, in the same words (the GPU's text
                // goes on with the other laws' first inputs, which this one pair does not fail).
                EXPECT_EQ(r.report.counterexample->rfind(cpu.counterexample.value_or("(passed)"), 0), 0u)
                    << "GPU: " << *r.report.counterexample << "\nCPU: " << cpu.counterexample.value_or("(passed)");
                int e = 0;
                if (I::entry::name == "scaled_double_rounding") {  // no e8m0 scale shows it
                    EXPECT_NE(std::frexp(fc::bit_cast<float>(pair[1]), &e), 0.5f) << r.report.replay;
                }
                ++replayed;
            }
        }
    });
    EXPECT_EQ(replayed, 4);
}

// Every kernel above on a small domain around each element's largest value (a key's: around the
// zeros; a scaled quantizer's: the smallest magnitudes under two scales), for compute-sanitizer's
// memcheck and racecheck: the same verdicts.
TEST(GpuQuantize, SmallRunForSanitizers) {
    FLIPCHECK_REQUIRE_DEVICE();
    const std::uint64_t n = std::uint64_t(1) << 14;
    for (const auto& r : fc::gpu::every_input(fc::gpu::quantizer_set::built_ins, n)) EXPECT_TRUE(r.report.passed()) << r.report.subject;
    for (const auto& r : fc::gpu::every_input(fc::gpu::quantizer_set::cuda_conversions, n)) EXPECT_EQ(r.report.checks, 2 * n);
    int killed = 0;
    for (const auto& r : fc::gpu::every_input(fc::gpu::quantizer_set::mutants, n)) killed += !r.report.passed();
    EXPECT_GT(killed, 0);
    for (const auto& r : fc::gpu::every_key_code(false, n)) EXPECT_TRUE(r.report.passed()) << r.report.subject;
    bool zeros_caught = false;
    for (const auto& r : fc::gpu::every_key_code(true, n)) zeros_caught |= r.report.subject == "sql_key_signed_zeros" && !r.report.passed();
    EXPECT_TRUE(zeros_caught);
    // 2^18: past bfloat16's smallest subnormal (binary32 0x00010000), which an FTZ product loses.
    const std::uint64_t tiny = std::uint64_t(1) << 18;
    for (const auto& r : fc::gpu::every_scaled_pair(false, 2, tiny)) EXPECT_TRUE(r.report.passed()) << r.report.subject;
    bool ftz_caught = false;
    for (const auto& r : fc::gpu::every_scaled_pair(true, 2, tiny))
        ftz_caught |= r.report.subject == "scaled_flushed_intermediate" && !r.report.passed();
    EXPECT_TRUE(ftz_caught);
}
