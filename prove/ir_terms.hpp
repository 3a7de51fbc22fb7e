// A function of the subject's compiled code (LLVM IR, as clang emitted it at -O2) as a Z3 bit-vector
// term of its arguments: what the solver proves laws about is the code that runs, not a model of
// it. Every value is a bit vector of its type's width (a float is its bits; fcmp reads them through
// Z3's FloatingPoint theory). Control flow must be acyclic (phi nodes become selections over the
// edges' conditions). Whatever else the code holds (a loop, a call, memory, float arithmetic, an
// instruction not listed in ir_terms.cpp) is refused by name with its source line: never a pass.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include <z3++.h>

namespace llvm {
class Function;
}

namespace flipcheck::prove {

// The code holds something the translator does not read: what, and where in the source.
struct refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct function_term {
    z3::expr value;                   // the returned bits
    z3::expr defined;                 // true where the call has no undefined behaviour (poison, UB)
    std::vector<std::string> hazards; // what `defined` guards, with source lines, for a report
};

// fn's return value for the given arguments (one bit vector per parameter, of its width).
function_term term_of(z3::context& ctx, const llvm::Function& fn, const std::vector<z3::expr>& args);

}  // namespace flipcheck::prove
