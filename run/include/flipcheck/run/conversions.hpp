// The audit's conversion table (flipcheck audit --conversions): what a framework's float
// conversion (binary32 to fp8, fp6, fp4, binary16 or bfloat16) really does, through an adapter
// process (adapters/README.md, "Conversions"). Each conversion is first classified on the sampled
// domain of check/quantizers.hpp (every code, midpoint and threshold and their neighbours): the
// declarable policy (rounding x saturation) whose codes it gives there, or the nearest (the fewest
// inputs different); then judged under that policy on every binary32 input, as its codes stream
// in, and, where it documents another policy, under that one on the sample. With a GPU, CUDA's conversions on the device and flipcheck's own quantizers are rows
// too (gpu/every_input.hpp).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/quantize.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::run {

struct conversion_row {
    std::string name, library, from, to;
    std::optional<quantize_policy> declares;  // what its documentation says (the adapter's "declares")
    std::optional<quantize_policy> does;      // the policy its codes satisfy on the sample, if one does
    std::optional<quantize_policy> nearest;   // else: the policy whose codes differ on the fewest inputs there
    quantize_policy under;                    // the one of those two the report judges under
    std::string documented_differs;           // declares != under: the sampled laws' failures under declares
    scaling_report report;                    // under `under`, on the domain it names
    double seconds = 0;
};

// The repo's adapters that list conversions: NumPy on the CPU; with a GPU also PyTorch, JAX,
// ml_dtypes and Triton (beside `commands`, --adapter's).
std::vector<std::string> conversion_adapter_commands(std::vector<std::string> commands, bool repo_adapters, backend b);
// Each row to on_row as soon as it is judged (a stopped or failing audit keeps the rows shown);
// returns what was not run: "Framework: reason" for one not installed, or a conversion an adapter
// left out and why. every = false: the sampled domain only (quick; said so in each row's domain).
// Throws input_error when an adapter fails or breaks the format (adapters/README.md).
std::vector<std::string> audit_conversions(const std::vector<std::string>& commands, bool every,
                                           const std::function<void(conversion_row)>& on_row);
// The smallest binary32 input (by magnitude, then sign) where policies a and b give element
// different codes, with both codes; "" where they never differ.
std::string first_difference(const std::string& element, quantize_policy a, quantize_policy b);
// The policy's words: "nearest_even, saturation finite".
std::string to_string(quantize_policy p);

}  // namespace flipcheck::run
