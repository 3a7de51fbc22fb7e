// The GPU pair check (gpu/pairs.hpp) against the CPU's (check/pairs.hpp): the same report, field by
// field, for right mappings and mutants, max and min, 16- and 32-bit formats, with and without
// --all, and a stop flag that interrupts. Without a device each test says SKIPPED.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/gpu/pairs.hpp"
#include "require_device.hpp"

namespace {

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;

std::string show(const fc::pairs_report& r) {
    std::string s = r.format + " " + r.mapping + " " + r.op + " rows " + std::to_string(r.rows_checked) + " failing " +
                    std::to_string(r.failing_pairs) + " stopped " + std::to_string(r.stopped_early) + " interrupted " + std::to_string(r.interrupted);
    for (const auto& c : r.counterexamples)
        s += "\n  (" + std::to_string(c.a) + ", " + std::to_string(c.b) + ") -> " + std::to_string(c.actual) + " want " + std::to_string(c.expected);
    return s;
}

template <class M>
void same_as_cpu(fc::pairs_options o) {
    const fc::pairs_report g = gpu::check_pairs<M>(o), c = fc::check_pairs<M>(o);
    EXPECT_EQ(g.backend, "gpu");
    EXPECT_EQ(g.rows, c.rows);
    EXPECT_EQ(g.rows_checked, c.rows_checked) << show(g) << "\n" << show(c);
    EXPECT_EQ(g.failing_pairs, c.failing_pairs) << show(g) << "\n" << show(c);
    EXPECT_EQ(g.counterexamples, c.counterexamples) << show(g) << "\n" << show(c);
    EXPECT_EQ(g.stopped_early, c.stopped_early) << show(g) << "\n" << show(c);
    EXPECT_FALSE(g.interrupted);
}

fc::pairs_options rows(std::uint64_t b, std::uint64_t e, fc::reduce_op op = fc::reduce_op::max, bool all = false, std::size_t limit = 16) {
    fc::pairs_options o;
    o.rows = fc::key_range{b, e};
    o.op = op;
    o.all = all;
    o.limit = limit;
    return o;
}

TEST(GpuPairs, RightMappingsPassAsOnTheCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    // Every binary16 pair, and binary32 rows around the zeros, the infinities and the NaNs.
    same_as_cpu<fc::signed_key<fc::binary16>>(rows(0, 0x10000));
    same_as_cpu<fc::sign_flip<fc::bfloat16>>(rows(0x7f00, 0x8100, fc::reduce_op::min));
    for (std::uint64_t a : {0x0ull, 0x80000000ull, 0x7f800000ull, 0xff800001ull, 0x7fffffffull})
        same_as_cpu<fc::sign_flip_branchless<fc::binary32>>(rows(a, a + 1));
    EXPECT_TRUE(gpu::check_pairs<fc::format_key<fc::binary16>>(rows(0, 0x10000)).passed());
}

TEST(GpuPairs, MutantsFailAtTheSamePairsAsOnTheCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    namespace mut = flipcheck::mutants;
    same_as_cpu<mut::zeros_swapped<fc::binary16>>(rows(0, 0x10000, fc::reduce_op::max, true));
    same_as_cpu<mut::zeros_swapped<fc::binary16>>(rows(0, 0x10000, fc::reduce_op::min, false, 1));
    // Failures on every pair of many rows: the stop point and the counts must still agree.
    same_as_cpu<mut::sign_bit_only<fc::binary16>>(rows(0x7000, 0x9000, fc::reduce_op::max, false, 5));
    same_as_cpu<mut::sign_bit_only<fc::binary16>>(rows(0x7ff0, 0x8010, fc::reduce_op::max, true));
    same_as_cpu<mut::wrong_at_neg_denorm_min<fc::binary32>>(rows(0x80000000, 0x80000003, fc::reduce_op::max, true));
}

TEST(GpuPairs, AStopFlagInterrupts) {
    FLIPCHECK_REQUIRE_DEVICE();
    std::atomic<bool> stop{true};
    auto o = rows(0, 0x10000);
    o.stop = &stop;
    const auto r = gpu::check_pairs<fc::signed_key<fc::binary16>>(o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_FALSE(r.passed());
}

}  // namespace
