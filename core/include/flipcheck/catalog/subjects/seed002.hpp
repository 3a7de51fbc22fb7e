// Seed 002's argmax ("Finding Maximum Value and Index with CUDA warp-reduction"), emulated on the
// CPU step for step: a fixed grid of `blocks` blocks of `block` threads; each thread walks the
// array with stride blocks*block keeping `v > local.value`; each warp reduces with shuffle-down
// (`otherValue > local.value`); warp leaders meet in shared memory and warp 0 reduces them; then
// one block runs FindMaxOfMax over the block results. The initial values are parameters because
// the article ships three: lowest() in the first kernel, FLT_MIN in its FindMaxOfMax, and
// -lowest() (= +FLT_MAX) in its "full code snippet". gpu/ runs the real kernels.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "flipcheck/format.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck::subjects {

struct argmax_result {
    float value;
    std::uint32_t index;
};

struct seed002_config {
    float first_init = std::numeric_limits<float>::lowest();  // ArgMaxKernel's FLT_LOWEST
    float final_init = std::numeric_limits<float>::min();     // FindMaxOfMax's FLT_MIN
    std::uint32_t init_index = 0;    // the fix uses ~0u: "no element yet", which any element beats
    bool lowest_index_ties = false;  // the fix: equal values prefer the lower index
    bool skip_nan = false;           // the fix: a NaN never replaces an element
    unsigned blocks = 132;           // grid = SM count (an H100 has 132)
    unsigned block = 1024;           // WARP_SIZE * WARP_SIZE
};

namespace detail {
inline bool better(const seed002_config& c, argmax_result x, argmax_result y) {
    if (c.lowest_index_ties && x.value == y.value) return x.index < y.index;
    return x.value > y.value;
}

// One warp's shuffle-down reduction over 32 lanes (lanes past `active` hold `pad`).
inline argmax_result warp_reduce(const seed002_config& c, std::vector<argmax_result> lanes) {
    for (unsigned offset = 16; offset > 0; offset /= 2)
        for (unsigned lane = 0; lane + offset < 32; ++lane)  // lanes read before any writes land
            if (better(c, lanes[lane + offset], lanes[lane])) lanes[lane] = lanes[lane + offset];
    return lanes[0];
}

// A block: per-thread values in, block result out (warp reduce, shared memory, warp 0 reduce).
inline argmax_result block_reduce(const seed002_config& c, const std::vector<argmax_result>& threads, float init) {
    const unsigned nw = unsigned((threads.size() + 31) / 32);
    std::vector<argmax_result> leaders;
    for (unsigned w = 0; w < nw; ++w) {
        std::vector<argmax_result> lanes(32, argmax_result{init, c.init_index});
        for (unsigned l = 0; l < 32 && w * 32 + l < threads.size(); ++l) lanes[l] = threads[w * 32 + l];
        leaders.push_back(warp_reduce(c, lanes));
    }
    std::vector<argmax_result> lanes(32, argmax_result{init, c.init_index});
    for (unsigned l = 0; l < 32 && l < nw; ++l) lanes[l] = leaders[l];
    return warp_reduce(c, lanes);
}
}  // namespace detail

inline argmax_result seed002_argmax(const seed002_config& c, const std::vector<float>& xs) {
    const std::uint64_t stride = std::uint64_t(c.blocks) * c.block;
    std::vector<argmax_result> block_results;
    for (unsigned b = 0; b < c.blocks; ++b) {
        std::vector<argmax_result> threads(c.block, argmax_result{c.first_init, c.init_index});
        for (unsigned t = 0; t < c.block; ++t) {
            argmax_result& local = threads[t];
            for (std::uint64_t i = std::uint64_t(b) * c.block + t; i < xs.size(); i += stride) {
                const argmax_result cand{xs[i], std::uint32_t(i)};
                if (c.skip_nan && cand.value != cand.value) continue;
                if (detail::better(c, cand, local)) local = cand;
            }
        }
        block_results.push_back(detail::block_reduce(c, threads, c.first_init));
    }
    // FindMaxOfMax: one block of blockSizeReduction threads strides over the block results.
    const unsigned threads_final = std::min(c.block, ((c.blocks + 31) / 32) * 32);
    std::vector<argmax_result> threads(threads_final, argmax_result{c.final_init, c.init_index});
    for (unsigned t = 0; t < threads_final; ++t)
        for (unsigned i = t; i < block_results.size(); i += threads_final)
            if (detail::better(c, block_results[i], threads[t])) threads[t] = block_results[i];
    return detail::block_reduce(c, threads, c.final_init);
}

// The article's three versions as whole-array reducers (registry.hpp's array reducer shape). Each
// claims what the article claims: argmax with the first index on ties; NaN and the zeros' order
// are never considered.
enum class seed002_version : std::uint8_t { full_code, walkthrough, ties_only };
template <seed002_version V>
struct seed002_reducer {
    using format = binary32;
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared{nan_policy::undefined, zero_policy::equal, tie_policy::lowest_index};
    static constexpr std::size_t large_input = std::size_t(132) * 1024;  // one element per thread of the grid
    static seed002_config config() {
        seed002_config c;  // the walkthrough: lowest() in ArgMaxKernel, FLT_MIN in FindMaxOfMax
        if (V == seed002_version::full_code) c.first_init = c.final_init = -std::numeric_limits<float>::lowest();
        if (V == seed002_version::ties_only) c.final_init = std::numeric_limits<float>::lowest();  // both fixed but ties
        return c;
    }
    static std::optional<std::size_t> arg_reduce(std::span<const std::uint32_t> xs) {
        std::vector<float> v;
        for (auto x : xs) v.push_back(bit_cast<float>(x));
        return std::size_t(seed002_argmax(config(), v).index);
    }
};

}  // namespace flipcheck::subjects
