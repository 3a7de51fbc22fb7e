// The GPU reduction subjects, callable from host code (no CUDA types): each array of a batch goes
// through one subject in one launch, and the answers come back as bits or indices, or nothing for
// an empty array (and for an arg reduction with no answer: every element a NaN under ignore).
// Every subject declares the policy it claims; gpu/tests judge it against the oracle under that.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "flipcheck/format.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck::gpu {

enum class value_subject : std::uint8_t {
    warp_aggregated,  // mapped keys: warp-aggregated global atomics            (every format)
    block_shared,     // mapped keys: shared-memory atomics, one global per block (every format)
    full_grid,        // mapped keys: block partials, the last block reduces      (every format)
    seed004_signbit,  // seed 004: signbit ? unsigned atomic : signed atomic    (binary32, binary64)
    seed004_ge0,      // its `val >= 0` predecessor: a mutant                    (binary32, binary64)
    cas_fmax,         // a CAS loop on fmax/fmin, the reference-style baseline    (every format)
    fetch_max,        // P3008 fetch_max/fetch_min (op picks)                      (every format)
    fetch_fmaximum,   // P3008 fetch_fmaximum/fetch_fminimum                      (every format)
    fetch_fmaximum_num,  // P3008 fetch_fmaximum_num/fetch_fminimum_num           (every format)
};
inline constexpr std::array<std::string_view, 9> value_subject_names{
    "warp_aggregated", "block_shared", "full_grid", "seed004_signbit", "seed004_ge0",
    "cas_fmax",        "fetch_max",    "fetch_fmaximum", "fetch_fmaximum_num"};

enum class arg_subject : std::uint8_t {
    packed_atomic,      // key << 32 | slot, one 64-bit atomic per warp; binary64: (key, slot) by 128-bit CAS (every format)
    two_level,          // warp shuffles + last-block reduction of block results (every format)
    seed002_walkthrough,  // seed 002 as written: lowest() then FLT_MIN (binary32 argmax only)
    seed002_full_code,    // seed 002's full code: -lowest() = +FLT_MAX   (binary32 argmax only)
    seed002_fixed,        // seed 002 fixed                                (binary32 argmax only)
};
inline constexpr std::array<std::string_view, 5> arg_subject_names{"packed_atomic", "two_level", "seed002_walkthrough",
                                                                   "seed002_full_code", "seed002_fixed"};

// blocks per array (gridDim.x) and threads per block (a multiple of 32, at most 1024). Seed 002's
// subjects ignore it and use the article's shape: grid = SM count, 32 x 32 threads.
struct launch_shape {
    unsigned blocks = 4;
    unsigned threads = 256;
};

// The policy a subject claims when asked for `requested`: the mapped and packed/two-level forms
// honour the request (ties = any for value forms); the others claim their own.
policy declared(value_subject s, reduce_op op, policy requested);
policy declared(arg_subject s, policy requested);
// Every distinct policy the subject claims, for tests and the main job to check it under: the
// mapped and arg forms under each NaN x zero (x tie) policy, the others under their own one.
std::vector<policy> policies_to_check(value_subject s, reduce_op op);
std::vector<policy> policies_to_check(arg_subject s);
// Whether the subject exists for format F and operation op.
bool supports(value_subject s, format_id f) noexcept;
bool supports(arg_subject s, format_id f, reduce_op op) noexcept;

template <format F>
std::vector<std::optional<typename F::storage>> reduce(value_subject s, policy p, reduce_op op,
                                                       const std::vector<std::vector<typename F::storage>>& arrays,
                                                       launch_shape shape = {});
template <format F>
std::vector<std::optional<std::size_t>> arg_reduce(arg_subject s, policy p, reduce_op op,
                                                   const std::vector<std::vector<typename F::storage>>& arrays,
                                                   launch_shape shape = {});

}  // namespace flipcheck::gpu
