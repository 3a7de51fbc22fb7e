// The CPU sweep driver: every mapping law over every key of a range, split into chunks that all
// hardware threads pull in ascending order. Host only.
//
// The hot loop evaluates all laws branch-free over batches of keys and only ORs the failure
// masks, which the compiler vectorizes; a batch with any failure is rescanned key by key to
// count and explain. Because chunks are claimed in ascending order and every claimed chunk is
// finished, stopping after K counterexamples still yields the K smallest keys of the range.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "flipcheck/checkpoint.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/report.hpp"

namespace flipcheck {

struct sweep_progress {
    std::uint64_t keys_done, keys_total;
    double seconds;
};

struct sweep_options {
    law_set laws = all_mapping_laws;
    std::optional<key_range> range;  // default: every key of the format
    shard part{};
    std::size_t limit = 16;          // keep this many counterexamples (the smallest keys) and stop...
    bool all = false;                // ...unless all is set: then run to the end, counting every failure
    unsigned threads = 0;            // 0: every hardware thread
    std::filesystem::path checkpoint;  // empty: none
    double checkpoint_every = 1.0;     // seconds between checkpoint saves
    std::function<void(const sweep_progress&)> progress;  // called from the calling thread
    const std::atomic<bool>* stop = nullptr;  // set (from a signal handler) to interrupt
};

template <format F>
constexpr key_range full_range() noexcept {
    return {0, F::width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << F::width)};
}

// Over keys [base, base + n): with Quick, whether mapping_laws::quick_ok rejects any key (a sound
// filter: it passes only keys where every law holds); else the exact failures, masked to `laws`.
// Kept out of line so each is one loop to vectorize, and built for AVX2 and AVX-512 with runtime
// dispatch.
template <mapping M, bool Quick>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
[[gnu::target_clones("default", "avx2", "arch=x86-64-v4")]]
#endif
[[gnu::noinline]] law_set any_failure(typename M::format::storage base, std::uint32_t n, law_set laws) noexcept {
    using S = typename M::format::storage;
    law_set acc = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const S k = S(base + S(i));
        if constexpr (Quick) acc |= law_set(!mapping_laws<M>::quick_ok(k));
        else acc |= mapping_laws<M>::failures(k);
    }
    return Quick ? (acc ? laws : 0) : acc & laws;
}

// What one stretch of keys found.
struct range_findings {
    std::uint64_t failing_keys = 0;
    std::array<std::uint64_t, mapping_law_count> failures_by_law{};
    std::vector<counterexample> counterexamples;

    void add(const range_findings& o) {
        failing_keys += o.failing_keys;
        for (int l = 0; l < mapping_law_count; ++l) failures_by_law[l] += o.failures_by_law[l];
        counterexamples.insert(counterexamples.end(), o.counterexamples.begin(), o.counterexamples.end());
    }
};

// Check one key exactly: count its failures and explain up to `limit` of them.
template <mapping M>
void check_key(typename M::format::storage k, law_set laws, std::size_t limit, range_findings& out) {
    const law_set f = mapping_laws<M>::failures(k) & laws;
    if (!f) return;
    ++out.failing_keys;
    for (int l = 0; l < mapping_law_count; ++l) {
        if (!(f & (law_set(1) << l))) continue;
        ++out.failures_by_law[l];
        if (out.counterexamples.size() < limit) out.counterexamples.push_back(mapping_laws<M>::explain(law_id(l), k));
    }
}

// Check every key of [begin, end): the building block of every CPU sweep.
template <mapping M>
range_findings check_range(std::uint64_t begin, std::uint64_t end, law_set laws, std::size_t limit) {
    using S = typename M::format::storage;
    constexpr std::uint64_t batch = 4096;
    range_findings out;
    for (std::uint64_t b = begin; b < end; b += batch) {
        const std::uint64_t n = std::min(batch, end - b);
        // Three tiers: quick filter, exact vector check, then key by key only where something failed.
        // The filter does not cover the format's last key, so its batch skips straight to exact.
        const bool has_last = b + n - 1 == std::uint64_t(mapping_laws<M>::last);
        if (!has_last && !any_failure<M, true>(S(b), std::uint32_t(n), laws)) continue;
        if (!any_failure<M, false>(S(b), std::uint32_t(n), laws)) continue;
        for (std::uint64_t i = 0; i < n; ++i) check_key<M>(S(b + i), laws, limit, out);
    }
    return out;
}

namespace detail {
inline std::uint64_t chunk_size_for(key_range r) {
    // Big enough to amortise scheduling, small enough for fine checkpoints; at most 2^16 chunks.
    const std::uint64_t min_chunk = std::uint64_t(1) << 22;
    return std::max(min_chunk, r.size() / 65536 + 1);
}
}  // namespace detail

template <mapping M>
sweep_report sweep(const sweep_options& o) {
    using F = typename M::format;
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    if (o.part.count == 0 || o.part.index >= o.part.count) throw input_error("bad shard: index must be < count");
    const key_range whole = o.range.value_or(full_range<F>());
    if (whole.end < whole.begin || whole.end - 1 > std::uint64_t(F::all_ones))
        throw input_error("key range is outside the key space of " + std::string(F::name));
    const key_range r = o.part.of(whole);
    const std::size_t limit = o.limit;

    checkpoint state;
    state.format = F::name;
    state.mapping = M::name;
    state.laws = o.laws;
    state.range = r;
    state.chunk = detail::chunk_size_for(r);
    state.done.assign((r.size() + state.chunk - 1) / state.chunk, false);
    if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
        checkpoint saved = checkpoint::load(o.checkpoint);
        if (!saved.same_sweep(state))
            throw input_error("checkpoint " + o.checkpoint.string() + " belongs to another sweep (" + saved.format +
                              " " + saved.mapping + " keys [" + std::to_string(saved.range.begin) + ", " +
                              std::to_string(saved.range.end) + ")); remove it or choose another file");
        state = std::move(saved);
    }
    auto keys_in = [&](std::size_t c) {
        const std::uint64_t b = r.begin + c * state.chunk;
        return std::min(state.chunk, r.end - b);
    };
    std::uint64_t resumed = 0;
    for (std::size_t c = 0; c < state.done.size(); ++c) resumed += state.done[c] ? keys_in(c) : 0;

    std::mutex mu;  // guards state
    std::condition_variable chunk_done;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> enough{!o.all && state.counterexamples.size() >= limit};
    std::atomic<std::uint64_t> keys_done{resumed};
    auto stopping = [&] { return enough.load() || (o.stop && o.stop->load()); };
    auto worker = [&] {
        while (!stopping()) {
            const std::size_t c = next.fetch_add(1);
            if (c >= state.done.size()) return;
            {
                std::lock_guard g(mu);
                if (state.done[c]) continue;
            }
            const std::uint64_t b = r.begin + c * state.chunk;
            range_findings f = check_range<M>(b, b + keys_in(c), o.laws, limit);
            std::lock_guard g(mu);
            state.done[c] = true;
            state.failing_keys += f.failing_keys;
            for (int l = 0; l < mapping_law_count; ++l) state.failures_by_law[l] += f.failures_by_law[l];
            state.counterexamples.insert(state.counterexamples.end(), f.counterexamples.begin(), f.counterexamples.end());
            keys_done += keys_in(c);
            if (state.counterexamples.size() > 4 * limit) {  // keep memory bounded under --all
                sort_counterexamples(state.counterexamples);
                state.counterexamples.resize(limit);
            }
            if (!o.all && state.counterexamples.size() >= limit) enough = true;
            chunk_done.notify_all();
        }
    };
    const unsigned n = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::jthread> pool;
    for (unsigned i = 0; i < n; ++i) pool.emplace_back([&] {
        worker();
        std::lock_guard g(mu);
        chunk_done.notify_all();  // wakes the coordinator when workers run out of chunks
    });

    auto save = [&] {
        if (o.checkpoint.empty()) return;
        std::lock_guard g(mu);
        state.save(o.checkpoint);
    };
    auto last_save = clock::now();
    auto all_done = [&] { return keys_done.load() == r.size(); };
    while (!all_done() && !stopping()) {
        {
            std::unique_lock lock(mu);
            chunk_done.wait_for(lock, std::chrono::duration<double>(std::min(0.05, o.checkpoint_every)));
        }
        if (o.progress) o.progress({keys_done.load(), r.size(), std::chrono::duration<double>(clock::now() - t0).count()});
        if (std::chrono::duration<double>(clock::now() - last_save).count() >= o.checkpoint_every) {
            save();
            last_save = clock::now();
        }
    }
    pool.clear();  // joins: every claimed chunk is finished
    save();

    sweep_report rep;
    rep.format = F::name;
    rep.mapping = M::name;
    rep.laws = o.laws;
    rep.range = r;
    rep.keys_checked = keys_done.load();
    rep.keys_resumed = resumed;
    rep.failing_keys = state.failing_keys;
    rep.failures_by_law = state.failures_by_law;
    rep.counterexamples = state.counterexamples;
    sort_counterexamples(rep.counterexamples);
    if (rep.counterexamples.size() > limit) rep.counterexamples.resize(limit);
    rep.interrupted = o.stop && o.stop->load() && rep.keys_checked < r.size();
    rep.stopped_early = !rep.interrupted && rep.keys_checked < r.size();
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (o.progress) o.progress({rep.keys_checked, r.size(), rep.seconds});
    return rep;
}

// binary64 cannot be swept whole. The structured sweep takes every sign and exponent crossed
// with edge mantissas (0, 1, 2, half, max-2..max) plus `randoms` random mantissas, and checks the
// laws at each pattern read as a key, at its key, and at the key just below (so the successor
// law covers the step into it).
template <format F>
std::vector<typename F::storage> structured_patterns(std::uint64_t seed, unsigned randoms) {
    using S = typename F::storage;
    std::vector<S> out;
    std::mt19937_64 rng(seed);
    const S man = F::mantissa_mask;
    const S edges[] = {0, 1, 2, S(man / 2), S(man / 2 + 1), S(man - 2), S(man - 1), man};
    for (S sign : {S(0), F::sign_mask})
        for (std::uint64_t e = 0; e <= (std::uint64_t(1) << F::exponent_bits) - 1; ++e) {
            const S base = S(sign | S(S(e) << F::mantissa_bits));
            for (S m : edges) out.push_back(S(base | m));
            for (unsigned i = 0; i < randoms; ++i) out.push_back(S(base | S(rng() & man)));
        }
    return out;
}

template <mapping M>
sweep_report structured_sweep(const sweep_options& o, std::uint64_t seed = 1, unsigned randoms = 1024) {
    using F = typename M::format;
    using S = typename F::storage;
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t limit = o.limit;
    std::vector<S> keys;
    for (S b : structured_patterns<F>(seed, randoms)) {
        const S k = M::encode(b);
        keys.insert(keys.end(), {b, k, S(k - 1)});
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const std::uint64_t slice = keys.size() / o.part.count;
    const std::uint64_t lo = slice * o.part.index, hi = o.part.index + 1 == o.part.count ? keys.size() : lo + slice;
    range_findings f;
    std::uint64_t checked = 0;
    for (std::uint64_t i = lo; i < hi && (o.all || f.counterexamples.size() < limit); ++i, ++checked) {
        if (o.stop && o.stop->load()) break;
        check_key<M>(keys[i], o.laws, limit, f);
    }
    sweep_report rep;
    rep.format = F::name;
    rep.mapping = M::name;
    rep.domain = "structured";
    rep.laws = o.laws;
    rep.range = {0, hi - lo};
    rep.keys_checked = checked;
    rep.failing_keys = f.failing_keys;
    rep.failures_by_law = f.failures_by_law;
    rep.counterexamples = std::move(f.counterexamples);
    rep.interrupted = o.stop && o.stop->load() && checked < hi - lo;
    rep.stopped_early = !rep.interrupted && checked < hi - lo;
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

}  // namespace flipcheck
