// What clang compiled for the prover, kept between runs: the bitcode and the shared library of a
// subject's wrapper, keyed by the compile command, clang's own identity and the preprocessed text
// (ccache's preprocessor mode: every header the code includes is in that text). The main job
// proves its binary64 built-ins at every run; from the cache the prover skips clang's 0.3-0.5 s of
// compiling (bench/RESULTS.md, "The main job's binary64 rows proved"). Best effort: a cache that
// cannot be read or written is no cache, never an error.
#pragma once
#include <string>

namespace flipcheck::prove {

// FLIPCHECK_PROVE_CACHE (a folder, or "none"), else $XDG_CACHE_HOME/flipcheck/prove, else
// $HOME/.cache/flipcheck/prove; "" for none.
std::string compile_cache_folder();

// The key of one compile: `command`, the compiler's file identity, and `preprocessed` with every
// `scratch` (the temporary folder the wrapper was written in) taken out.
std::string compile_key(const std::string& command, const std::string& compiler, std::string preprocessed, const std::string& scratch);

// The entry of `key` (a folder holding subject.bc and subject.so), or "" where there is none.
std::string cached_compile(const std::string& key);

// Keeps `bitcode` and `library` as the entry of `key`, written beside it and renamed into place,
// so a reader never sees half an entry; the oldest entries past 256 are removed.
void keep_compile(const std::string& key, const std::string& bitcode, const std::string& library);

}  // namespace flipcheck::prove
