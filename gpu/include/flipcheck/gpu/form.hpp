// Where a GPU reduction's atomics contend (the glossary's "form"): on a word per warp, on one
// shared-memory word per block, or on one global word for the whole grid. One enum for the keyed
// kernels (launch_reduce) and for your atomic strategy (check.cuh, rapidcheck.cuh). Host and device.
#pragma once
#include <cstdint>
#include <string_view>

namespace flipcheck::gpu {

enum class atomic_form : std::uint8_t {
    warp,
    block_shared,
    grid,
    // The keyed kernels' earlier names for the same forms, kept so that code written against them
    // (`value_form::warp_aggregated`) still compiles.
    warp_aggregated = warp,
    full_grid = grid,
};
using value_form = atomic_form;  // the earlier name of the keyed kernels' form

inline constexpr atomic_form atomic_forms[] = {atomic_form::warp, atomic_form::block_shared, atomic_form::grid};

constexpr std::string_view to_string(atomic_form f) noexcept {
    switch (f) {
        case atomic_form::warp: return "warp";
        case atomic_form::block_shared: return "block_shared";
        case atomic_form::grid: return "grid";
    }
    return "?";
}

}  // namespace flipcheck::gpu
