// The one parser of numbers a user writes: command-line keys, ranges, shards, counts, and the
// bits in a case file. Decimal or 0x-hex only, range-checked, whole text: "010" is ten (never
// octal), "-1" and "1e3" and "" are refused, and a value above the limit names the limit.
#pragma once
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "flipcheck/error.hpp"

namespace flipcheck {

// Reads `text` into `value`: false (value untouched) unless it is a decimal or 0x-hex number no
// greater than `max`.
inline bool read_number(std::string_view text, std::uint64_t max, std::uint64_t& value) noexcept {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    if (text.empty()) return false;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (ec != std::errc{} || end != text.data() + text.size() || v > max) return false;
    value = v;
    return true;
}

// `what` names the number in the message ("--key", "shard count", "bits in the case").
inline std::uint64_t parse_number(std::string_view text, std::string_view what,
                                  std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    std::uint64_t v = 0;
    if (read_number(text, max, v)) return v;
    std::string shown(text.substr(0, 40));
    if (text.size() > 40) shown += "...";
    std::string msg = std::string(what) + " '" + shown + "' is not a number from 0 to ";
    msg += max == std::numeric_limits<std::uint64_t>::max() ? "2^64 - 1" : std::to_string(max);
    msg += " (decimal or 0x-hex)";
    throw input_error(msg);
}

}  // namespace flipcheck
