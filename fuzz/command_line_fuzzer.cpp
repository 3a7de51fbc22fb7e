// The command line, parsed by the same code the command uses (cli/arguments.cpp): the input is
// split at NUL bytes into arguments (a dictionary of the real options helps the fuzzer find them).
// The parser may only accept, print help or a version (0), or refuse with exit code 2; it never
// crashes or throws. What it accepts keeps the promises its validators make: names from the
// registry, --key never with --keys or --shard, no empty value, counts, rates, prices and seconds in
// range for every command that takes them (sweep, pairs, plan, check, audit).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "flipcheck/catalog/registry.hpp"

namespace fc = flipcheck;
namespace cli = flipcheck::cli;

namespace {

const cli::choices& names() {
    static const cli::choices c = [] {
        namespace reg = fc::registry;
        cli::choices n;
        reg::for_each<reg::all_formats>([&]<class E>() { n.formats.emplace_back(E::name); });
        reg::for_each<reg::concat<reg::mappings, reg::mapping_mutants, reg::low_precision_mapping_mutants>>(
            [&]<class E>() { n.mappings.emplace_back(E::name); });
        n.version = "fuzz";
        return n;
    }();
    return c;
}

[[noreturn]] void fail(const std::string& what) { throw std::logic_error("command_line: " + what); }

bool named(const std::vector<std::string>& list, const std::string& s) {
    for (const auto& x : list)
        if (x == s) return true;
    return false;
}

void check_promises(const cli::arguments& a) {
    using command = cli::arguments::command;
    if (a.what == command::sweep) {
        if (!named(names().formats, a.sweep.format) || !named(names().mappings, a.sweep.mapping)) fail("an unknown name accepted");
        if (!a.sweep.key.empty() && (!a.sweep.keys.empty() || !a.sweep.shard.empty())) fail("--key accepted with --keys or --shard");
        if (a.sweep.limit < 1 || a.sweep.threads > 1024) fail("--limit or --threads out of range");
        if (!std::isfinite(a.sweep.checkpoint_every) || a.sweep.checkpoint_every <= 0) fail("--checkpoint-every not a positive time");
    }
    if (a.what == command::pairs) {
        if (!named(names().formats, a.pairs.format) || !named(names().mappings, a.pairs.mapping)) fail("an unknown name accepted");
        if (a.pairs.limit < 1 || a.pairs.limit > (1u << 20) || a.pairs.threads > 1024) fail("pairs --limit or --threads out of range");
    }
    if (a.what == command::plan) {
        // What reaches a job file as a number is finite and in range (issue 59: --rate nan wrote a
        // negative --time); the strings are plan.cpp's to check (it refuses line breaks).
        if (a.plan.shards < 1 || a.plan.shards > (1u << 20) || a.plan.cpus_per_task < 1 || a.plan.cpus_per_task > 1024)
            fail("plan --shards or --cpus-per-task out of range");
        if (!std::isfinite(a.plan.rate) || (a.plan.rate != 0 && (a.plan.rate < 1 || a.plan.rate > 1e18))) fail("plan --rate not a rate");
        if (!std::isfinite(a.plan.price) || a.plan.price < 0 || a.plan.price > 1e9) fail("plan --price not a price");
    }
    if (a.what == command::check) {
        if (!std::isfinite(a.check.timeout) || a.check.timeout <= 0) fail("--timeout not a positive time");
        if (a.check.cases < 1 || a.check.cases > 100000000) fail("--cases out of range");  // -1 wrapped to 2^64 - 1 and ran forever
    }
    if (a.what == command::audit && a.audit.randoms > 100000000) fail("--randoms out of range");
    if (a.what == command::codes && !named(names().formats, a.codes_format)) fail("an unknown format accepted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words{"flipcheck"};
    std::string word;
    for (std::size_t i = 0; i < size && words.size() < 33; ++i) {
        if (data[i] == 0) words.push_back(word), word.clear();
        else word += char(data[i]);
    }
    if (!word.empty() && words.size() < 33) words.push_back(word);
    std::vector<const char*> argv;
    for (const auto& w : words) argv.push_back(w.c_str());
    // Help and errors go to stdout and stderr; a fuzzing run silences them (-close_fd_mask=3).
    cli::arguments a;
    const int rc = cli::parse_arguments(int(argv.size()), argv.data(), names(), a);
    if (rc != -1 && rc != 0 && rc != 2) fail("exit code " + std::to_string(rc));
    if (rc == -1) check_promises(a);
    return 0;
}
