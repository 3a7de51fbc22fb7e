// What a check of the scaling path reports, and the options every such check takes; shared by
// check/scaling.hpp (amax, scales, decoders, block pipelines) and check/quantizers.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/law.hpp"

namespace flipcheck {

struct scaling_report {
    std::string subject, shape, claim;  // claim: the format and policy or element it is checked under
    std::string domain;                 // what was judged, and "exhaustive" or "sampled"
    bool exhaustive = false;
    std::uint64_t checks = 0;
    std::optional<std::string> counterexample;
    // The failing input as a case (an amax's array, a scale's amax, a decoder's code, a block:
    // "binary32: 0x7f800000", check/reducers.hpp's format_case): `flipcheck check --case` replays it.
    std::string replay{};
    law_set failed = 0;  // the laws that failed, where the check tells them apart (quantizers)
    // The rounding modes the subject was checked in (check/rounding_modes.hpp's words), and the
    // one its counterexample needs (a replay runs the case in it).
    std::string rounding{};
    rounding_mode failed_mode = rounding_mode::to_nearest;
    bool passed() const { return !counterexample; }
};

struct scaling_options {
    std::size_t randoms = 2000;  // random arrays / blocks, on top of the edge battery
    std::uint64_t seed = 1;
    bool every_triple = false;   // byte formats: every array of 3 codes too (16.7M arrays per subject)
    bool edge_pairs = true;      // the edge battery's pairs and triples (off: singles and randoms only,
                                 // for runs under compute-sanitizer)
    bool every_binary32 = false;  // quantizers, scales, keys: every binary32 input (every core), not a sample
    unsigned threads = 0;         // the threads of an every_binary32 check (0: every core; a plug-in's loader: 1)
    std::uint64_t gpu_patterns = std::uint64_t(1) << 32;  // the GPU's exhaustive domains: 2^32 (less: a sample)
    bool other_rounding_modes = true;  // a subject declaring any mode: the other three modes too (on a smaller domain:
                                       // no every_triple, no every_binary32, as check_scaling says)
    bool gpu_ceil_recipes = false;  // the GPU's built-ins: RCEIL's and RCEIL-eps's scales on every amax too
                                    // (gpu_amax_test; the main job leaves them out: 40 ms of its 1.0 s budget)
};

// The domain's words when a check judges a replayed case's inputs only.
inline const char* only_words = "the given case's inputs";

}  // namespace flipcheck
