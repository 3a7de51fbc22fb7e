// The command line: every subcommand's options, parsed by CLI11 into plain values. A file of its
// own so that the fuzz target command_line (fuzz/) drives the very parser the command uses.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "audit.hpp"
#include "check.hpp"

namespace flipcheck::cli {

struct sweep_args {
    std::string format, mapping, device = "auto", shard, checkpoint, json, key, keys, manifest;
    std::vector<std::string> laws;
    bool all = false, cross_check = false;
    std::size_t limit = 16;
    unsigned threads = 0;
    double checkpoint_every = 1.0;
};

// `flipcheck pairs`: every pair of codes through the max/min step built on a mapping (check/pairs.hpp).
struct pairs_args {
    std::string format, mapping, op = "max", device = "auto", shard, rows, json, manifest;
    bool all = false;
    std::size_t limit = 16;
    unsigned threads = 0;
};

// `flipcheck merge DIR`: the shards' manifests checked, tiled and summed (cli/merge.cpp).
struct merge_args {
    std::string dir, json;
};

// `flipcheck plan`: a sharded run's job files for a cluster engine (cli/plan.cpp).
struct plan_args {
    std::string engine, workload = "sweep", format, mapping, op /* "": max */, device = "cpu", keys, rows, manifest, out, image,
                pvc = "flipcheck-results", partition, flipcheck;
    std::vector<std::string> laws;
    std::uint64_t shards = 0;
    unsigned cpus_per_task = 1;
    double price = 0, rate = 0;
};

struct arguments {
    enum class command { main_job, sweep, pairs, merge, plan, check, list, codes, audit, mutants } what = command::main_job;
    std::string device = "auto", json, with_mutant;  // the main job
    sweep_args sweep;
    pairs_args pairs;
    merge_args merge;
    plan_args plan;
    check_args check;
    audit_options audit;
    std::string audit_device = "auto", audit_json;
    std::string mutants_device = "auto", mutants_json;
    bool markdown = false;
    std::string codes_format, codes_json;
};

// What the options may name, and the version --version prints.
struct choices {
    std::vector<std::string> formats, mappings;
    std::string version;
};

// Parses argv into `out`. Returns -1 when the command is to run; otherwise the exit code to end
// with at once: 0 after --help or --version (printed on stdout), 2 for bad input (said on stderr).
int parse_arguments(int argc, const char* const* argv, const choices& names, arguments& out);

}  // namespace flipcheck::cli
