// Deciding a proof's laws, the same way for every kind of subject: each law's negation is put to
// Z3; unsat is a proof, sat a refutation searched down to its smallest input (and, for a pair law,
// that row's smallest b) and confirmed by running the compiled code, unknown a law undecided
// within the timeout. The first law is always `defined`: where it fails the others are left
// undecided, since the terms are what the code computes only where it has no undefined behaviour.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "compiled_subject.hpp"
#include "ieee_terms.hpp"
#include "proof.hpp"

namespace llvm {
class Function;
}

namespace flipcheck::prove {

struct law_statement {
    std::string name;
    z3::expr holds;
    z3::expr input;                  // the variable whose smallest failing value is reported
    std::optional<z3::expr> second;  // a pair law's b, searched once input is fixed
    // From a refutation's inputs (key, b): fills where and counterexample once the native run
    // confirms it, or throws translation_error where the native run keeps the law.
    std::function<void(law_verdict&)> explain;
};

std::vector<law_verdict> decide(z3::context& c, const std::vector<law_statement>& laws, const proof_options& o);

// The `defined` law over x: every one of the functions has no undefined behaviour at any input;
// its refutation names the function and the input.
law_statement defined_law(z3::context& c, const z3::expr& x, const std::vector<std::pair<std::string, const llvm::Function*>>& functions,
                          int width);

// A proof of a subject of an IEEE format, its fields filled and timed around
// fn.template operator()<F>(proof&, significand bits, exponent bits), which states and decides the laws.
template <class Fn>
proof prove_in_format(const compiled_subject& m, const std::string& subject, const char* kind, Fn&& fn) {
    proof out;
    out.subject = subject;
    out.kind = kind;
    out.format = m.format_name();
    const auto start = std::chrono::steady_clock::now();
    with_ieee_format(out.format, [&]<class F>(unsigned significand, unsigned exponent) {
        out.width = F::width;
        fn.template operator()<F>(out, significand, exponent);
    });
    out.seconds = seconds_since(start);
    return out;
}

}  // namespace flipcheck::prove
