// Checking a user's mapping: the one entry point that picks the exhaustive sweep (formats up to 32
// bits) or the sampled one (binary64), the report in words with a replay line per counterexample,
// and the replay of one key.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/mapping.hpp"

namespace flipcheck {

// Mapping M checked on the CPU under o: every key of a format up to 32 bits (or of o.range), and
// for binary64 the sampled domain (sampled.hpp) unless o.range names keys. The one place this
// rule lives on the CPU: the command, the plug-in ABI and check_mapping all ask here (the GPU's
// launcher decides the same for its kernels, gpu/sweep.hpp).
template <mapping M>
sweep_report sweep_or_sample(const sweep_options& o) {
    if constexpr (M::format::width == 64) {
        if (!o.range) return sampled_sweep<M>(o);
    }
    return sweep<M>(o);
}

// The exhaustive sweep (formats up to 32 bits) or the sampled one (binary64), stopping at the first
// chunk that fails unless `all`: every law, every key. A mapping wrong at one key is reported after
// the chunks up to it.
template <mapping M>
sweep_report check_mapping(bool all = false, std::size_t limit = 8) {
    sweep_options o;
    o.limit = limit;
    o.all = all;
    o.first_failing_chunk = !all;
    return sweep_or_sample<M>(o);
}

// The report in words, with a replay line per counterexample: `key K` for check_key.
template <mapping M>
std::string mapping_text(const sweep_report& r) {
    using F = typename M::format;
    std::string s = std::string(M::name) + " over " + std::string(F::name) + " (" + r.domain + " sweep, " +
                    std::to_string(r.keys_checked) + " keys" + (r.stopped_early ? ", stopped at the first failing chunk" : "") +
                    "): " + (r.passed() ? "pass" : "FAIL, " + std::to_string(r.failing_keys) + " failing keys");
    for (const counterexample& c : r.counterexamples)
        s += "\n  " + describe<M>(c) + "\n    replay: key " + hex(c.key, F::width);
    return s;
}

// Every law at one key (a replay line's).
template <mapping M>
sweep_report check_mapping_key(typename M::format::storage key) {
    sweep_options o;
    o.range = key_range{key, std::uint64_t(key) + 1};
    o.threads = 1;
    o.all = true;
    return sweep<M>(o);
}

}  // namespace flipcheck
