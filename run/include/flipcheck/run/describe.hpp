// A bit pattern of a format named at run time, in words: hex, value and class. What every row,
// counterexample and replay line of the command shows for a value.
#pragma once
#include <cstdint>
#include <string>

namespace flipcheck::run {

struct described {
    std::string hex, value, kind;  // "0x80000000", "-0", "zero-"
};
// Throws std::invalid_argument for a format the registry does not have.
described describe(const std::string& format, std::uint64_t bits);

}  // namespace flipcheck::run
