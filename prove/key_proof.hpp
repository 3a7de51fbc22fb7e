// A canonical key's two laws (check/canonical_keys.hpp), stated as SMT terms over the compiled key
// and one symbolic position of the declared order of every code: key_equivalence (neighbours the
// declared equivalence calls equal get equal keys) and key_order (other neighbours get strictly
// increasing keys), which together give key(a) == key(b) exactly when a and b are equivalent and
// key(a) < key(b) when a sorts first, for every pair of codes. A refutation is the smallest
// position of the walk (the pair ending there), confirmed by flipcheck's own walk on the native
// key. Keys are compared as one word (key_word: an integer, or up to 8 bytes big-endian).
#pragma once
#include <string>

#include "compiled_subject.hpp"
#include "proof.hpp"

namespace flipcheck::prove {

// The verdicts: `defined`, key_equivalence, key_order.
proof prove_key(const compiled_subject& m, const std::string& subject, const proof_options& o);

}  // namespace flipcheck::prove
