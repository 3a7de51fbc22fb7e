// What a sweep ran and found. The CPU driver and the GPU launcher both return this type, so
// their verdicts can be compared field by field (the GPU cross-check does exactly that).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "flipcheck/law.hpp"

namespace flipcheck {

// A key range [begin, end) in a mapping's key space; 64-bit so that 2^32 itself fits. For a
// 64-bit format, end 0 stands for 2^64 (the arithmetic is modulo 2^64), so a range can hold the
// last key 0xffffffffffffffff: {k, k + 1} is the one key k for every k.
struct key_range {
    std::uint64_t begin = 0, end = 0;
    std::uint64_t size() const noexcept { return end - begin; }
    std::uint64_t last() const noexcept { return end - 1; }  // of a range that is not empty
    friend constexpr bool operator==(key_range, key_range) = default;
};

// Shard i of n: the i-th of n equal, contiguous slices of a range (the last absorbs the rest).
struct shard {
    std::uint64_t index = 0, count = 1;
    key_range of(key_range r) const noexcept {
        const std::uint64_t step = r.size() / count;
        const std::uint64_t b = r.begin + step * index;
        return {b, index + 1 == count ? r.end : b + step};
    }
    friend constexpr bool operator==(shard, shard) = default;
};

struct sweep_report {
    std::string format, mapping;
    std::string backend = "cpu";        // cpu | gpu
    // A format with unused container bits: what the mapping does with codes that set them
    // (law.hpp's unused_bits: masks, rejects, masks and rejects, neither). Empty elsewhere.
    std::string unused_bits;
    std::string domain = "exhaustive";  // exhaustive (every key) | range (every key of a part) | sampled (sampled.hpp)
    int key_bits = 0;                   // the format's width: the key space has 2^key_bits keys
    law_set laws = all_mapping_laws;
    key_range range{};                  // the keys this run was asked to cover
    std::uint64_t keys_checked = 0;     // keys whose laws were all evaluated (each counted once)
    std::uint64_t keys_resumed = 0;     // of keys_checked, those a checkpoint had already covered
    std::uint64_t failing_keys = 0;     // keys where at least one law failed (among keys_checked)
    std::array<std::uint64_t, mapping_law_count> failures_by_law{};
    std::vector<counterexample> counterexamples;  // the smallest keys first, at most the limit
    bool stopped_early = false;         // stopped after the counterexample limit
    bool interrupted = false;           // stopped by a signal; a checkpoint can resume it
    double seconds = 0;
    // Set when no law was evaluated here: the mapping agrees with this one on every key
    // (check/equal_mappings.hpp), whose sweep over the same keys this report repeats.
    std::string equal_to;

    // Zero keys checked is never a pass.
    bool passed() const noexcept {
        return failing_keys == 0 && !interrupted && keys_checked > 0 && keys_checked == range.size();
    }
    // The keys this run checked itself, per second of it: a resumed run's carried keys took it no time.
    double keys_per_second() const noexcept { return seconds > 0 ? double(keys_checked - keys_resumed) / seconds : 0; }
    // The share of the whole key space whose laws were checked: 1 only for a complete exhaustive
    // sweep of every key; about 7e-13 for binary64's sampled domain on the CPU.
    double coverage() const noexcept { return std::ldexp(double(keys_checked), -key_bits); }
};

// Orders counterexamples by key, then by law, so that any backend's "first K" are the same K.
inline void sort_counterexamples(std::vector<counterexample>& v) {
    std::sort(v.begin(), v.end(), [](const counterexample& a, const counterexample& b) {
        return a.key != b.key ? a.key < b.key : a.law < b.law;
    });
}

}  // namespace flipcheck
