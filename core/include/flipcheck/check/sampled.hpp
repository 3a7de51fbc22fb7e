// The sampled domain, for a format too wide to sweep whole (binary64: 2^64 keys). Sampled is not
// exhaustive: a report from here says "sampled" and how much of the key space it covered.
//
// The sample is structured, not just random: for every sign and exponent, the edge mantissas
// (0, 1, 2, half, half + 1, max - 2 .. max) and `randoms` stratified random ones (one uniform
// mantissa in each of `randoms` equal slices of the mantissa range). The keys checked are every
// pattern read as a key, its key, and the key just below it, so the successor law covers the
// steps into and out of every pattern. The random mantissas come from a counter-based generator
// (mix64), so the list is the same on every machine and any thread could draw any part of it.
#pragma once
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/check/sweep.hpp"

namespace flipcheck {

struct sample_params {
    std::uint64_t seed = 1;
    unsigned randoms = 1024;  // random mantissas per sign and exponent; a power of two
    friend constexpr bool operator==(const sample_params&, const sample_params&) = default;
};

// Pattern j of the block of a sign and exponent (`block` = the pattern's bits above the
// mantissa), for j < sample_block_size(p): the 8 edge mantissas first, then the stratified random
// ones, each list ascending. A random mantissa may equal an edge; sample_patterns drops the
// repeat. One definition for the host and the GPU, which builds the same key list itself.
inline constexpr unsigned sample_edges = 8;
constexpr std::uint64_t sample_block_size(const sample_params& p) noexcept { return sample_edges + p.randoms; }

template <format F>
FLIPCHECK_HD constexpr typename F::storage sample_pattern(const sample_params& p, std::uint64_t block, std::uint64_t j) noexcept {
    using S = typename F::storage;
    const S man = F::mantissa_mask;
    S m;
    if (j < sample_edges) {
        const S edges[sample_edges] = {0, 1, 2, S(man / 2), S(man / 2 + 1), S(man - 2), S(man - 1), man};
        m = edges[j];
    } else {
        const std::uint64_t i = j - sample_edges;
        const S slice = S(S(man / p.randoms) + 1);  // randoms equal slices of the mantissa range
        const std::uint64_t stream = mix64(p.seed ^ (block << 32));
        m = S(S(i) * slice + (S(mix64(stream + 0x9e3779b97f4a7c15ull * (i + 1))) & S(slice - 1)));
    }
    return S(S(S(block) << F::mantissa_bits) | m);
}

template <format F>
void check_sample_params(const sample_params& p) {
    if (p.randoms == 0 || (p.randoms & (p.randoms - 1)) || typename F::storage(p.randoms) > F::mantissa_mask)
        throw input_error("sample randoms must be a power of two below the mantissa range, not " + std::to_string(p.randoms));
}

// The patterns, ascending and distinct.
template <format F>
std::vector<typename F::storage> sample_patterns(const sample_params& p) {
    using S = typename F::storage;
    check_sample_params<F>(p);
    const std::uint64_t blocks = std::uint64_t(2) << F::exponent_bits, size = sample_block_size(p);
    std::vector<S> out(blocks * size);
    std::size_t n = 0;
    for (std::uint64_t block = 0; block < blocks; ++block) {
        // The edges and the randoms each ascend: merge them, dropping a random equal to an edge.
        std::uint64_t a = 0, b = sample_edges;
        while (a < sample_edges || b < size) {
            const S x = sample_pattern<F>(p, block, a), y = sample_pattern<F>(p, block, b);
            const S next = b == size || (a < sample_edges && x <= y) ? (++a, x) : (++b, y);
            if (n == 0 || out[n - 1] != next) out[n++] = next;
        }
    }
    out.resize(n);
    return out;
}

// The same patterns, computed once per process for each parameter set: every mapping of a format
// shares them, and the main job sweeps three.
template <format F>
std::shared_ptr<const std::vector<typename F::storage>> shared_sample_patterns(const sample_params& p) {
    using list = std::vector<typename F::storage>;
    static std::mutex mu;
    static std::vector<std::pair<sample_params, std::shared_ptr<const list>>> made;
    std::lock_guard g(mu);
    for (const auto& [q, l] : made)
        if (q == p) return l;
    made.emplace_back(p, std::make_shared<const list>(sample_patterns<F>(p)));
    return made.back().second;
}

// Sorts v and drops repeats; linear when v is a few monotone runs, as a correct mapping's keys of
// ascending patterns are (one sign's keys ascend, the other's descend). Any other order (a
// mutant's) falls back to std::sort.
template <class S>
void sort_distinct(std::vector<S>& v) {
    constexpr std::size_t max_runs = 64;
    std::vector<std::size_t> cuts{0};
    for (std::size_t i = 0; i < v.size() && cuts.size() <= max_runs;) {
        std::size_t j = i + 1;
        if (j < v.size() && v[j] < v[i]) {
            while (j < v.size() && v[j] <= v[j - 1]) ++j;
            std::reverse(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(j));
        } else {
            while (j < v.size() && v[j] >= v[j - 1]) ++j;
        }
        cuts.push_back(j);
        i = j;
    }
    if (cuts.back() != v.size()) {
        std::sort(v.begin(), v.end());
    } else if (cuts.size() > 2) {  // merge neighbouring runs pairwise, between two buffers
        std::vector<S> other(v.size());
        while (cuts.size() > 2) {
            std::vector<std::size_t> next{0};
            for (std::size_t k = 0; k + 1 < cuts.size(); k += 2) {
                const auto at = [&](std::size_t c) { return v.begin() + std::ptrdiff_t(cuts[c]); };
                const std::size_t end = k + 2 < cuts.size() ? k + 2 : k + 1;
                std::merge(at(k), at(std::min(k + 1, end)), at(std::min(k + 1, end)), at(end),
                           other.begin() + std::ptrdiff_t(cuts[k]));
                next.push_back(cuts[end]);
            }
            v.swap(other);
            cuts = std::move(next);
        }
    }
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

namespace detail {
// A non-decreasing stream of keys for sample_keys' merge. A run of encode(patterns) that is
// strictly monotone, read in ascending order with `pairs` set, gives e - 1 then e for each key e:
// non-decreasing, as e_i - 1 >= e_{i-1} in a strict run. A key 0 has no key below it inside the
// stream (0 - 1 wraps to the top): the caller gives that one apart. Without `pairs` each entry
// comes once (the patterns).
template <class S>
struct key_stream {
    const S* at;          // the entry now read, moved by `step`
    std::ptrdiff_t step;  // +1 for an ascending list, -1 for a descending one read backwards
    std::size_t left;     // entries left, counting the one at `at`
    bool pairs;           // give e - 1 before each entry e
    bool below_given = false;
    bool empty() const noexcept { return left == 0; }
    S head() const noexcept { return pairs && !below_given ? S(*at - 1) : *at; }
    void pop() noexcept {
        if (pairs && !below_given) {
            below_given = true;
            return;
        }
        below_given = false;
        if (--left) at += step;  // never a pointer before the run's first entry
    }
};
}  // namespace detail

// The keys a sampled sweep of M checks, ascending and distinct: every pattern, its key and the key
// below. A correct mapping's keys of ascending patterns are a few strictly monotone runs (one
// sign's keys ascend, the other's descend), so the list is one merge of the patterns with each
// run read as (key - 1, key) pairs, each key written once; a mapping with more runs (a mutant's)
// has its three lists sorted instead (sort_distinct). The main job builds four of these lists.
template <mapping M>
std::vector<typename M::format::storage> sample_keys(const sample_params& p) {
    using S = typename M::format::storage;
    using stream = detail::key_stream<S>;
    const auto shared = shared_sample_patterns<typename M::format>(p);
    const std::vector<S>& patterns = *shared;
    const std::size_t n = patterns.size();
    const std::unique_ptr<S[]> e(new S[n]);  // not zero-filled: every entry is written here
    for (std::size_t i = 0; i < n; ++i) e[i] = M::encode(patterns[i]);

    constexpr std::size_t max_runs = 8;  // the merge picks its lowest head by a linear scan
    std::vector<stream> streams;
    bool wraps = false;  // some run holds key 0, whose key below is the format's top key
    for (std::size_t i = 0; i < n && streams.size() <= max_runs;) {
        std::size_t j = i + 1;
        const bool down = j < n && e[j] < e[i];
        while (j < n && (down ? e[j] < e[j - 1] : e[j] > e[j - 1])) ++j;
        stream s{down ? &e[j - 1] : &e[i], down ? -1 : 1, j - i, true};
        if (*s.at == 0) {  // the run's lowest key: its key below is given apart, not here
            wraps = true;
            s.below_given = true;
        }
        streams.push_back(s);
        i = j;
    }
    if (streams.size() > max_runs) {
        std::vector<S> keys(3 * n);
        for (std::size_t i = 0; i < n; ++i) {
            keys[i] = patterns[i];
            keys[n + i] = e[i];
            keys[2 * n + i] = S(e[i] - 1);
        }
        sort_distinct(keys);
        return keys;
    }
    const S top = S(~S(0));
    streams.push_back({patterns.data(), 1, n, false});
    if (wraps) streams.push_back({&top, 1, 1, false});
    std::vector<S> keys;
    keys.reserve(3 * n);
    for (;;) {
        stream* low = nullptr;
        for (stream& s : streams)
            if (!s.empty() && (!low || s.head() < low->head())) low = &s;
        if (!low) break;
        const S k = low->head();
        if (keys.empty() || keys.back() != k) keys.push_back(k);
        low->pop();
    }
    return keys;
}

// Keys per chunk of a sampled sweep: many chunks, so every thread gets work. It is also the unit
// of the stop rule (a sweep stops at the end of the chunk where the limit is reached), which the
// GPU launcher shares.
inline constexpr std::uint64_t sampled_chunk = std::uint64_t(1) << 16;

// The sampled sweep: the CPU driver over sample_keys<M>, on every thread. A shard is a slice of
// the list. Checkpoints are for exhaustive sweeps only (this one takes a fraction of a second).
template <mapping M>
sweep_report sampled_sweep(const sweep_options& o, const sample_params& p = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename M::format::storage;
    if (o.part.count == 0 || o.part.index >= o.part.count) throw input_error("bad shard: index must be < count");
    if (!o.checkpoint.empty())
        throw input_error("--checkpoint is for exhaustive sweeps; the sampled " + std::string(M::format::name) +
                          " domain takes well under a second: run it again instead");
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<S> keys = sample_keys<M>(p);
    const key_range slice = o.part.of({0, keys.size()});
    sweep_report r = detail::sweep_keys<M>(o, list_keys<S>{keys.data() + slice.begin}, {0, slice.size()}, sampled_chunk, "sampled");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // the list included
    return r;
}

}  // namespace flipcheck
