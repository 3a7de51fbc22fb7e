// The seven mapping laws of law.hpp, stated once more as SMT terms over the compiled encode and
// decode (ir_terms.hpp) and one symbolic key: each is proved for every key of the format (2^64 for
// binary64) or refuted at its smallest failing key, which the compiled code, run natively and
// judged by flipcheck's own C++ oracle, must confirm before the report says FAIL (totalOrder:
// ieee_terms.hpp's, which shares no code with the C++ oracle).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiled_subject.hpp"
#include "proof.hpp"

namespace flipcheck::prove {

// The verdicts: `defined`, the seven laws in law_id order, then pairs_max and pairs_min: the max and
// min of two codes taken through their keys against totalOrder's (check/pairs.hpp), for all
// 2^(2 width) pairs. `subject` names the mapping in counterexamples.
proof prove_mapping(const compiled_subject& m, const std::string& subject, const proof_options& o);

// `m` proved by being `proved`'s mapping: its encode and decode are defined at every key and equal
// those of `of` (the subject `proved` is the proof of) there, so every law holds of it as of that
// one (the same functions; check/equal_mappings.hpp's argument, for all 2^64 keys at once). Two
// queries, milliseconds where the built-ins' laws take a quarter of a second; nullopt where they
// differ somewhere or the solver cannot tell.
std::optional<proof> prove_equal(const compiled_subject& m, const std::string& subject, const compiled_subject& of, const proof& proved,
                                 const proof_options& o);

}  // namespace flipcheck::prove
