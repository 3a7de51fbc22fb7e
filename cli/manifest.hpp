// A shard's result as a manifest: one JSON file per shard of a sharded sweep or pair check, written
// atomically into a folder that `flipcheck merge` reads (docs/scale-out.md has the fields). It says
// what made it (the build: version, commit, flags, FTZ, a digest of the executable), where it ran,
// what it checked (subject, format, laws or operation, the whole space and this shard's slice) and
// what it found (the report as `--json` writes it), with a digest of those results that merge
// recomputes, so a damaged or edited file is caught. The digest leaves out times and the machine:
// a shard rerun elsewhere (a requeue, a retry) gives the same digest.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flipcheck/check/report.hpp"

namespace flipcheck::cli {

inline constexpr int manifest_version = 1;

// What the command knows when a shard ends.
struct shard_result {
    std::string workload;     // "sweep" or "pairs"
    nlohmann::json subject;   // {"format", "mapping", "laws"} or {"format", "mapping", "op"}
    int key_bits = 0;         // the space is keys (sweep) or first operands (pairs) of this width
    key_range space{};        // the whole range the shards cut
    shard part{};
    key_range range{};        // this shard's slice of the space
    std::string engine;       // where the shard index came from: "command line", "slurm", ...
    std::string device;       // "cpu: MODEL (N threads)" or "gpu: NAME"
    std::string verdict;      // "pass" or "fail" (an interrupted shard writes no manifest)
    nlohmann::json result;    // the report, as --json has it
    std::vector<std::string> rerun;  // the command with "{index}" where the shard index goes
};

// The build that runs now: version, commit, compiler, flags, the CPU's FTZ/DAZ state, and an
// XXH3-128 digest of the executable.
nlohmann::json build_identity();
// That digest alone: what a checkpoint records as the code that checked its keys.
std::string executable_digest();

// The file a shard's manifest goes to: DIR/shard-00007-of-00016.json.
std::filesystem::path manifest_path(const std::filesystem::path& dir, shard part);

// Checks that DIR can take manifests (creating it); input_error if not. Called before any work.
void check_manifest_dir(const std::filesystem::path& dir);

// Writes the manifest atomically (a reader never sees half a file; a rerun replaces it whole).
void write_manifest(const std::filesystem::path& dir, const shard_result& r);

// The digest of a manifest's results: XXH3-128 of the canonical JSON of the fields that say what
// was checked and found (times, the machine and the build excluded).
std::string results_digest(const nlohmann::json& manifest);

// "0x1f" for a range end; the end of a full 64-bit space (stored as 0) is "0x10000000000000000".
std::string range_end_text(const key_range& r, int key_bits);

}  // namespace flipcheck::cli
