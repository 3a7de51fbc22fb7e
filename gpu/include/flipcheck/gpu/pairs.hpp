// The GPU twin of check/pairs.hpp, callable from plain host code (no CUDA types cross this header):
// every pair of a 16- or 32-bit format's codes through the max/min step built on a registered
// mapping, judged against totalOrder. The report equals the CPU's field for field (rows, counts,
// the first failing rows' smallest b, the same stop point); seconds is wall time. Rows go in
// launches of 2^32 pairs, ascending; the host reads each launch's per-row counts and smallest
// failing b back and applies the CPU's stop rule.
#pragma once
#include <cstddef>

#include "flipcheck/check/pairs.hpp"
#include "flipcheck/gpu/sweep.hpp"

namespace flipcheck::gpu {

namespace detail {
using pairs_launcher = pairs_report (*)(const pairs_options&);
// The launcher of registry::sweepable's instance i, or nullptr where its format has no GPU pairs
// (8-bit formats: 2^16 pairs are a CPU's microseconds; formats with unused bits).
pairs_launcher pairs_launcher_of(std::size_t instance);
}  // namespace detail

template <class M>
pairs_report check_pairs(const pairs_options& o) {
    static_assert(detail::has_kernel<M>, "GPU pairs exist for the registry's mappings");
    const auto run = detail::pairs_launcher_of(detail::instance_of<M>);
    if (!run) throw input_error(std::string(M::format::name) + " has no GPU pair check: use the CPU");
    return run(o);
}

}  // namespace flipcheck::gpu
