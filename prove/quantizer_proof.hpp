// A quantizer's laws (check/quantizers.hpp: quantize_order, quantize_special, quantize_idempotent,
// quantize_rounding) proved for every input of binary16, bfloat16, binary32 and binary64, from the
// quantizer's compiled code. The reference is IEEE 754's own rounding, stated with Z3's
// FloatingPoint theory (a rounding of |x| into a format with the element's precision and its
// subnormal quantum, with an exponent range that does not end), not flipcheck's C++ oracle (a
// search over the element's values); the two are checked against each other on every 16-bit input.
#pragma once
#include <string>

#include "compiled_subject.hpp"
#include "proof.hpp"

namespace flipcheck::prove {

proof prove_quantizer(const compiled_subject& m, const std::string& subject, const proof_options& o);

}  // namespace flipcheck::prove
