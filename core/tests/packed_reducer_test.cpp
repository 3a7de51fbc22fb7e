// packed_reducer.hpp: fp4 pairs reduced lane by lane pass every pair and triple of bytes; one
// 8-bit key over the whole byte fails, and its counterexample shows the lanes interacting.
#include <gtest/gtest.h>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/exhaustive.hpp"

namespace fc = flipcheck;
using fc::reduce_op;

TEST(packed_reducer, lanewise_passes_every_pair_and_triple_of_bytes) {
    fc::registry::for_each<fc::registry::pair_reducers>([]<class E>() {
        for (reduce_op op : {reduce_op::max, reduce_op::min})
#if FLIPCHECK_EVERY_TRIPLE
            for (int length : {0, 1, 2, 3}) {
#else
            for (int length : {0, 1, 2}) {  // every triple: the release suite (this build has the sanitizers)
#endif
                const fc::exhaustive_row r = fc::check_pair_reducer<E>(op, length);
                EXPECT_TRUE(r.passed()) << r.subject << " " << r.op << " length " << length << ": " << r.counterexample;
                EXPECT_EQ(r.arrays, std::uint64_t(1) << (8 * length));
            }
    });
}

TEST(packed_reducer, one_byte_key_is_killed_on_a_pair) {
    fc::registry::for_each<fc::registry::pair_reducer_mutants>([]<class E>() {
        const fc::exhaustive_row r = fc::check_pair_reducer<E>(reduce_op::max, 2);
        EXPECT_FALSE(r.passed());
        EXPECT_NE(r.counterexample.find("lane"), std::string::npos) << r.counterexample;
        std::printf("%s: %s\n", r.subject.c_str(), r.counterexample.c_str());
    });
}

TEST(packed_reducer, agreement_reads_each_lane) {
    using F = fc::float4_e2m1fn;
    const std::uint8_t xs[2] = {0x10, 0x01};  // (0, 0.5) and (0.5, 0): the lane-wise max is (0.5, 0.5)
    const fc::policy p{};
    EXPECT_FALSE(fc::packed::agreement<F>(p, reduce_op::max, xs, std::uint8_t(0x11)).has_value());
    const auto c = fc::packed::agreement<F>(p, reduce_op::max, xs, std::uint8_t(0x10));
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->lane, 0u);  // lane 0 is wrong
}

// A user's reducer of packed pairs (pair_reducer_function): the registry's lane-wise max as a
// user would write it, and one that keys the whole byte. The user's check stops at the first
// length that fails, and its case replays through parse_case.
namespace {
struct users_lanewise : fc::packed::lanewise<fc::float4_e2m1fn, reduce_op::max> {};
struct users_whole_byte : fc::packed::one_byte_key<fc::float4_e2m1fn, reduce_op::max> {};
struct one_code_per_byte {  // no `pair`: a reducer of fp4 codes, one per byte
    using format = fc::float4_e2m1fn;
    static constexpr std::string_view name = "one_code_per_byte";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{};
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t>) { return std::nullopt; }
};
}  // namespace

TEST(packed_reducer, a_users_pair_reducer_is_judged_lane_by_lane_with_a_case_that_replays) {
    static_assert(fc::packed::pair_reducer_function<users_lanewise>);
    static_assert(!fc::packed::pair_reducer_function<one_code_per_byte> && fc::reducer_function<one_code_per_byte>);
    const auto right = fc::check_pair_reducer<users_lanewise>(2);
    ASSERT_EQ(right.size(), 3u);
    for (const auto& r : right) EXPECT_TRUE(r.passed()) << r.counterexample;
    EXPECT_EQ(right.back().format, "float4_e2m1fnx2");

    const auto wrong = fc::check_pair_reducer<users_whole_byte>(3);
    ASSERT_EQ(wrong.size(), 3u) << "stops at the first failing length (2)";
    EXPECT_FALSE(wrong.back().passed());
    EXPECT_EQ(wrong.back().replay, "float4_e2m1fnx2: 0x00,0x08");
    const auto bytes = fc::parse_case<fc::packed_pair<fc::float4_e2m1fn>>(wrong.back().replay).first;
    ASSERT_EQ(bytes, (std::vector<std::uint8_t>{0x00, 0x08}));
    auto reduce = [](std::span<const std::uint8_t> in) { return users_whole_byte::reduce(in); };
    const auto again = fc::check_pair_arrays<fc::float4_e2m1fn>("again", users_whole_byte::declared, reduce_op::max, 0, reduce,
                                                                std::span<const std::uint8_t>(bytes));
    EXPECT_FALSE(again.passed());
    EXPECT_EQ(again.arrays, 1u);
    EXPECT_THROW(fc::parse_case<fc::packed_pair<fc::float4_e2m1fn>>("float4_e2m1fnx2: 0x100"), fc::input_error);
    EXPECT_THROW(fc::parse_case<fc::packed_pair<fc::float4_e2m1fn>>("float4_e2m1fn: 0x01"), fc::input_error);
}
