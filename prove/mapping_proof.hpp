// The seven mapping laws of law.hpp, stated once more as SMT terms over the compiled encode and
// decode (ir_terms.hpp) and one symbolic key: each is proved for every key of the format (2^64 for
// binary64) or refuted at its smallest failing key, which the compiled code, run natively and
// judged by flipcheck's own C++ oracle, must confirm before the report says FAIL. totalOrder here
// is written with Z3's FloatingPoint theory (fp.lt, fp.eq, fp.isNaN) plus the payload rule, and
// shares no code with the C++ oracle.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiled_subject.hpp"

namespace flipcheck::prove {

enum class outcome { proved, refuted, unknown };

struct law_verdict {
    std::string law;
    outcome result = outcome::unknown;
    std::optional<std::uint64_t> key;  // refuted: the smallest key (or code) where it fails; a pair law: a
    std::optional<std::uint64_t> b;    // a pair law refuted: the smallest b for that a
    std::string counterexample;        // refuted: the sweep's words for it, from the native run
    double seconds = 0;
};

// The first verdict is `defined`: the compiled encode and decode have no undefined behaviour at any
// input (no shift by the width or more, no nsw/nuw overflow, no division by zero, no unreachable
// code reached). The terms are what the code computes only where it holds, so the laws are
// decided after it, and left undecided if it fails. Then the seven laws, in law_id order, and the
// pair laws of `flipcheck pairs` (check/pairs.hpp): pairs_max and pairs_min, the max and min of
// two codes taken through their keys against totalOrder's, for all 2^(2 width) pairs.
struct mapping_proof {
    std::string subject, format;
    unsigned width = 0;
    std::vector<law_verdict> laws;
    double seconds = 0;
    bool passed() const {
        for (const auto& l : laws)
            if (l.result != outcome::proved) return false;
        return !laws.empty();
    }
};

// The solver's answer disagrees with the native run of the same code: a bug in the translation
// (ir_terms.cpp), reported as such (exit 4), never as a verdict on the subject.
struct translation_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct proof_options {
    unsigned timeout_ms = 60000;  // per law; past it the law is unknown, never proved
};

// input_error (exit 2) for a format the prover does not state the laws of (it enumerates the others).
// `subject` names the mapping in counterexamples.
mapping_proof prove_mapping(const compiled_mapping& m, const std::string& subject, const proof_options& o);

}  // namespace flipcheck::prove
