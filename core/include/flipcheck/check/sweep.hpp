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
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/checkpoint.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/check/report.hpp"

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
    // Stop at the end of the chunk in which the first failure is found (keeping up to `limit`
    // counterexamples, the smallest keys of the chunks done) instead of waiting for `limit` of
    // them: a wrong mapping is reported as soon as one is known. The plug-in checks default to it.
    bool first_failing_chunk = false;
    unsigned threads = 0;            // 0: every hardware thread
    std::filesystem::path checkpoint;  // empty: none
    // The identity of the code that checks the keys (the flipcheck command: its executable's
    // digest), written into the checkpoint: a checkpoint of another build is refused, since its
    // keys were checked by other code. Empty: not recorded, not compared.
    std::string build;
    double checkpoint_every = 1.0;     // seconds between checkpoint saves
    std::function<void(const sweep_progress&)> progress;  // called from the calling thread
    const std::atomic<bool>* stop = nullptr;  // set (from a signal handler) to interrupt
};

template <format F>
constexpr key_range full_range() noexcept {
    // `& 63`: the shift is not taken for 64 bits, but clang's -Wall warns about its count anyway.
    return {0, F::width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << (F::width & 63))};
}

// The keys a sweep of o covers (o.range, or every key, cut by o.part), on either backend. An empty
// or out-of-format range, or a shard that holds no key, is bad input: nothing checked is no pass.
template <format F>
key_range keys_to_sweep(const sweep_options& o) {
    if (o.part.count == 0 || o.part.index >= o.part.count) throw input_error("bad shard: index must be < count");
    const key_range whole = o.range.value_or(full_range<F>());
    if (whole.size() == 0 || whole.last() < whole.begin || whole.last() > std::uint64_t(F::all_ones))
        throw input_error("key range [" + std::to_string(whole.begin) + ", " + std::to_string(whole.end) +
                          ") is empty or outside the key space of " + std::string(F::name));
    const key_range r = o.part.of(whole);
    if (r.size() == 0)
        throw input_error("shard " + std::to_string(o.part.index) + "/" + std::to_string(o.part.count) + " of " +
                          std::to_string(whole.size()) + " keys holds no key: use fewer shards");
    return r;
}

// A part of the key space is a range, reported with its coverage: only every key is "exhaustive".
template <format F>
const char* domain_of(key_range r) noexcept {
    return r == full_range<F>() ? "exhaustive" : "range";
}

// Where a sweep's keys come from: key i of a contiguous range, or entry i of an explicit
// ascending list (the sampled domain). Both are plain values so the hot loops stay vectorizable.
template <class S>
struct range_keys {
    S base;
    S operator[](std::uint64_t i) const noexcept { return S(base + S(i)); }
};
template <class S>
struct list_keys {
    const S* keys;
    S operator[](std::uint64_t i) const noexcept { return keys[i]; }
};

// Over keys[first, first + n): with Quick, whether mapping_laws::quick_ok rejects any key (a sound
// filter: it passes only keys where every law holds); else the exact failures, masked to `laws`.
// The filter does not cover the format's last key: a list's batch counts it as rejected here,
// and check_keys sends a range's batch that holds it straight to the exact check. Kept out of
// line so that its loops vectorize, and built for AVX2 and AVX-512 with runtime dispatch.
//
// The mapping's calls per key (mapping_laws::evaluated) are split: decode(k) (and so decode(k+1))
// and encode(k) are made first, each in a loop of its own into a small array, and one loop then
// makes encode(decode(k)) and decode(encode(k)) and the laws. In one loop over quick_ok(k) holding
// all four calls, a user's mapping with an `if` (a branch, an early return, a special-cased key)
// let GCC specialise decode(k+1) per branch and sink the laws' float compare under a condition,
// where -ftrapping-math forbids if-converting it: the loop stayed scalar, ~10x slower. With the
// compare's operands loaded from the arrays it stays unconditional, and what is left under the
// mapping's conditions is integer code, which if-converts. Two arrays cost about what two loads
// save; staging all four calls measured slower for the built-ins. `block` keys at a time, in L1.
// A mapping that declares `static constexpr bool fused_filter = true` keeps the single loop over
// quick_ok(k): the built-ins do, where it was measured to vectorize and to be faster.
template <mapping M, bool Quick, class Keys>
// Clones for AVX2 and AVX-512 only where the code is built for the baseline ISA: a clone inlines
// the mapping only if its ISA contains the mapping's, so under the user's -march=native (GCC 12:
// znver3 plus AVX-512 on this project's machines) the mapping stayed a call per key in the clone
// the CPU picked, 12x slower (bench/RESULTS.md). Built for AVX2 or more, the loop is the user's ISA.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && !defined(__AVX2__)
[[gnu::target_clones("default", "avx2", "arch=x86-64-v4")]]
#endif
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
// This loop is compiled in the user's test with the user's flags: at GCC's -O2 (no -O3 cost model
// for the vectorizer) a 2^32 sweep took 11.3 s instead of 1.0 s (bench/RESULTS.md). GCC calls the
// optimize attribute a debugging aid; it is kept to this one function, where it was measured to
// give -O3's speed at -O2 with the mapping still inlined. Clang vectorizes at -O2 already.
[[gnu::optimize("O3")]]
#endif
[[gnu::noinline]] law_set any_failure(Keys keys, std::uint64_t first, std::uint32_t n, law_set laws) noexcept {
    using S = typename M::format::storage;
    using L = mapping_laws<M>;
    constexpr bool list = !std::is_same_v<Keys, range_keys<S>>;
    constexpr std::uint32_t block = 1024;
    law_set acc = 0;
    if constexpr (requires { requires M::fused_filter; }) {
        // One loop over all four calls: for the built-ins GCC vectorizes it and folds one call
        // into the next (sign_flip measured ~35% slower staged).
        for (std::uint32_t i = 0; i < n; ++i) {
            const S k = keys[first + i];
            if constexpr (Quick && list) acc |= law_set(!L::quick_ok(k) | (k == L::last));
            else if constexpr (Quick) acc |= law_set(!L::quick_ok(k));
            else acc |= L::failures(k);
        }
        return Quick ? (acc ? laws : 0) : acc & laws;
    }
    // d holds decode(k) and, for a range, decode(k+1) too: the next key is the successor (S wraps
    // as k+1 does). A list's keys are not consecutive: its successors get their own array.
    S d[block + 1], d1[list ? block : 1], e[block];
    const typename L::number_keys r = L::number_key_range();
    for (std::uint32_t j = 0; j < n; j += block) {
        const std::uint32_t m = std::min(block, n - j);
        const std::uint64_t b = first + j;
        if constexpr (list) {
            for (std::uint32_t i = 0; i < m; ++i) d[i] = M::decode(keys[b + i]);
            for (std::uint32_t i = 0; i < m; ++i) d1[i] = M::decode(S(keys[b + i] + 1));
        } else {
            for (std::uint32_t i = 0; i <= m; ++i) d[i] = M::decode(keys[b + i]);
        }
        for (std::uint32_t i = 0; i < m; ++i) e[i] = M::encode(keys[b + i]);
        for (std::uint32_t i = 0; i < m; ++i) {
            const S k = keys[b + i];
            const typename L::evaluated v{k, d[i], list ? d1[list ? i : 0] : d[i + 1], M::encode(d[i]), e[i], M::decode(e[i])};
            if constexpr (Quick && list) acc |= law_set(!L::quick_ok(v, r) | (k == L::last));
            else if constexpr (Quick) acc |= law_set(!L::quick_ok(v, r));
            else acc |= L::failures(v);
        }
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

// Check keys[begin, end): the building block of every CPU sweep. Three tiers: the quick filter,
// the exact vector check, then key by key only in a batch where something failed.
template <mapping M, class Keys>
range_findings check_keys(Keys keys, std::uint64_t begin, std::uint64_t end, law_set laws, std::size_t limit) {
    using S = typename M::format::storage;
    constexpr std::uint64_t batch = 4096;
    range_findings out;
    // Counted by offset, not by `b < end`: a range that ends at the top of a 64-bit key space
    // (end 0, see key_range) would wrap b past 2^64 and never stop.
    const std::uint64_t total = end - begin;
    for (std::uint64_t done = 0, n = 0; done < total; done += n) {
        const std::uint64_t b = begin + done;
        n = std::min(batch, total - done);
        const bool range_holds_last = std::is_same_v<Keys, range_keys<S>> && keys[b + n - 1] == mapping_laws<M>::last;
        if (!range_holds_last && !any_failure<M, true>(keys, b, n, laws)) continue;
        if (!any_failure<M, false>(keys, b, n, laws)) continue;
        for (std::uint32_t i = 0; i < n; ++i) check_key<M>(keys[b + i], laws, limit, out);
    }
    return out;
}

// Every key of [begin, end).
template <mapping M>
range_findings check_range(std::uint64_t begin, std::uint64_t end, law_set laws, std::size_t limit) {
    using S = typename M::format::storage;
    return check_keys<M>(range_keys<S>{S(0)}, begin, end, laws, limit);
}

namespace detail {
inline std::uint64_t chunk_size_for(key_range r) {
    // Big enough to amortise scheduling, small enough for fine checkpoints; at most 2^16 chunks.
    const std::uint64_t min_chunk = std::uint64_t(1) << 22;
    return std::max(min_chunk, r.size() / 65536 + 1);
}

// The driver behind every CPU sweep: keys[i] for i in r, in chunks of `chunk` indices that all
// threads pull in ascending order; checkpoints, progress, the stop flag and the limit.
template <mapping M, class Keys>
sweep_report sweep_keys(const sweep_options& o, Keys keys, key_range r, std::uint64_t chunk, const char* domain) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using F = typename M::format;
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const std::size_t limit = o.limit;

    checkpoint state;
    state.format = F::name;
    state.mapping = M::name;
    state.build = o.build;
    state.laws = o.laws;
    state.range = r;
    state.chunk = chunk;
    state.done.assign((r.size() + state.chunk - 1) / state.chunk, false);
    const checkpoint_lock lock(o.checkpoint);
    if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
        checkpoint saved = checkpoint::load(o.checkpoint);
        if (!saved.same_sweep(state))
            throw input_error("checkpoint " + o.checkpoint.string() + " belongs to another sweep (" + saved.format +
                              " " + saved.mapping + " keys [" + std::to_string(saved.range.begin) + ", " +
                              std::to_string(saved.range.end) + ")); remove it or choose another file");
        if (saved.build != o.build)
            throw input_error("checkpoint " + o.checkpoint.string() + " was written by another build of flipcheck (" +
                              (saved.build.empty() ? std::string("none named") : saved.build.substr(0, 16)) + ", this one is " +
                              o.build.substr(0, 16) + "): its keys were checked by other code; remove it to sweep afresh");
        // Its failures are carried forward, never taken on trust: each counterexample must break
        // its law here too, or the file was edited (a checksum is no signature) or comes from
        // another build of the mapping.
        for (const auto& c : saved.counterexamples)
            if (!(mapping_laws<M>::failures(typename F::storage(c.key)) & law_bit(c.law)))
                throw input_error("checkpoint " + o.checkpoint.string() + " says key " + std::to_string(c.key) + " breaks " +
                                  std::string(law_names[std::size_t(c.law)]) +
                                  ", and it does not: the file was edited or comes from another build; remove it to sweep afresh");
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
    // Enough found: `limit` counterexamples, or with first_failing_chunk any failure at all.
    auto found_enough = [&] {
        return !o.all && (state.counterexamples.size() >= limit || (o.first_failing_chunk && state.failing_keys > 0));
    };
    std::atomic<bool> enough{found_enough()};
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
            range_findings f = check_keys<M>(keys, b, b + keys_in(c), o.laws, limit);
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
            if (found_enough()) enough = true;
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
    rep.domain = domain;
    rep.key_bits = F::width;
    if constexpr (F::unused_mask != 0) rep.unused_bits = std::string(to_string(unused_bits_handling<M>()));
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
}  // namespace detail

// Every key of the format (or of o.range), exhaustively.
template <mapping M>
sweep_report sweep(const sweep_options& o) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using F = typename M::format;
    using S = typename F::storage;
    const key_range r = keys_to_sweep<F>(o);
    return detail::sweep_keys<M>(o, range_keys<S>{S(0)}, r, detail::chunk_size_for(r), domain_of<F>(r));
}

}  // namespace flipcheck
