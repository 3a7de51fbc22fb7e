// The sweep kernels: core's mapping laws at every key of a sequence, on the device. Device side
// of the three layers (core's laws -> these kernels -> the launcher in gpu/sweep.cu).
//
// A sequence is indices [0, n), n <= 2^32 per launch, each read as a key by a key source; keys
// ascend with the index, so "the first failures" of a launch are those of its smallest indices.
//   sweep_kernel   the fast pass: per key only fast_filter, a cheap sound superset of every law;
//                  a key it flags is checked exactly (mapping_laws::failures), counted in registers
//                  and explained into a bounded buffer. Counts leave a thread once, at the end,
//                  through one warp reduction and one atomicAdd per warp and count.
//   census_kernel  only for launches whose failures overflowed that buffer: one warp per tile of
//                  tile_keys indices writes the tile's exact counts (failures() at every key), so
//                  the host can find the first failing keys and the stop point.
#pragma once
#include <cstdint>

#include "flipcheck/law.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/check/sampled.hpp"

namespace flipcheck::gpu::dev {

inline constexpr int block_threads = 256;
inline constexpr std::uint32_t tile_keys = 4096;

// One launch's totals (device memory, zeroed before the launch).
struct totals {
    unsigned long long failing_keys;
    unsigned long long by_law[mapping_law_count];
    unsigned int appended;  // counterexamples claimed in the hint buffer; may exceed its capacity
};

// Where failures are explained: entry j is a counterexample and the sequence index of its key.
// Threads race, so once it is full it holds arbitrary failures; the launcher only trusts it
// when every failure of the launch fit.
struct hint_buffer {
    counterexample* items;
    std::uint64_t* index;
    unsigned capacity;
};

struct tile_tally {
    std::uint32_t failing_keys;
    std::uint32_t by_law[mapping_law_count];
};

// ---- key sources: key(i) ascends with i; start(first, step) walks first, first + step, ... ----

// Keys begin + i. The cursor adds in the key's own width (32-bit math for binary32), and keys
// are visited in runs of `unroll` neighbours so that decode(k + 1) is computed once for k and k + 1.
template <class S>
struct range_keys {
    static constexpr int unroll = sizeof(S) == 8 ? 4 : 8;
    std::uint64_t begin;
    FLIPCHECK_HD S key(std::uint64_t i) const { return S(begin + i); }
    struct cursor {
        S k, step;
        FLIPCHECK_HD S at(int j) const { return S(k + S(j)); }
        FLIPCHECK_HD void next() { k = S(k + step); }
    };
    FLIPCHECK_HD cursor start(std::uint64_t first, std::uint64_t step) const { return {key(first), S(step)}; }
};

// An explicit ascending list (binary64's sampled keys, sampled.hpp).
template <class S>
struct list_keys {
    static constexpr int unroll = 1;
    const S* keys;
    FLIPCHECK_HD S key(std::uint64_t i) const { return keys[i]; }
    struct cursor {
        const S* p;
        std::uint64_t step;
        FLIPCHECK_HD S at(int j) const { return p[j]; }
        FLIPCHECK_HD void next() { p += step; }
    };
    FLIPCHECK_HD cursor start(std::uint64_t first, std::uint64_t step) const { return {keys + first, step}; }
};

// Stratified random runs of 64-bit keys: the key space cut into 2^(64 - shift) equal strata, and
// in each a run of `unroll` neighbouring keys from a uniform, run-aligned offset; key(i) lies in
// stratum (first + i) / unroll, so the keys ascend and cover the space evenly. Runs rather than one
// key a stratum because neighbours share work: the successor law's decode(k + 1) is the next key's
// decode(k), and a run needs one hash. Measured on an H200, 2^34 keys of the four binary64
// built-ins: 44.7, 38.2, 29.0 and 38.2 ms in runs of 4 against 77.5, 63.5, 58.4 and 63.5 ms one
// key a stratum (runs of 8 gained little more; bench/RESULTS.md, issue 58). `first` is a multiple
// of `unroll`, as the kernel's groups are (the launcher cuts shards and launches in whole runs).
struct stratified_keys {
    static constexpr int unroll = 4;
    std::uint64_t seed, first;
    int shift;  // log2 of the stratum width, 3..63
    FLIPCHECK_HD static std::uint64_t run_start(std::uint64_t seed, int shift, std::uint64_t s) {
        const std::uint64_t offset = mix64(seed + 0x9e3779b97f4a7c15ull * (s + 1)) >> (64 - shift);
        return (s << shift) | (offset & ~std::uint64_t(unroll - 1));
    }
    FLIPCHECK_HD std::uint64_t key(std::uint64_t i) const {
        return run_start(seed, shift, (first + i) / unroll) + (first + i) % unroll;
    }
    struct cursor {
        std::uint64_t seed, s, step, base;  // the stratum, the strata a step, its run's first key
        int shift;
        FLIPCHECK_HD std::uint64_t at(int j) const { return base + std::uint64_t(j); }
        FLIPCHECK_HD void next() {
            s += step;
            base = run_start(seed, shift, s);
        }
    };
    FLIPCHECK_HD cursor start(std::uint64_t i, std::uint64_t step) const {
        const std::uint64_t s = (first + i) / unroll;
        return {seed, s, step / unroll, run_start(seed, shift, s), shift};
    }
};

// ---- the filter --------------------------------------------------------------------------------

// The filter is core's mapping_laws::quick_ok, the same one the CPU sweep uses (its comment
// proves that it never passes a failing key). Measured on an H100: 10.4 ms with the full laws per
// key, 5.0 ms through the filter, for key_mapping<binary32> over 2^32 keys. It rejects the format's
// last key, which the launcher checks exactly.
template <class M>
struct fast_filter {
    FLIPCHECK_HD static bool ok(typename M::format::storage k) noexcept { return mapping_laws<M>::quick_ok(k); }
};

// ---- the fast pass ---------------------------------------------------------------------------

// What one thread found. Everything here runs only for keys that fail: for a correct mapping the
// hot loop never enters it.
template <class M>
struct thread_tally {
    using S = typename M::format::storage;
    std::uint32_t failing_keys = 0;
    std::uint32_t by_law[mapping_law_count] = {};
    bool buffer_full = false;  // seen full once: stop reading its counter

    __device__ void check(S k, std::uint64_t index, law_set laws, totals* t, hint_buffer h) {
        const law_set f = mapping_laws<M>::failures(k) & laws;
        if (!f) return;  // the filter over-reported (NaN keys, for instance)
        ++failing_keys;
#pragma unroll
        for (int l = 0; l < mapping_law_count; ++l) by_law[l] += (f >> l) & 1u;
        if (buffer_full) return;
        if (*static_cast<volatile unsigned*>(&t->appended) >= h.capacity) {
            buffer_full = true;
            return;
        }
        unsigned at = atomicAdd(&t->appended, unsigned(__popc(f)));
        for (int l = 0; l < mapping_law_count; ++l) {
            if (!(f & (law_set(1) << l))) continue;
            if (at < h.capacity) {
                h.items[at] = mapping_laws<M>::explain(law_id(l), k);
                h.index[at] = index;
            }
            ++at;
        }
        buffer_full = at >= h.capacity;
    }

    // Every lane of the warp must call this (it is outside all data-dependent branches).
    __device__ void flush(totals* t) const {
        constexpr unsigned all = 0xffffffffu;
        if (!__reduce_or_sync(all, failing_keys)) return;  // the common case: one vote, no atomics
        const bool leader = (threadIdx.x & 31u) == 0;
        const unsigned keys = __reduce_add_sync(all, failing_keys);
        if (leader) atomicAdd(&t->failing_keys, (unsigned long long)keys);
#pragma unroll
        for (int l = 0; l < mapping_law_count; ++l) {
            const unsigned n = __reduce_add_sync(all, by_law[l]);
            if (leader && n) atomicAdd(&t->by_law[l], (unsigned long long)n);
        }
    }
};

// Indices [0, n), n <= 2^32: [0, n_fast) through the filter, in groups of Src::unroll neighbours
// by a grid-stride loop; the rest (the last n_fast % unroll, and the format's last key, which the
// launcher keeps out of [0, n_fast)) exactly, one per thread. The only 64-bit arithmetic is the
// per-thread iteration count; the loop counts in 32 bits and the range cursor steps in the key's
// width. No atomics and no memory traffic unless a key is flagged.
template <class M, class Src>
__global__ void __launch_bounds__(block_threads) sweep_kernel(Src src, std::uint64_t n, std::uint64_t n_fast,
                                                              law_set laws, totals* t, hint_buffer h) {
    constexpr int U = Src::unroll;
    const std::uint64_t groups = n_fast / U;
    const std::uint32_t stride = gridDim.x * blockDim.x;
    const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t iters = tid < groups ? std::uint32_t((groups - 1 - tid) / stride) + 1 : 0;
    thread_tally<M> tally;
    auto c = src.start(std::uint64_t(tid) * U, std::uint64_t(stride) * U);
    for (std::uint32_t it = 0; it < iters; ++it, c.next()) {
        bool ok = true;
#pragma unroll
        for (int j = 0; j < U; ++j) ok &= fast_filter<M>::ok(c.at(j));
        if (!ok) {
            const std::uint64_t first = (std::uint64_t(it) * stride + tid) * U;
#pragma unroll 1
            for (int j = 0; j < U; ++j) tally.check(c.at(j), first + j, laws, t, h);
        }
    }
    const std::uint64_t rest = groups * U;
    if (tid < n - rest) tally.check(src.key(rest + tid), rest + tid, laws, t, h);
    tally.flush(t);
}

// ---- the census -------------------------------------------------------------------------------

// Exact counts per tile of tile_keys indices, one warp per tile (grid-stride over tiles).
template <class M, class Src>
__global__ void __launch_bounds__(block_threads) census_kernel(Src src, std::uint64_t n, law_set laws,
                                                               tile_tally* tiles) {
    constexpr unsigned all = 0xffffffffu;
    const unsigned lane = threadIdx.x & 31u;
    const std::uint64_t warps = std::uint64_t(gridDim.x) * (blockDim.x / 32);
    const std::uint64_t n_tiles = (n + tile_keys - 1) / tile_keys;
    for (std::uint64_t w = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; w < n_tiles; w += warps) {
        const std::uint64_t b = w * tile_keys;
        const std::uint32_t len = std::uint32_t(n - b < tile_keys ? n - b : tile_keys);
        std::uint32_t keys = 0, by_law[mapping_law_count] = {};
        for (std::uint32_t i = lane; i < len; i += 32) {
            const law_set f = mapping_laws<M>::failures(src.key(b + i)) & laws;
            keys += f != 0;
#pragma unroll
            for (int l = 0; l < mapping_law_count; ++l) by_law[l] += (f >> l) & 1u;
        }
        tile_tally out;
        out.failing_keys = __reduce_add_sync(all, keys);
#pragma unroll
        for (int l = 0; l < mapping_law_count; ++l) out.by_law[l] = __reduce_add_sync(all, by_law[l]);
        if (lane == 0) tiles[w] = out;
    }
}

// ---- the sampled domain's key list (core/include/flipcheck/check/sampled.hpp) ------------------------

// Every pattern of the sample (sample_pattern, repeats included), its key and the key just below,
// unsorted; the launcher sorts them and drops repeats with CUB, which gives sample_keys' list.
template <class M>
__global__ void expand_sample(sample_params p, std::uint64_t n, typename M::format::storage* keys) {
    using S = typename M::format::storage;
    const std::uint64_t size = sample_block_size(p);
    for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * blockDim.x) {
        const S b = sample_pattern<typename M::format>(p, i / size, i % size), k = M::encode(b);
        keys[i] = b;
        keys[n + i] = k;
        keys[2 * n + i] = S(k - 1);
    }
}

}  // namespace flipcheck::gpu::dev
