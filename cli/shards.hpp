// What the sharded commands (`sweep`, `pairs`) share: which shard they are (--shard i/n or auto),
// where they run, and their result as a manifest for `flipcheck merge` (manifest.hpp).
#pragma once
#include <string>
#include <vector>

#include "flipcheck/check/pairs.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::cli {

// The words the command was started with (main sets them): a manifest keeps them, with the shard
// made explicit, as the command that reruns that shard.
extern std::vector<std::string> command_words;

struct chosen_shard {
    shard part{};
    std::string engine = "command line";  // or the engine --shard auto read it from
};
// --shard TEXT: "i/n", "auto" (shard_environment.hpp) or empty (the one shard 0/1).
chosen_shard choose_shard(const std::string& text);

// "BEGIN:END" (END excluded) as --keys and --rows take it; `option` names it in messages.
key_range parse_range(const std::string& text, const std::string& option);

// "cpu: MODEL (N threads)" or "gpu: NAME (sm_XY, N SMs)".
std::string device_text(run::backend b, unsigned threads);

// Writes the manifest of a sweep's or pair check's shard into dir (nothing when dir is empty or
// the run was interrupted: a checkpoint, not a manifest, holds an interrupted shard's work).
void write_sweep_manifest(const std::string& dir, const chosen_shard& s, key_range space, const sweep_report& r, unsigned threads);
void write_pairs_manifest(const std::string& dir, const chosen_shard& s, key_range space, const pairs_report& r, unsigned threads);

}  // namespace flipcheck::cli
