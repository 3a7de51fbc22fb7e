// packed_reducer.hpp: fp4 pairs reduced lane by lane pass every pair and triple of bytes; one
// 8-bit key over the whole byte fails, and its counterexample shows the lanes interacting.
#include <gtest/gtest.h>

#include "flipcheck/exhaustive.hpp"

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
    EXPECT_EQ(c->key, 0u);  // lane 0 is wrong
}
