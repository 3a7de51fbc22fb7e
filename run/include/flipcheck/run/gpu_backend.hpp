// The one door to the GPU: every call run/ makes of flipcheck::gpu (gpu/include), by name and
// storage type rather than by C++ type. gpu_backend.cpp is the only file of the command compiled
// with FLIPCHECK_HAVE_GPU and gpu/'s include paths; without CUDA it builds the same
// declarations, each throwing input_error ("this build has no GPU support").
//
// Why a door: the rest of the command then compiles to the same objects with and without CUDA,
// so the CPU-only build of the clean room (scripts/clean-room: no CUDA in a fresh Debian root)
// finds CI's CUDA build in the compiler cache instead of rebuilding the command (issue 28), and
// the GPU's part of each command is visible in one place.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/audit/audit.hpp"
#include "flipcheck/audit/intrinsics.hpp"
#include "flipcheck/audit/p3008.hpp"
#include "flipcheck/audit/sort.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/run/conversions.hpp"
#include "flipcheck/run/scaling.hpp"

namespace flipcheck::run::gpu_backend {

// Whether this build has the GPU code at all (nvcc was found at configure time).
bool built() noexcept;
// Whether a CUDA device answers (false without one, or in a build without GPU code).
bool available();
double start_up();  // seconds to create the CUDA context
std::string device_name();  // gpu/device.hpp's name()

// The sweep kernels of the registry's (format, mapping) instance named so.
sweep_report sweep(std::string_view format, std::string_view mapping, const sweep_options& o);
// GPU and CPU on the same options; one line per difference (empty: they agree exactly).
std::vector<std::string> cross_check(std::string_view format, std::string_view mapping, const sweep_options& o);
// Every pair of the rows of o through the max/min step built on that mapping (gpu/pairs.hpp).
pairs_report pairs(std::string_view format, std::string_view mapping, const pairs_options& o);

// The GPU reducers (gpu/reduce.hpp) that exist for a format (a registry::formats id), mutants
// included, in the kernels' order: for each operation it has, every policy to check it under.
struct reducer_checks {
    std::string name;
    bool arg = false;     // the answer is an index
    bool mutant = false;  // known-wrong, kept to be killed
    struct per_op {
        reduce_op op;
        std::vector<policy> policies;
    };
    std::vector<per_op> ops;
};
std::vector<reducer_checks> reducers(std::uint8_t format_id);
// The policy the reducer named so claims for op when asked for none in particular.
policy declared(std::string_view reducer, reduce_op op);
// Each array through the reducer, `blocks` blocks of 256 threads per array (seed 002's kernels
// keep the article's own shape). S is the format's storage type (16, 32 or 64 bits).
template <class S>
std::vector<std::optional<S>> reduce(std::uint8_t format_id, std::string_view reducer, policy p, reduce_op op,
                                     const std::vector<std::vector<S>>& arrays, unsigned blocks = 4);
template <class S>
std::vector<std::optional<std::size_t>> arg_reduce(std::uint8_t format_id, std::string_view reducer, policy p, reduce_op op,
                                                   const std::vector<std::vector<S>>& arrays, unsigned blocks = 4);

// Seed 003's YAMR kernel (one block, its race included) on binary32 bits.
std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared);

// The scaling path's GPU rows (gpu/amax.hpp): flipcheck's own, or the mutants' GPU twins.
std::vector<scaling_row> verify_scaling(bool mutants);

// The conversion table's GPU rows (gpu/every_input.hpp): CUDA's conversions on the device, then
// flipcheck's binary32 quantizers, each on every binary32 input under what it declares.
std::vector<conversion_row> conversion_rows();

// The audit's GPU subjects (gpu/audit.hpp).
std::vector<audit::subject> audit_subjects();
std::vector<audit::sort_subject> sort_subjects();
std::vector<audit::p3008_subject> p3008_subjects();
std::vector<audit::intrinsic_row> intrinsic_truth_tables();
std::uint64_t made_nan(const std::string& format);  // 0/0 on the device, as bits
std::string cccl_version();

}  // namespace flipcheck::run::gpu_backend
