// An MX scale's law (check/scales.hpp: scale_agreement) proved for every non-negative binary32
// amax (2^31, the domain the sweep walks: every recipe ignores the amax's sign), from the scale's
// compiled code, under the recipe it declares (scale_recipe.hpp: OCP's floor, RCEIL, RCEIL with an
// amax floor). The reference is stated with Z3's FloatingPoint theory: floor(log2 v) is the
// exponent of v in a format where every binary32 value is normal (so a subnormal amax's is its
// true exponent), RCEIL's quotient is IEEE's binary32 division to nearest; it shares no code with
// the C++ oracle (ilogb, a binary64 division), which confirms every refutation natively.
#pragma once
#include <string>

#include "compiled_subject.hpp"
#include "proof.hpp"

namespace flipcheck::prove {

proof prove_scale(const compiled_subject& m, const std::string& subject, const proof_options& o);

}  // namespace flipcheck::prove
