// Counter-based randomness with the same sequence on every platform and backend (std
// distributions differ between standard libraries), so a printed seed replays anywhere and any
// thread, or the GPU, can draw element i of a sequence without drawing the ones before it.
#pragma once
#include <cstdint>

#include "flipcheck/hd.hpp"

namespace flipcheck {

// splitmix64's finaliser: a fixed bijection of 64-bit words with good avalanche.
FLIPCHECK_HD constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

namespace detail {
// A seeded sequential generator: splitmix64.
struct splitmix64 {
    std::uint64_t state;
    FLIPCHECK_HD std::uint64_t operator()() noexcept { return mix64(state += 0x9e3779b97f4a7c15ull); }
    FLIPCHECK_HD std::uint64_t below(std::uint64_t n) noexcept { return (*this)() % n; }  // n > 0
    FLIPCHECK_HD std::uint64_t next() noexcept { return (*this)(); }  // the interface draw.hpp takes
};
}  // namespace detail

}  // namespace flipcheck
