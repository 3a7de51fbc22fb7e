// What flipcheck-prove reports for a subject: one verdict per law, proved for every input of the
// format, refuted at the smallest input (confirmed by running the compiled code), or undecided.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace flipcheck::prove {

enum class outcome { proved, refuted, unknown };

struct law_verdict {
    std::string law;
    outcome result = outcome::unknown;
    std::optional<std::uint64_t> key;  // refuted: the smallest key (or code) where it fails; a pair law: a
    std::optional<std::uint64_t> b;    // a pair law refuted: the smallest b for that a
    bool smallest = false;             // refuted: key (and b) shown the smallest; false when the search ran out of time
    std::string where;                 // refuted: the input in words ("key 0x...", "a=0x..., b=0x...")
    std::string counterexample;        // refuted: the sweep's words for it, from the native run
    double seconds = 0;
};

// The first verdict is `defined`: the compiled code has no undefined behaviour at any input (no
// shift by the width or more, no nsw/nuw overflow, no division by zero, no unreachable code
// reached). The terms are what the code computes only where it holds, so the laws are decided
// after it, and left undecided if it fails.
struct proof {
    std::string subject, kind, format;  // kind: "mapping" or "canonical key"
    unsigned width = 0;
    std::vector<law_verdict> laws;
    std::string equal_to;  // proved as the same mapping as this subject (prove_equal): its laws are that proof's
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
    unsigned timeout_ms = 60000;  // per law; past it the law is undecided, never proved
};

}  // namespace flipcheck::prove
