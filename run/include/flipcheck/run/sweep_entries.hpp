// Core's registry (flipcheck/catalog/registry.hpp) at run time: every registered (format, mapping)
// instance as a row looked up by name, run on the backend asked for. Built-in mappings are what
// the main job verifies; mapping mutants are known-wrong and must fail.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::run {

struct sweep_entry {
    std::string format, mapping;
    registry::about info;  // the mapping's registry line: id, kind, origin, description
    // Whether every law must hold: a built-in on a format of the shape it assumes. A built-in that
    // is not (the seeds' keys on e8m0, fnuz, fp6, fp4) is run all the same: its failure is a
    // finding the main job shows as expected, and a pass there would be the surprise.
    bool expected_right = false;
    bool builtin() const { return info.what == registry::kind::mapping; }
    std::function<sweep_report(const sweep_options&, backend)> run;
    // GPU and CPU on the same options; one line per difference (empty: they agree exactly).
    std::function<std::vector<std::string>(const sweep_options&)> cross_check;
    // Every pair of codes through the max/min step built on the mapping (check/pairs.hpp): formats
    // of 32 bits or fewer with no unused bits (empty elsewhere); 8-bit formats on the CPU whatever
    // the backend, as the sweep.
    std::function<pairs_report(const pairs_options&, backend)> pairs;
    // A 32-bit format's built-in only: whether it agrees on every key with the built-in named
    // `reference` on the same format (check/equal_mappings.hpp; o.threads, o.stop); nothing if stopped.
    std::function<std::optional<bool>(std::string_view reference, const sweep_options&)> agrees_with;
    // The one of those the main job sweeps first, to prove the others against: the first built-in
    // of the format whose sweep is its fastest (a mapping that declares fused_filter, sweep.hpp).
    bool swept_first = false;
};

const std::vector<sweep_entry>& sweep_entries();
const sweep_entry* find_sweep_entry(std::string_view format, std::string_view mapping);
std::vector<std::string> format_names();
int format_width(std::string_view format);  // storage bits; 0 for an unknown name

// Every code of a format of 16 bits or fewer (without the codes whose unused container bits are
// set): the value the oracle decodes it to, as the bits of a binary32, and its class.
struct code_row {
    std::uint32_t code, value_bits;
    std::string kind;  // "normal+", "qnan-", ...
};
std::vector<code_row> codes_of(std::string_view format);
std::vector<std::string> mapping_names(bool builtin_only);

}  // namespace flipcheck::run
