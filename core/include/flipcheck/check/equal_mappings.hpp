// Two mappings of one format that agree on every key, encode on every pattern and decode on every
// key, break the same laws at the same keys (every law is a function of encode and decode), so one
// exhaustive sweep of either proves both. Checking that they agree costs four calls per key and no
// law, well under a sweep (bench/RESULTS.md): the main job proves a format's later built-ins this
// way against the first one it swept, and sweeps any that differ.
//
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <thread>
#include <vector>

#include "flipcheck/mapping.hpp"

namespace flipcheck {

// The OR of every difference between A's and B's encode and decode over the keys [first,
// first + n): zero where they agree. Kept out of line and built for AVX2 and AVX-512 with runtime
// dispatch where the build is for the baseline ISA, as sweep.hpp's loop. (Both mappings in one
// loop: comparing type-erased tables of each, block by block, measured 3x slower.)
template <mapping A, mapping B>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && !defined(__AVX2__)
[[gnu::target_clones("default", "avx2", "arch=x86-64-v4")]]
#endif
[[gnu::noinline]] typename A::format::storage disagreement(std::uint64_t first, std::uint64_t n) noexcept {
    using S = typename A::format::storage;
    S acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const S k = S(first + i);
        acc |= S(A::encode(k) ^ B::encode(k)) | S(A::decode(k) ^ B::decode(k));
    }
    return acc;
}

// Whether A and B (one format of at most 32 bits) agree on every key, on `threads` threads (0:
// every hardware thread); nothing when *stop was set before the end.
template <mapping A, mapping B>
    requires(std::is_same_v<typename A::format, typename B::format> && A::format::width <= 32)
std::optional<bool> agree_everywhere(unsigned threads = 0, const std::atomic<bool>* stop = nullptr) {
    constexpr std::uint64_t keys = std::uint64_t(1) << A::format::width, chunk = std::uint64_t(1) << 22;
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> differ{false}, stopped{false};
    auto work = [&] {
        for (std::uint64_t c; (c = next.fetch_add(chunk)) < keys && !differ.load(std::memory_order_relaxed);) {
            if (stop && stop->load(std::memory_order_relaxed)) return stopped.store(true);
            if (disagreement<A, B>(c, std::min(chunk, keys - c))) return differ.store(true);
        }
    };
    const unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < n; ++i) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (differ) return false;
    if (stopped) return std::nullopt;
    return true;
}

}  // namespace flipcheck
