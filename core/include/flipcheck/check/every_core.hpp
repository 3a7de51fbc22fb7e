// A range of inputs cut into one contiguous chunk per hardware thread, each chunk judged on its own
// thread: how the exhaustive binary32 checks of quantizers, scales and canonical keys use every
// core. Results come back in chunk order, so "the first failure" is the first chunk's that has one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace flipcheck {

// chunk(begin, end) for consecutive [begin, end) covering [first, last), one per thread (fewer
// when the range is short; `threads` of them, 0: one per hardware thread); their results, in order.
template <class Chunk>
auto every_core_chunks(std::uint64_t first, std::uint64_t last, Chunk&& chunk, unsigned threads = 0) {
    using R = decltype(chunk(first, last));
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t n = last > first ? last - first : 0, per = std::max<std::uint64_t>(1, (n + threads - 1) / threads);
    std::vector<R> out;
    std::vector<std::uint64_t> begins;
    for (std::uint64_t b = first; b < last; b += per) begins.push_back(b);
    out.resize(begins.size());
    {
        std::vector<std::jthread> pool;
        for (std::size_t t = 0; t < begins.size(); ++t)
            pool.emplace_back([&, t] { out[t] = chunk(begins[t], std::min(last, begins[t] + per)); });
    }
    return out;
}

}  // namespace flipcheck
