// Every binary32 input through a quantizer on the GPU (gpu/quantize_walk.cuh), callable from host
// code (no CUDA types): flipcheck's built-in binary32 quantizers (each must pass), the quantizer
// mutants (each must be killed) and CUDA's own conversion functions on the device (the audit's
// conversion table: each judged against what NVIDIA documents); every binary32 code through the
// registry's canonical keys (gpu/key_walk.cuh); every binary32 input under every scale through its
// scaled quantizers (gpu/scaled_quantize_walk.cuh).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/quantize.hpp"

namespace flipcheck::gpu {

enum class quantizer_set { built_ins, mutants, cuda_conversions };

struct quantizer_row {
    scaling_report report;
    std::string library;   // "flipcheck", or the CUDA function's header and toolkit version
    std::string element;   // the element format's name
    quantize_policy declared;
    bool mutant = false;   // a known-wrong subject: passing is the failure
    double kernel_ms = 0;  // the walk kernel (cudaEvent)
    double wall_ms = 0;    // the row: oracle table, copies, kernel, the findings' re-walk
};

// magnitudes = 2^31: every binary32 pattern, both signs; fewer (compute-sanitizer's runs): that
// many magnitudes around each element's largest finite value, sampled. Throws device_error when
// CUDA fails.
std::vector<quantizer_row> every_input(quantizer_set set, std::uint64_t magnitudes = std::uint64_t(1) << 31);

// A canonical key's or scaled quantizer's row (gpu/key_walk.cuh, gpu/scaled_quantize_walk.cuh):
// its report and the walk's times.
struct walk_row {
    scaling_report report;
    bool mutant = false;
    double kernel_ms = 0, wall_ms = 0;
};
// The registry's binary32 canonical keys (mutants: its key mutants) over every binary32 code of
// their declared order; `pairs` fewer (compute-sanitizer's runs): that many around the zeros.
std::vector<walk_row> every_key_code(bool mutants, std::uint64_t pairs = ~std::uint64_t(0));
// The registry's binary32 scaled quantizers (mutants: its scaled mutants) over every binary32 input
// under the first `scales` of check/scaled_quantizers.hpp's scales (all 273 by default: every e8m0
// value, then the per-tensor ones); fewer scales and `magnitudes` for compute-sanitizer's runs.
std::vector<walk_row> every_scaled_pair(bool mutants, std::size_t scales = ~std::size_t(0), std::uint64_t magnitudes = std::uint64_t(1) << 31);

}  // namespace flipcheck::gpu
