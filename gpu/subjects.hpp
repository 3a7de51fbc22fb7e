// GPU reduction subjects, callable from host code (no CUDA types): the mapped-key atomic max/min of
// core/atomic.hpp in two forms (warp-aggregated global atomics; block-level shared-memory atomics),
// seed 004's sign dispatch and the CAS loop on one global word, and seed 003's YAMR as written
// (and with `volatile`). Inputs and results are binary32 bits.
#pragma once
#include <cstdint>
#include <vector>

#include "flipcheck/policy.hpp"

namespace flipcheck::gpu {

enum class atomic_form { warp_aggregated_global, block_shared, per_element_signbit, per_element_cas };

// The reduction of xs (n >= 1) by `form` under NaN policy p (mapped forms; the others have their
// own declared policies: signbit dispatch undefined, CAS loop fmax-like) with `blocks` x 256 threads.
std::uint32_t atomic_reduce(atomic_form form, nan_policy p, reduce_op op, const std::vector<std::uint32_t>& xs,
                            unsigned blocks = 4);

// Seed 003's YAMR: one block of xs.size() threads (at most 1024), max_value in shared memory,
// `while (max_value < v) max_value = v;` between two __syncthreads(). Returns d_data[0].
std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared);

}  // namespace flipcheck::gpu
