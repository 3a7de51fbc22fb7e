// Float max/min and argmax/argmin on the GPU through order-preserving keys: the kernels users take
// away, and the ones gpu/tests verify against the oracle. Every element's contribution comes from
// core's keyed_reducer (key per NaN/zero policy, packing of the index), so the CPU reducers, the
// fuzzers and these kernels cannot drift apart.
//
// Value kernels (one key word per array; integer max/min over keys is the float reduction), by
// form (form.hpp) and, in parentheses, the kernel's name in the registry:
//   warp (warp_aggregated)  each thread folds its elements, the warp reduces, one global atomic per warp;
//   block_shared            as above into a shared-memory word, then one global atomic per block (the
//                           CUDA analogue of seed 000's groupshared InterlockedMax);
//   grid (full_grid)        no atomics on the result: each block writes its partial, the last block to
//                           finish (a ticket counter) reduces the partials. Deterministic by construction.
// Arg kernels:
//   packed_atomic    key << 32 | index slot in one 64-bit atomicMax/Min (formats up to 32 bits);
//                    binary64's (key, slot) in a 128-bit compare-and-swap loop (sm_90);
//   two_level        seed 002's shape (warp shuffles, shared memory, a final reduction of block
//                    results, here by the last block) on (key, slot) pairs: every format.
// The identity keys (0 for max, all ones for min) decode to NaNs under key_mapping (mapping.hpp), which
// is exactly the answer an all-NaN input must get under nan=ignore; arg forms carry "seen".
//
// Work comes as a batch: array s is xs[offsets[s], offsets[s+1]) and is reduced by the blocks with
// blockIdx.y == s (gridDim.x blocks each). One array is the batch {0, n}. Batches let the property
// tests put thousands of arrays through a reducer per second with one launch.
//
// In CUB's layers: reduce/warp.cuh, reduce/block.cuh, reduce/kernel.cuh, reduce/dispatch.cuh;
// this header includes them all.
#pragma once
#include "flipcheck/gpu/reduce/dispatch.cuh"
