// A compiled subject's proof, by its kind: a canonical key's laws (key_proof.hpp), a quantizer's
// (quantizer_proof.hpp), an MX scale's (scale_proof.hpp) or a mapping's (mapping_proof.hpp).
#pragma once
#include <string>

#include "compiled_subject.hpp"
#include "key_proof.hpp"
#include "mapping_proof.hpp"
#include "proof.hpp"
#include "quantizer_proof.hpp"
#include "scale_proof.hpp"

namespace flipcheck::prove {

inline proof prove_subject(const compiled_subject& m, const std::string& subject, const proof_options& o) {
    if (m.is_key()) return prove_key(m, subject, o);
    if (m.is_quantizer()) return prove_quantizer(m, subject, o);
    if (m.is_scale()) return prove_scale(m, subject, o);
    return prove_mapping(m, subject, o);
}

}  // namespace flipcheck::prove
