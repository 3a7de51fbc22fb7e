// The scaling path on the GPU (flipcheck/gpu/amax.hpp): every amax form, the fused MX kernel and
// the exhaustive checks pass; every GPU twin of a scaling mutant is killed, with the
// counterexample its bug predicts. SKIPPED without a device.
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/gpu/amax.hpp"
#include "require_device.hpp"

namespace fc = flipcheck;

TEST(GpuScaling, EveryBuiltInPasses) {
    FLIPCHECK_REQUIRE_DEVICE();
    fc::scaling_options o;
    o.gpu_ceil_recipes = true;
    const auto rows = fc::gpu::verify_scaling(false, o);
    EXPECT_GE(rows.size(), 46u + 6u);
    int ceil_rows = 0;
    for (const auto& r : rows) ceil_rows += r.report.subject.rfind("mx_scale_rceil", 0) == 0 && r.report.exhaustive;
    EXPECT_EQ(ceil_rows, 6);  // RCEIL for each of the 5 MX elements, RCEIL-eps for e4m3fn
    for (const auto& r : rows) {
        EXPECT_FALSE(r.mutant);
        EXPECT_TRUE(r.report.passed()) << r.report.subject << " " << r.report.claim << ": " << r.report.counterexample.value_or("");
        EXPECT_GT(r.report.checks, 0u) << r.report.subject;
        std::printf("%-24s %-14s %-46s %12llu %8.1f ms\n", r.report.subject.c_str(), r.report.shape.c_str(), r.report.claim.c_str(),
                    static_cast<unsigned long long>(r.report.checks), r.ms);
    }
}

TEST(GpuScaling, EveryMutantIsKilled) {
    FLIPCHECK_REQUIRE_DEVICE();
    const auto rows = fc::gpu::verify_scaling(true);
    EXPECT_EQ(rows.size(), 8u);
    for (const auto& r : rows) {
        EXPECT_TRUE(r.mutant);
        EXPECT_FALSE(r.report.passed()) << r.report.subject << " survived " << r.report.checks << " checks";
        std::printf("%s: %s\n", r.report.subject.c_str(), r.report.counterexample.value_or("(survived)").c_str());
    }
    auto find = [&](const std::string& name) {
        for (const auto& r : rows)
            if (r.report.subject == name) return r.report.counterexample.value_or("");
        return std::string("(no row)");
    };
    EXPECT_NE(find("ge0_split_amax (GPU)").find("n=1 [0x80000000 (-0 zero)] is 0x7f800000"), std::string::npos);
    EXPECT_NE(find("unguarded_unsigned_amax (GPU)").find("is 0x80000000 (-0 zero)"), std::string::npos);
    EXPECT_NE(find("fmaxf_block_amax (GPU)").find("n=1 [0x7fc00000 (nan qnan)] is 0x00000000"), std::string::npos);
    // A right RCEIL scale under OCP's floor: wrong first where the recipes part, over every amax.
    EXPECT_NE(find("mx_scale_rceil under ocp_floor (GPU)").find("the first: amax 0x04600002"), std::string::npos)
        << find("mx_scale_rceil under ocp_floor (GPU)");
}

// Every kernel above on small domains, for compute-sanitizer's memcheck and racecheck (the full
// run's 2^32-pattern launches would take hours under them): the same verdicts.
TEST(GpuScaling, SmallRunForSanitizers) {
    FLIPCHECK_REQUIRE_DEVICE();
    fc::scaling_options o;
    o.randoms = 10;
    o.edge_pairs = false;
    o.gpu_patterns = std::uint64_t(1) << 16;
    o.gpu_ceil_recipes = true;
    for (const auto& r : fc::gpu::verify_scaling(false, o)) EXPECT_TRUE(r.report.passed()) << r.report.subject << ": " << *r.report.counterexample;
    for (const auto& r : fc::gpu::verify_scaling(true, o)) EXPECT_FALSE(r.report.passed()) << r.report.subject;
}
