// The GPU sweep's host launcher, as a template that any CUDA translation unit instantiates: include
// this header in a .cu file and flipcheck::gpu::sweep<M> (sweep.hpp) works for any mapping M, a
// user's own included; no list inside flipcheck needs editing. The library (src/sweep.cu) uses it
// for the registry's mappings, so that code built by g++ (the CLI) reaches those through
// launcher_of. What a report means: sweep.hpp.
//
// How the first K counterexamples come out the same as the CPU's (the K smallest keys):
// keys are checked as an ascending sequence, in launches of at most 2^32 keys. Each launch counts
// every failure exactly (keys the filter flags are re-checked with failures()) and explains
// failures into a buffer of hint_capacity entries.
//   - If all of the launch's failures fit (always, for a correct or nearly correct mapping), the
//     buffer holds every failing key of the launch: sorted by index they give the first failures
//     and the exact stop point. Each one is re-checked on the host (mapping_laws' failures and
//     explain, as check_key does) and must agree with the device.
//   - If they do not fit, a census kernel writes exact counts per tile of 4096 keys. The host
//     walks the tiles in ascending order, adding their counts, and re-checks on the CPU, key by
//     key, only the tiles that hold the next counterexamples it still needs, the tile where the
//     stop rule fires, and a tile cut by the stop point (at most about K + 2 tiles). A re-checked
//     tile must match its census counts.
// The stop rule is the CPU driver's: the exhaustive sweep stops at the end of the chunk (of
// chunk_size_for(range) keys) in which the counterexample count reaches the limit, the sampled
// sweep at the end of its chunk of sampled_chunk keys. Launches after the stop point are not made.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/gpu/detail/oracle_environment.cuh"
#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/detail/device_probe.hpp"
#include "flipcheck/gpu/sweep.cuh"
#include "flipcheck/gpu/sweep.hpp"

#define FLIPCHECK_GPU_CHECK(call) ::flipcheck::gpu::check((call), #call)

namespace flipcheck::gpu::detail {


using clock_type = std::chrono::steady_clock;


inline constexpr unsigned hint_capacity = 4096;
// Keys per launch of format F: about a millisecond of an H100 (2^30 32-bit keys, 2^28 64-bit ones).
// A launch holds every SM until it ends (one wave of blocks that loop), so the kernels of other
// host threads (the main job's reducers and scaling path, on per-thread streams) wait for its end:
// 2^32 binary64 keys a launch made each of their steps wait up to 17 ms, and their chains of small
// launches took most of the GPU main job's wall (bench/RESULTS.md, issue 31).
template <class F>
inline constexpr std::uint64_t launch_keys = std::uint64_t(1) << (F::width == 64 ? 28 : 30);  // the kernels count iterations in 32 bits


class event {
public:
    event() { FLIPCHECK_GPU_CHECK(cudaEventCreate(&e_)); }
    ~event() { cudaEventDestroy(e_); }
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    void record() { FLIPCHECK_GPU_CHECK(cudaEventRecord(e_)); }
    static double seconds(const event& a, const event& b) {
        FLIPCHECK_GPU_CHECK(cudaEventSynchronize(b.e_));
        float ms = 0;
        FLIPCHECK_GPU_CHECK(cudaEventElapsedTime(&ms, a.e_, b.e_));
        return ms / 1e3;
    }

private:
    cudaEvent_t e_{};
};

// Blocks for `waves` full waves of `kernel` at block_threads, capped by the work there is.
template <class Kernel>
unsigned grid_for(Kernel kernel, std::uint64_t blocks_of_work, unsigned waves = 1) {
    int device = 0, sms = 0, per_sm = 0;
    FLIPCHECK_GPU_CHECK(cudaGetDevice(&device));
    FLIPCHECK_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    FLIPCHECK_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, dev::block_threads, 0));
    const std::uint64_t wave = std::uint64_t(sms) * std::uint64_t(std::max(per_sm, 1)) * waves;
    return unsigned(std::max<std::uint64_t>(1, std::min(wave, blocks_of_work)));
}

struct tally {
    std::uint64_t failing_keys = 0;
    std::array<std::uint64_t, mapping_law_count> by_law{};

    std::uint64_t counterexamples() const {
        std::uint64_t n = 0;
        for (auto c : by_law) n += c;
        return n;
    }
    void add(law_set f) {
        ++failing_keys;
        for (int l = 0; l < mapping_law_count; ++l) by_law[l] += (f >> l) & 1u;
    }
    template <class T>
    void add_counts(const T& t) {
        failing_keys += t.failing_keys;
        for (int l = 0; l < mapping_law_count; ++l) by_law[l] += t.by_law[l];
    }
    bool operator==(const tally&) const = default;
};

// One sweep: an ascending sequence of keys checked launch by launch, with the CPU's stop rule.
// Sequence offsets count keys from the start of the sequence; stop units are `unit` keys long.
template <class M>
class runner {
    using F = typename M::format;
    using S = typename F::storage;

public:
    runner(law_set laws, std::size_t limit, bool stop_early, std::uint64_t unit, sweep_timing& timing)
        : laws_(laws), limit_(limit), stop_early_(stop_early), unit_(unit), timing_(timing),
          totals_(1, uninitialized), items_(hint_capacity, uninitialized), index_(hint_capacity, uninitialized) {
        if (stop_early_ && limit_ == 0) stop_at_ = 0;  // the CPU checks nothing either
    }

    std::uint64_t done() const { return done_; }
    bool stopped() const { return stop_at_ && done_ >= *stop_at_; }
    const tally& counts() const { return counts_; }
    std::vector<counterexample>& counterexamples() { return ces_; }

    // Checks sequence offsets [done, done + n), n <= 2^32; key i of them is src.key(i) on the
    // device and host_key(i) here.
    template <class Src, class HostKey>
    void launch(const Src& src, std::uint64_t n, HostKey host_key) {
        if (stop_at_) n = std::min(n, *stop_at_ - done_);
        if (n == 0) return;
        FLIPCHECK_GPU_CHECK(cudaMemset(totals_.get(), 0, sizeof(dev::totals)));
        const dev::hint_buffer hint{items_.get(), index_.get(), hint_capacity};
        auto kernel = dev::sweep_kernel<M, Src>;
        const std::uint64_t groups = n / Src::unroll + 1;
        // Eight waves of blocks, not one that loops: with other kernels on some SMs (the main
        // job's reducers and scaling path), one wave's blocks that did not fit ran as a second
        // wave of the whole launch's length; smaller blocks fill the SMs as they free up.
        const unsigned grid = grid_for(kernel, (groups + dev::block_threads - 1) / dev::block_threads, 8);
        // The filter does not cover the format's last key (it has no successor): check it exactly.
        const std::uint64_t n_fast = host_key(n - 1) == F::all_ones ? n - 1 : n;
        start_.record();
        kernel<<<grid, dev::block_threads>>>(src, n, n_fast, laws_, totals_.get(), hint);
        FLIPCHECK_GPU_CHECK(cudaGetLastError());
        stop_.record();
        timing_.kernel_seconds += event::seconds(start_, stop_);
        ++timing_.launches;
        dev::totals t{};
        FLIPCHECK_GPU_CHECK(cudaMemcpy(&t, totals_.get(), sizeof t, cudaMemcpyDeviceToHost));
        tally launch_counts;
        launch_counts.add_counts(t);
        if (launch_counts.failing_keys == 0) {
            done_ += n;
            return;
        }
        const std::uint64_t failures = launch_counts.counterexamples();
        if (failures <= hint_capacity) {
            if (t.appended != failures)
                throw std::runtime_error("GPU sweep: counted " + std::to_string(failures) + " failures but explained " +
                                         std::to_string(t.appended));
            from_hints(n, unsigned(failures), launch_counts, host_key);
        } else {
            from_census(src, n, launch_counts, host_key);
        }
    }

private:
    std::uint64_t unit_end(std::uint64_t off) const {
        const std::uint64_t q = off / unit_ + 1;
        return q > ~std::uint64_t(0) / unit_ ? ~std::uint64_t(0) : q * unit_;
    }

    // A failing key at sequence offset `off`, in ascending order: counts, explanations, stop rule.
    void on_key(std::uint64_t off, S k, law_set f) {
        counts_.add(f);
        for (int l = 0; l < mapping_law_count && ces_.size() < limit_; ++l)
            if (f & (law_set(1) << l)) ces_.push_back(mapping_laws<M>::explain(law_id(l), k));
        if (stop_early_ && !stop_at_ && counts_.counterexamples() >= limit_) stop_at_ = unit_end(off);
    }

    void finish_launch(std::uint64_t n) { done_ = stop_at_ && *stop_at_ < done_ + n ? *stop_at_ : done_ + n; }

    [[noreturn]] static void disagree(S k, law_set device, law_set host) {
        throw std::runtime_error("GPU and CPU disagree at key " + hex(k, 0) + ": device failure mask " + hex(device, 0) +
                                 ", host " + hex(host, 0) + " (is flush-to-zero on?)");
    }

    // Every failure of the launch is in the hint buffer.
    template <class HostKey>
    void from_hints(std::uint64_t n, unsigned failures, const tally& launch_counts, HostKey host_key) {
        std::vector<counterexample> items(failures);
        std::vector<std::uint64_t> index(failures);
        FLIPCHECK_GPU_CHECK(cudaMemcpy(items.data(), items_.get(), failures * sizeof(counterexample), cudaMemcpyDeviceToHost));
        FLIPCHECK_GPU_CHECK(cudaMemcpy(index.data(), index_.get(), failures * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
        std::vector<std::size_t> order(failures);
        for (std::size_t j = 0; j < failures; ++j) order[j] = j;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return index[a] != index[b] ? index[a] < index[b] : items[a].law < items[b].law;
        });
        tally seen;
        for (std::size_t j = 0; j < failures;) {
            const std::uint64_t i = index[order[j]];
            const S k = host_key(i);
            law_set f = 0;
            for (; j < failures && index[order[j]] == i; ++j) {
                const counterexample& c = items[order[j]];
                if (c.key != k || !(c == mapping_laws<M>::explain(c.law, k)))
                    throw std::runtime_error("GPU and CPU explain key " + hex(k, 0) + " differently");
                f |= law_bit(c.law);
            }
            const law_set host = mapping_laws<M>::failures(k) & laws_;
            if (host != f) disagree(k, f, host);
            seen.add(f);
            if (!stop_at_ || done_ + i < *stop_at_) on_key(done_ + i, k, f);
        }
        if (!(seen == launch_counts)) throw std::runtime_error("GPU sweep: the explained failures do not add up to the counts");
        finish_launch(n);
    }

    // Too many failures for the buffer: exact counts per tile, re-checked on the host where needed.
    template <class Src, class HostKey>
    void from_census(const Src& src, std::uint64_t n, const tally& launch_counts, HostKey host_key) {
        const std::uint64_t n_tiles = (n + dev::tile_keys - 1) / dev::tile_keys;
        tiles_.reserve(n_tiles);
        auto kernel = dev::census_kernel<M, Src>;
        const unsigned grid = grid_for(kernel, (n_tiles + 7) / 8);
        start_.record();
        kernel<<<grid, dev::block_threads>>>(src, n, laws_, tiles_.get());
        FLIPCHECK_GPU_CHECK(cudaGetLastError());
        stop_.record();
        timing_.kernel_seconds += event::seconds(start_, stop_);
        ++timing_.census_launches;
        std::vector<dev::tile_tally> tiles(n_tiles);
        FLIPCHECK_GPU_CHECK(cudaMemcpy(tiles.data(), tiles_.get(), n_tiles * sizeof(dev::tile_tally), cudaMemcpyDeviceToHost));
        tally census;
        for (const auto& t : tiles) census.add_counts(t);
        if (!(census == launch_counts)) throw std::runtime_error("GPU sweep: the census does not match the counts");

        for (std::uint64_t w = 0; w < n_tiles; ++w) {
            const dev::tile_tally& t = tiles[w];
            const std::uint64_t b = w * dev::tile_keys, e = std::min(n, b + dev::tile_keys);
            if (stop_at_ && done_ + b >= *stop_at_) break;
            if (t.failing_keys == 0) continue;
            tally here;
            here.add_counts(t);
            const bool wants_examples = ces_.size() < limit_;
            const bool fires_inside = stop_early_ && !stop_at_ &&
                                      counts_.counterexamples() + here.counterexamples() >= limit_ &&
                                      unit_end(done_ + b) < done_ + e;
            const bool cut = stop_at_ && done_ + e > *stop_at_;
            if (!wants_examples && !fires_inside && !cut) {
                counts_.add_counts(t);
                if (stop_early_ && !stop_at_ && counts_.counterexamples() >= limit_) stop_at_ = unit_end(done_ + b);
                continue;
            }
            tally recheck;
            std::uint64_t i = b;
            for (; i < e && !(stop_at_ && done_ + i >= *stop_at_); ++i) {
                const S k = host_key(i);
                const law_set f = mapping_laws<M>::failures(k) & laws_;
                if (!f) continue;
                recheck.add(f);
                on_key(done_ + i, k, f);
            }
            if (i == e && !(recheck == here))
                throw std::runtime_error("GPU and CPU disagree in the tile of keys from " + hex(host_key(b), 0) +
                                         ": device counts " + std::to_string(here.failing_keys) + " failing keys, host " +
                                         std::to_string(recheck.failing_keys));
        }
        finish_launch(n);
    }

    law_set laws_;
    std::size_t limit_;
    bool stop_early_;
    std::uint64_t unit_;
    sweep_timing& timing_;
    device_buffer<dev::totals> totals_;
    device_buffer<counterexample> items_;
    device_buffer<std::uint64_t> index_;
    device_buffer<dev::tile_tally> tiles_;
    event start_, stop_;
    std::uint64_t done_ = 0;
    std::optional<std::uint64_t> stop_at_;
    tally counts_;
    std::vector<counterexample> ces_;
};

template <class M>
void fill(sweep_report& rep, runner<M>& run, const sweep_options& o, std::uint64_t total) {
    rep.keys_checked = run.done();
    rep.failing_keys = run.counts().failing_keys;
    rep.failures_by_law = run.counts().by_law;
    rep.counterexamples = std::move(run.counterexamples());
    sort_counterexamples(rep.counterexamples);
    if (rep.counterexamples.size() > o.limit) rep.counterexamples.resize(o.limit);
    rep.interrupted = o.stop && o.stop->load() && rep.keys_checked < total;
    rep.stopped_early = !rep.interrupted && rep.keys_checked < total;
}

inline bool stop_requested(const sweep_options& o) { return o.stop && o.stop->load(); }

// sample_keys<M>(p) built on the device: a kernel draws every pattern (sample_pattern, the same
// function the host uses) and its keys, and CUB sorts them and drops repeats: the CPU's list in
// milliseconds instead of a few hundred. The host reads keys back one at a time (a launch asks
// for its last key) until a re-check needs many; then it copies the whole list once.
template <class M>
class device_sample {
    using S = typename M::format::storage;

public:
    explicit device_sample(const sample_params& p) {
        check_sample_params<typename M::format>(p);
        const std::uint64_t n = (std::uint64_t(2) << M::format::exponent_bits) * sample_block_size(p), all = 3 * n;
        device_buffer<S> expanded(all, uninitialized);
        keys_.reserve(all);
        dev::expand_sample<M><<<1024, dev::block_threads>>>(p, n, expanded.get());
        FLIPCHECK_GPU_CHECK(cudaGetLastError());
        device_buffer<std::uint64_t> count(1, uninitialized);
        std::size_t sort_bytes = 0, unique_bytes = 0;
        FLIPCHECK_GPU_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, expanded.get(), keys_.get(), all));
        FLIPCHECK_GPU_CHECK(cub::DeviceSelect::Unique(nullptr, unique_bytes, keys_.get(), expanded.get(), count.get(), all));
        device_buffer<unsigned char> scratch(std::max<std::size_t>({sort_bytes, unique_bytes, 1}), uninitialized);
        FLIPCHECK_GPU_CHECK(cub::DeviceRadixSort::SortKeys(scratch.get(), sort_bytes, expanded.get(), keys_.get(), all));
        FLIPCHECK_GPU_CHECK(cub::DeviceSelect::Unique(scratch.get(), unique_bytes, keys_.get(), expanded.get(), count.get(), all));
        FLIPCHECK_GPU_CHECK(cudaMemcpy(&size_, count.get(), sizeof size_, cudaMemcpyDeviceToHost));
        FLIPCHECK_GPU_CHECK(cudaMemcpy(keys_.get(), expanded.get(), size_ * sizeof(S), cudaMemcpyDeviceToDevice));
    }
    std::uint64_t size() const { return size_; }
    const S* device() const { return keys_.get(); }
    S at(std::uint64_t i) {
        if (host_.empty() && ++single_reads_ > 64) {
            host_.resize(size_);
            FLIPCHECK_GPU_CHECK(cudaMemcpy(host_.data(), keys_.get(), size_ * sizeof(S), cudaMemcpyDeviceToHost));
        }
        if (!host_.empty()) return host_[i];
        S k{};
        FLIPCHECK_GPU_CHECK(cudaMemcpy(&k, keys_.get() + i, sizeof k, cudaMemcpyDeviceToHost));
        return k;
    }

private:
    device_buffer<S> keys_;
    std::uint64_t size_ = 0;
    std::vector<S> host_;
    unsigned single_reads_ = 0;
};

// One sweep of M: what gpu::sweep, sampled_sweep and cross_check run (through launcher_of for the
// registry's mappings, directly for any other).
template <class M>
sweep_report run_on_device(const sweep_options& o, const run_controls& c, sweep_timing* timing_out) {
    using F = typename M::format;
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    if (!o.checkpoint.empty()) throw input_error("--checkpoint is for CPU sweeps (a GPU sweep takes milliseconds): add --device cpu, or drop --checkpoint");
    if (o.part.count == 0 || o.part.index >= o.part.count) throw input_error("bad shard: index must be < count");
    if (!device_present()) throw input_error("no CUDA device is present");
    detail::require_ieee_device_oracle();  // this unit's flags, not flushed (detail/oracle_environment.cuh)
    sweep_timing timing;
    sweep_report rep;
    rep.format = F::name;
    rep.mapping = M::name;
    rep.backend = "gpu";
    rep.laws = o.laws;
    const bool stop_early = c.stop_early && !o.all;
    auto progress = [&](std::uint64_t done, std::uint64_t total) {
        if (o.progress) o.progress({done, total, std::chrono::duration<double>(clock_type::now() - t0).count()});
    };

    bool sampled = false;
    if constexpr (F::width == 64) sampled = c.sampled;
    if (!sampled) {
        const key_range r = keys_to_sweep<F>(o);
        rep.range = r;
        rep.domain = domain_of<F>(r);
        runner<M> run(o.laws, o.limit, stop_early, flipcheck::detail::chunk_size_for(r), timing);
        while (!run.stopped() && run.done() < r.size() && !stop_requested(o)) {
            const std::uint64_t base = r.begin + run.done();
            run.launch(dev::range_keys<S>{base}, std::min(launch_keys<F>, r.size() - run.done()),
                       [base](std::uint64_t i) { return S(base + i); });
            progress(run.done(), r.size());
        }
        fill(rep, run, o, r.size());
    } else if constexpr (F::width == 64) {
        const sampled_params& p = c.params;
        constexpr std::uint64_t run_keys = dev::stratified_keys::unroll;
        if (p.random_keys != 0 && (!std::has_single_bit(p.random_keys) || p.random_keys < 2 * run_keys))
            throw input_error("random_keys must be 0 or a power of two from " + std::to_string(2 * run_keys) + " to 2^63");
        rep.domain = "sampled";
        // The CPU's list (sample_keys), built on the device, so both check the same keys.
        device_sample<M> keys(p.sample);
        // Shards cut the list and the random keys alike, as sampled_sweep cuts its list.
        // Shards cut the random keys in whole runs (stratified_keys), so each shard's first is aligned.
        const key_range runs = o.part.of({0, p.random_keys / run_keys});
        const key_range list_part = o.part.of({0, keys.size()}), random_part{runs.begin * run_keys, runs.end * run_keys};
        const std::uint64_t lo = list_part.begin, listed = list_part.size(), total = listed + random_part.size();
        rep.range = {0, total};
        runner<M> run(o.laws, o.limit, stop_early, sampled_chunk, timing);
        while (!run.stopped() && run.done() < listed && !stop_requested(o)) {
            const std::uint64_t base = run.done();
            run.launch(dev::list_keys<S>{keys.device() + lo + base}, std::min(launch_keys<F>, listed - base),
                       [&, base](std::uint64_t i) { return keys.at(lo + base + i); });
            progress(run.done(), total);
        }
        // random_keys / run strata of 2^shift keys each
        const int shift = p.random_keys ? 64 - std::countr_zero(p.random_keys / run_keys) : 1;
        while (!run.stopped() && run.done() < total && !stop_requested(o)) {
            const dev::stratified_keys src{p.sample.seed, random_part.begin + (run.done() - listed), shift};
            run.launch(src, std::min(launch_keys<F>, total - run.done()), [src](std::uint64_t i) { return src.key(i); });
            progress(run.done(), total);
        }
        fill(rep, run, o, total);
    }
    rep.key_bits = F::width;
    timing.wall_seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    rep.seconds = timing.kernel_seconds;
    if (timing_out) *timing_out = timing;
    return rep;
}

}  // namespace flipcheck::gpu::detail
