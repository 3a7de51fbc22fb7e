// Seed 003's YAMR on the device, as written and with `volatile`: a known-wrong subject, kept apart
// from our reductions (reduce.hpp). Inputs and results are binary32 bits.
#pragma once
#include <cstdint>
#include <vector>

namespace flipcheck::gpu {

// Seed 003's YAMR: one block of xs.size() threads (at most 1024), max_value in shared memory,
// `while (max_value < v) max_value = v;` between two __syncthreads(). Returns d_data[0].
std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared);

}  // namespace flipcheck::gpu
