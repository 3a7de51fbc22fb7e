// The GPU sweep, callable from plain host code: no CUDA types cross this header, so the CLI
// (built by g++) links against flipcheck::gpu like any static library. The kernels live in
// sweep.cuh, the launcher template in sweep_launch.cuh. The library instantiates it for every
// (mapping, format) of registry::sweepable (a mapping or mutant added to the registry gets GPU
// kernels with no edit here); any other mapping, a user's own, works from a CUDA source that
// includes sweep_launch.cuh.
//
// A GPU report means exactly what a CPU report means (report.hpp), field for field:
//   - exhaustive (every format given a range, and formats of up to 32 bits without one): the
//     same keys, counts and first counterexamples as flipcheck::sweep<M> run with threads = 1.
//     The stop rule is the CPU driver's: keys go in chunks of detail::chunk_size_for(range), and
//     without `all` the sweep stops after the chunk in which the counterexample count reaches the
//     limit; with `all` it runs to the end. Either way it keeps the `limit` smallest. A CPU run
//     with many threads may finish a few more chunks before it stops, so compare stopped-early
//     runs with cross_check(), which accounts for that.
//   - binary64 without a range: the sampled domain, i.e. the CPU's sampled_sweep key list
//     (sampled.hpp) followed by `random_keys` stratified random keys (a run of 4 neighbouring keys
//     from a uniform offset in each of random_keys / 4 equal slices of the key space, so they too
//     ascend; sweep.cuh's stratified_keys). With random_keys = 0 it is
//     sampled_sweep's domain exactly. Sampled, not exhaustive: report.coverage() says how much.
//   - seconds is GPU kernel time (cudaEvents, summed over launches); sweep_timing adds wall time.
//   - checkpoints are CPU-only (a 2^32-key sweep takes milliseconds): a checkpoint path throws.
// Whether a device is present is device.hpp's question (gpu::available()).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "flipcheck/error.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/sweep.hpp"

namespace flipcheck::gpu {

// The binary64 sampled domain: the CPU's sample (sampled.hpp) plus random_keys stratified random
// keys in runs of 4, zero or a power of two from 8 to 2^63. 2^34 by default: about 30-45 ms per
// mapping on an H200 (bench/RESULTS.md, issue 58; 60-80 ms one key a stratum, issue 31).
struct sampled_params {
    sample_params sample{};
    std::uint64_t random_keys = std::uint64_t(1) << 34;
};

struct sweep_timing {
    double kernel_seconds = 0;  // = report.seconds
    double wall_seconds = 0;    // the whole call: setup, copies and host re-checks included
    std::uint64_t launches = 0, census_launches = 0;
};

namespace detail {
struct run_controls {
    bool stop_early = true;  // false: check every key of the range even past the limit (cross_check)
    bool sampled = false;  // binary64 only: the sampled domain (sweep() picks it without a range)
    sampled_params params{};
};

// The launcher of one registered (mapping, format): src/sweep.cu builds the table from
// registry::sweepable, in its order, and hands out entry i. A plain function, so that code built
// by another compiler (g++, for the CLI) links to it by an ordinary symbol.
using launcher = sweep_report (*)(const sweep_options&, const run_controls&, sweep_timing*);
launcher launcher_of(std::size_t instance);

inline constexpr std::size_t no_instance = ~std::size_t(0);
// M's position in registry::sweepable, or no_instance. A function rather than a lambda in the
// variable's initializer: nvcc 13.0's front end crashes on that form (registry::format_id's).
template <class M>
constexpr std::size_t find_instance() {
    std::size_t i = 0, found = no_instance;
    registry::for_each<registry::sweepable>([&]<class I>() {
        if (found == no_instance && std::is_same_v<typename I::type, M>) found = i;
        ++i;
    });
    return found;
}
template <class M>
inline constexpr std::size_t instance_of = find_instance<M>();

template <class M>
inline constexpr bool has_kernel = instance_of<M> != no_instance;

// The launcher template (sweep_launch.cuh): defined there, instantiated by any CUDA source that
// includes it, for any mapping.
template <class M>
sweep_report run_on_device(const sweep_options& o, const run_controls& c, sweep_timing* t);

// The registry's mappings go through the library's table, so that g++-built code needs no CUDA;
// any other mapping through the template, which a CUDA source of the caller must instantiate (by
// including sweep_launch.cuh; otherwise the link fails with "undefined reference to
// flipcheck::gpu::detail::run_on_device<...>").
template <class M>
sweep_report run(const sweep_options& o, const run_controls& c, sweep_timing* t) {
    if constexpr (has_kernel<M>) return launcher_of(instance_of<M>)(o, c, t);
    else return run_on_device<M>(o, c, t);
}
}  // namespace detail

// The GPU counterpart of flipcheck::sweep<M> (and, for binary64 without a range, of
// sampled_sweep<M> plus random keys). report.backend is "gpu".
template <class M>
sweep_report sweep(const sweep_options& o, sweep_timing* timing = nullptr) {
    detail::run_controls c;
    c.sampled = M::format::width == 64 && !o.range;
    return detail::run<M>(o, c, timing);
}

// The sampled domain with explicit parameters (binary64 only; o.range is ignored).
template <class M>
sweep_report sampled_sweep(const sweep_options& o, const sampled_params& p = {}, sweep_timing* timing = nullptr) {
    static_assert(M::format::width == 64, "the sampled domain is for binary64");
    detail::run_controls c;
    c.sampled = true;
    c.params = p;
    return detail::run<M>(o, c, timing);
}

// Field-by-field comparison of what two runs found: format, mapping, domain, laws, range,
// keys_checked, failing_keys, failures_by_law, the counterexample list, stopped_early and
// interrupted. Returns one line per difference; empty means they agree.
std::vector<std::string> compare_reports(const sweep_report& gpu, const sweep_report& cpu);

// Runs the CPU driver and the GPU sweep with the same options and compares them. A multi-threaded
// CPU run that stops early may have checked a few more chunks than the GPU (which stops like one
// thread); then the GPU is run once more over exactly the CPU's keys, without stopping early, and
// that run's counts are compared (the counterexamples of both GPU runs must match the CPU's).
// For binary64 without a range, the CPU's sampled_sweep (on one thread, so that it stops where
// the GPU does) is compared with the GPU's sampled domain without random keys.
template <class M>
std::vector<std::string> cross_check(const sweep_options& o) {
    using F = typename M::format;
    sweep_report cpu;
    if constexpr (F::width == 64) {
        if (!o.range) {
            sweep_options one_thread = o;
            one_thread.threads = 1;
            cpu = flipcheck::sampled_sweep<M>(one_thread);
            sampled_params p;
            p.random_keys = 0;
            return compare_reports(gpu::sampled_sweep<M>(o, p), cpu);
        }
    }
    cpu = flipcheck::sweep<M>(o);
    const sweep_report g = gpu::sweep<M>(o);
    if (g.keys_checked == cpu.keys_checked || cpu.interrupted || !cpu.stopped_early) return compare_reports(g, cpu);
    std::vector<std::string> diffs;
    if (g.counterexamples != cpu.counterexamples)
        diffs.push_back("counterexamples: the GPU's first ones differ from the CPU's (the CPU checked " +
                        std::to_string(cpu.keys_checked) + " keys, the GPU " + std::to_string(g.keys_checked) + ")");
    sweep_options same = o;
    same.range = key_range{cpu.range.begin, cpu.range.begin + cpu.keys_checked};
    same.part = {};
    detail::run_controls c;
    c.stop_early = false;
    sweep_report prefix = detail::run<M>(same, c, nullptr);
    prefix.range = cpu.range;
    prefix.domain = cpu.domain;  // the prefix is a part of the CPU's keys; what is compared is its counts
    prefix.stopped_early = cpu.stopped_early;
    for (auto& d : compare_reports(prefix, cpu)) diffs.push_back("over the CPU's keys: " + d);
    return diffs;
}

}  // namespace flipcheck::gpu
