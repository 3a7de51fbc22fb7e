// P3008's operations (core/p3008.hpp) run on the device through gpu/include/flipcheck/gpu/word.cuh,
// one (old, operand) pair per thread on a shared-memory object: every pair of the 16-bit formats,
// and for binary32/binary64 every pair of edge values plus 2^24 random pairs. Each pair must leave
// what the oracle says under the operation's declared policy and return the old value.
#pragma once
#include <cstdint>

#include "flipcheck/format.hpp"
#include "flipcheck/p3008.hpp"

namespace flipcheck::gpu {

struct p3008_pair_result {
    std::uint64_t pairs = 0, failures = 0;
    std::uint64_t old = 0, operand = 0;  // the first failing pair in enumeration order
};

// judged_as: the operation whose declared policy judges the answers; k itself unless a test
// checks that the judge can fail (fetch_fmaximum_num judged as fetch_fmaximum must). limit > 0
// checks only the first `limit` pairs (the sanitizers' runs: 2^32 pairs under memcheck take hours).
template <format F>
p3008_pair_result p3008_pairs(p3008::operation k, p3008::operation judged_as, std::uint64_t limit = 0);

// fetch_fmaximum(float*, float) and the rest on float, double, __half and __nv_bfloat16 in
// shared memory give a few known answers (NaN, -0, the old value returned).
bool p3008_typed_wrappers_work();

}  // namespace flipcheck::gpu
