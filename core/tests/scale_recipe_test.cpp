// scale_recipe.hpp: the recipes' oracle against CUDA's host-callable e8m0 conversion (SKIPPED
// without the toolkit's headers), the built-in RCEIL against the oracle, a correct RCEIL scale
// judged under the wrong recipe, and the recipes' mutants killed by their laws.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/scale_recipe.hpp"

#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
#include <cuda_fp8.h>
#endif

namespace fc = flipcheck;
using fc::law_id;

TEST(scale_recipe_oracle, known_values) {
    const float max = 448.0f;  // e4m3fn
    EXPECT_EQ(fc::oracle::recipe_scale(fc::ocp_floor, max, 448.0f), 127);
    EXPECT_EQ(fc::oracle::recipe_scale(fc::rceil, max, 448.0f), 127);   // 448 / 448 = 1 = 2^0
    EXPECT_EQ(fc::oracle::recipe_scale(fc::ocp_floor, max, 449.0f), 127);
    EXPECT_EQ(fc::oracle::recipe_scale(fc::rceil, max, 449.0f), 128);   // just over 1: up to 2
    EXPECT_EQ(fc::oracle::recipe_scale(fc::ocp_floor, max, 300.0f), 127);  // floor(log2 300) - 8 = 0
    EXPECT_EQ(fc::oracle::recipe_scale(fc::rceil, max, 300.0f), 127);      // 300 / 448 < 1: 2^0
    for (const auto& r : fc::all_recipes) {
        EXPECT_EQ(fc::oracle::recipe_scale(r, max, fc::bit_cast<float>(0x7fc00000u)), 0xff) << r.name;
        EXPECT_EQ(fc::oracle::recipe_scale(r, max, fc::bit_cast<float>(0x7f800000u)), 0xfe) << r.name;
    }
    EXPECT_EQ(fc::oracle::recipe_scale(fc::rceil, max, 0.0f), 0x00);
    // rceil_eps: amax 0 is 1e-4 first: 1e-4 / 448 = 2.2e-7, ceil(log2) = -22.
    EXPECT_EQ(fc::oracle::recipe_scale(fc::rceil_eps, max, 0.0f), 127 - 22);
}

// RCEIL's second step, the quotient rounded up to a power of two, is PTX's cvt.rp.satfinite.ue8m0:
// CUDA's host conversion gives the same code for every bfloat16 quotient and its neighbours.
TEST(scale_recipe_oracle, rounding_up_agrees_with_cudas_e8m0_conversion) {
#if defined(FLIPCHECK_HAVE_CUDA_FP_HEADERS)
    for (std::uint32_t h = 0; h <= 0x7fffu; ++h)
        for (std::uint32_t low : {0u, 1u, 0x7fffu, 0x8000u, 0xffffu}) {
            const float q = fc::bit_cast<float>(h << 16 | low);
            ASSERT_EQ(int(fc::oracle::recipe_scale(fc::rceil, 1.0f, q)), int(__nv_cvt_float_to_e8m0(q, __NV_SATFINITE, cudaRoundPosInf)))
                << std::hex << (h << 16 | low);
        }
#else
    GTEST_SKIP() << "CUDA's cuda_fp8.h was not found at configure time";
#endif
}

// A correct RCEIL scale passes under its own recipe and fails under OCP's, at the first amax of
// the domain where the two recipes give different codes.
TEST(scale_recipe, a_right_rceil_scale_fails_under_ocp_at_the_first_amax_where_they_differ) {
    using E = fc::float8_e4m3fn;
    auto rceil_scale = [](std::uint32_t a) { return fc::mx_scale_rceil<E>::scale(a); };
    EXPECT_TRUE(fc::check_mx_scale_of<E>(rceil_scale, {}, fc::rceil).passed());
    const auto r = fc::check_mx_scale_of<E>(rceil_scale, {}, fc::ocp_floor);
    ASSERT_FALSE(r.passed());
    std::uint32_t first = 0;
    for (std::uint32_t a : fc::scale_domain())
        if (fc::oracle::recipe_scale(fc::rceil, 448.0f, fc::bit_cast<float>(a)) != fc::oracle::recipe_scale(fc::ocp_floor, 448.0f, fc::bit_cast<float>(a))) {
            first = a;
            break;
        }
    ASSERT_NE(first, 0u);
    EXPECT_EQ(r.replay, "binary32: " + fc::hex(first, 32)) << *r.counterexample;
    EXPECT_NE(r.counterexample->find("recipe ocp_floor's"), std::string::npos) << *r.counterexample;
    EXPECT_TRUE(r.failed & fc::law_bit(law_id::scale_agreement));
}

TEST(scale_recipe, the_mutants_show_their_bugs) {
    auto ce = [](auto r) { return r.counterexample.value_or("(passed)"); };
    const auto clamp = fc::check_scaling<fc::mutants::ue8m0_clamped_after_rounding<fc::float8_e4m3fn>>();
    EXPECT_TRUE(clamp.failed & fc::law_bit(law_id::scale_power_of_two)) << ce(clamp);
    EXPECT_NE(ce(clamp).find("no power of two"), std::string::npos) << ce(clamp);
    // An all-zero block: +inf where TransformerEngine's rule gives 1.
    const auto eps = fc::check_scaling<fc::mutants::fp8_scale_no_epsilon<fc::float8_e4m3fn>>();
    EXPECT_NE(ce(eps).find("amax 0x00000000 (0 zero) is 0x7f800000 (inf inf); the oracle's: 0x3f800000"), std::string::npos) << ce(eps);
    const auto nv = fc::check_scaling<fc::mutants::nvfp4_global_scale_unguarded<>>();
    EXPECT_NE(ce(nv).find("amax 0x00000000 (0 zero) is 0x7f800000 (inf inf)"), std::string::npos) << ce(nv);
    EXPECT_NE(nv.claim.find("target"), std::string::npos) << nv.claim;
}
