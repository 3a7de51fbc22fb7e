// flipcheck's shader subjects on the Vulkan device: seed 001's listing verbatim and its variants,
// each judged by the reducer laws under the policy it declares at each workgroup size it takes,
// and the article's claims held against what the shader does.
//
// On lavapipe (a CPU) the random stages are smaller than check/reducers.hpp's defaults (`sampled`); the edge
// battery (every singleton, pair and triple of the format's edge values) is always whole.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "device.hpp"
#include "flipcheck/audit/audit.hpp"
#include "flipcheck/shader/reducer.hpp"
#include "flipcheck/shader/subjects.hpp"

namespace fs = flipcheck::shader;
using flipcheck::check_options;
using flipcheck::policy;
using flipcheck::nan_policy;
using flipcheck::zero_policy;

namespace {

bool on_a_cpu(const fs::vulkan& vk) { return vk.info().name.find("llvmpipe") != std::string::npos; }

// A GPU gets check/reducers.hpp's defaults at every size. On lavapipe, to stay within CI's minute: every
// stage at the seed's own size (64) and at the odd sizes 7 and 33; the random stages alone, smaller,
// at the others.
check_options options_for(const fs::vulkan& vk, std::uint32_t size) {
    check_options o;
    if (on_a_cpu(vk)) {
        const bool whole = size == 64 || size == 7 || size == 33;
        o.random_cases = size == 64 ? 400 : 60;
        o.reorderings = size == 64 ? 60 : 10;
        o.large_cases = size == 64 ? 2 : 0;
        if (!whole) o.stages = {flipcheck::check_stage::random_arrays, flipcheck::check_stage::order_independence};
    }
    return o;
}

// The audit's question for one shader: its answers on the audit's battery and random arrays.
flipcheck::audit::report classify(const fs::reducer_shader& s, std::size_t randoms) {
    const auto compiled = fs::compile_reducer(s, 64);
    return flipcheck::audit::classify<flipcheck::binary32>(s.op, false, [&](const flipcheck::audit::input& xs) -> std::optional<std::uint64_t> {
        const std::vector<std::uint32_t> words(xs.begin(), xs.end());
        const auto got = fs::reduce_arrays(compiled, {words})[0];
        return got ? std::optional<std::uint64_t>(*got) : std::nullopt;
    }, randoms);
}

std::string seed_listing() {
    const char* dir = std::getenv("FLIPCHECK_SEEDS");
    if (!dir || !std::filesystem::is_directory(dir)) return {};
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().rfind("001_", 0) == 0) {
            std::ifstream in(e.path());
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string text = ss.str(), fence = "```hlsl\n";
            const auto begin = text.find(fence);
            if (begin == std::string::npos) return {};
            const auto end = text.find("```", begin + fence.size());
            if (end != std::string::npos) return text.substr(begin + fence.size(), end - begin - fence.size());
        }
    return {};
}

}  // namespace

// Every line of the article's first listing is in seed001_interlocked.hlsl, in order; the only
// line changed is main's signature (SV_GroupID added), and every line added says `flipcheck:`.
TEST(SeedShader, the_listing_is_in_the_shader_verbatim) {
    const std::string listing = seed_listing();
    if (listing.empty()) GTEST_SKIP() << "seed 001 not found (FLIPCHECK_SEEDS names ../shared/seeds)";
    std::istringstream shader{std::string(fs::shader_text("seed001_interlocked.hlsl"))}, seed{listing};
    std::vector<std::string> ours;
    for (std::string l; std::getline(shader, l);) ours.push_back(l);
    std::size_t at = 0, matched = 0;
    for (std::string want; std::getline(seed, want);) {
        if (want.rfind("void main(", 0) == 0) continue;  // the one changed line
        while (at < ours.size() && ours[at] != want) {
            const bool added = ours[at].find("flipcheck:") != std::string::npos || ours[at].rfind("//", 0) == 0 || ours[at].empty();
            EXPECT_TRUE(added) << "line " << at + 1 << " is neither the article's nor marked `flipcheck:`: " << ours[at];
            ++at;
        }
        ASSERT_LT(at, ours.size()) << "the article's line is missing: " << want;
        ++at;
        ++matched;
    }
    EXPECT_GT(matched, 60u);
}

class ShaderSubject : public ::testing::TestWithParam<std::string> {};

// Every shader subject passes the reducer laws under the policy it declares, at every workgroup
// size it takes of default_workgroup_sizes() on a GPU, six of them on lavapipe (the seed's
// listing: its fixed 64).
TEST_P(ShaderSubject, passes_what_it_declares_at_each_workgroup_size_sampled) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    const fs::shader_subject& entry = fs::shader_subject_named(GetParam());
    std::string why;
    if (!fs::runs_on(entry, vk.info(), &why)) GTEST_SKIP() << why;
    const fs::reducer_shader s = fs::reducer_of(entry);
    // lavapipe compiles each size's pipeline on CI's two cores (and under ASan in the sanitize
    // preset): six of the twelve sizes there, around its subgroup of 8, odd ones among them.
    const auto candidates = on_a_cpu(vk) ? std::vector<std::uint32_t>{2, 7, 32, 33, 64, 255} : fs::default_workgroup_sizes();
    const auto sizes = fs::workgroup_sizes(s, candidates);
    for (std::uint32_t w : sizes) {
        const auto r = fs::check_shader(s, entry.format, w, options_for(vk, w));
        EXPECT_TRUE(r.passed()) << r.text();
    }
    std::cout << entry.name << ": " << sizes.size() << " workgroup sizes on " << vk.info().name << "\n";
}

std::vector<std::string> checked_subjects() {
    std::vector<std::string> v;
    for (const auto& s : fs::shader_subjects())
        if (!s.audit_only && !s.known_wrong) v.emplace_back(s.name);
    return v;
}
INSTANTIATE_TEST_SUITE_P(Shaders, ShaderSubject, ::testing::ValuesIn(checked_subjects()),
                         [](const auto& info) { return info.param; });

// The known-wrong shaders fail, each with a counterexample (a negative number, for raw bits).
TEST(ShaderMutant, every_known_wrong_shader_fails_with_a_counterexample) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    int wrong = 0;
    for (const auto& entry : fs::shader_subjects()) {
        if (!entry.known_wrong) continue;
        ++wrong;
        const auto r = fs::check_shader(fs::reducer_of(entry), entry.format, 64, options_for(vk, 64));
        ASSERT_FALSE(r.passed()) << entry.name << " passed: " << r.text();
        EXPECT_FALSE(r.failure->input.empty());
        std::cout << r.text() << "\n";
    }
    EXPECT_GE(wrong, 1);
}

// The article's option 3 makes no claim about NaN; held to either claim it would need, the listing
// fails with a NaN in the counterexample: a -NaN loses a max (it keys below -inf), a +NaN wins it.
TEST(SeedShader, option_3_fails_both_nan_claims_with_the_bits) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    fs::reducer_shader s = fs::reducer_of(fs::shader_subject_named("seed001_interlocked_max"));
    check_options o = options_for(vk, 64);
    for (auto claim : {nan_policy::propagate, nan_policy::ignore}) {
        s.declared = policy{claim, zero_policy::ordered};
        const auto r = fs::check_shader(s, "binary32", 64, o);
        ASSERT_FALSE(r.passed()) << r.text();
        bool nan_in_it = false;
        for (auto x : r.failure->input) nan_in_it |= flipcheck::binary32::is_nan_bits(std::uint32_t(x));
        EXPECT_TRUE(nan_in_it) << r.text();
        std::cout << r.text() << "\n";
    }
}

// What the listing really implements: IEEE totalOrder's max and min. The article says the order
// U puts on -0 and +0 vanishes after the inverse map; it does not: max gives +0 and min gives -0
// whichever comes first.
TEST(SeedShader, the_listing_is_total_order_and_the_zeros_stay_ordered) {
    FLIPCHECK_VULKAN_OR_SKIP(vk);
    for (const char* name : {"seed001_interlocked_max", "seed001_interlocked_min"}) {
        const fs::reducer_shader s = fs::reducer_of(fs::shader_subject_named(name));
        const auto v = classify(s, on_a_cpu(vk) ? 200 : 2000);
        EXPECT_EQ(v.policy, "totalOrder") << name;
        const auto compiled = fs::compile_reducer(s, 64);
        const std::uint32_t want = s.op == flipcheck::reduce_op::max ? 0u : 0x80000000u;
        for (const auto& zeros : {std::vector<std::uint32_t>{0x80000000u, 0u}, std::vector<std::uint32_t>{0u, 0x80000000u}})
            EXPECT_EQ(fs::reduce_arrays(compiled, {zeros})[0], want) << name;
    }
}
