// CPU reducer subjects built on a mapping: max/min and argmax/argmin computed the way GPU code
// computes them, by folding integer keys, so the reducer laws can judge the whole recipe (key
// choice per policy, identity, fold shape, packing of the index) against the oracle. Host only,
// except the small per-element helpers, which are FLIPCHECK_HD so device code can share them.
//
// The NaN policy decides what each element contributes (see policy.hpp):
//   total_order, undefined  its own key: integer order over the keys is totalOrder.
//   propagate               a NaN contributes the key of the canonical NaN that wins the fold
//                           (+qNaN for max, -qNaN for min): then any NaN input yields a NaN and all
//                           NaNs tie, whatever their sign and payload.
//   ignore                  a NaN contributes nothing. There is no key to start a fold with
//                           instead: the -inf key would turn an all-NaN max into -inf, but the
//                           policy demands a NaN, so each partial result carries "saw a number".
// zero_policy::equal folds -0 as +0 (so the zeros tie for arg reductions); under ordered the keys
// already put -0 below +0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "flipcheck/mapping.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/random.hpp"

namespace flipcheck {

namespace detail {
// The key and the index word of a binary64 arg reduction: two words compared in order, because
// a 64-bit key leaves no room for an index in one 64-bit integer.
struct key_slot {
    std::uint64_t key, slot;
    friend FLIPCHECK_HD constexpr bool operator<(key_slot a, key_slot b) noexcept {
        return a.key != b.key ? a.key < b.key : a.slot < b.slot;
    }
    friend constexpr bool operator==(key_slot, key_slot) = default;
};
}  // namespace detail

template <mapping M>
struct keyed_reducer {
    using F = typename M::format;
    using S = typename F::storage;
    // (key << 32 | slot) in one integer up to 32-bit formats, as a 64-bit atomic would hold it.
    using arg_word = std::conditional_t<(F::width <= 32), std::uint64_t, detail::key_slot>;

    // ---- per-element helpers ------------------------------------------------------------------
    FLIPCHECK_HD static constexpr bool contributes(policy p, S bits) noexcept {
        return !(p.nan == nan_policy::ignore && F::is_nan_bits(bits));
    }
    // A format with one NaN has no key to spare: where its NaN must sit depends on the policy.
    // Under propagate it must win (top for max, bottom for min); under ignore it must be what an
    // untouched atomic word decodes to, the identity key (bottom for max, top for min). So the
    // fold keys with M::with_nan_at<that end> where M offers it (format_key does); any other
    // mapping keys as it is, and on such a format the reducer laws say whether that is right.
    static constexpr bool moves_nan = F::nans == nan_encoding::single_pattern &&
                                      requires { typename M::template with_nan_at<nan_end::top>; };
    FLIPCHECK_HD static constexpr int nan_end_for(policy p, reduce_op op) noexcept {  // 0 keep, 1 top, 2 bottom
        if (!moves_nan || (p.nan != nan_policy::propagate && p.nan != nan_policy::ignore)) return 0;
        return (p.nan == nan_policy::propagate) == (op == reduce_op::max) ? 1 : 2;
    }
    FLIPCHECK_HD static constexpr S encode(policy p, reduce_op op, S bits) noexcept {
        if constexpr (moves_nan) {
            const int end = nan_end_for(p, op);
            if (end == 1) return M::template with_nan_at<nan_end::top>::encode(bits);
            if (end == 2) return M::template with_nan_at<nan_end::bottom>::encode(bits);
        }
        return M::encode(bits);
    }
    // The inverse of encode(p, op, .): the bits a folded key stands for.
    FLIPCHECK_HD static constexpr S decode(policy p, reduce_op op, S key) noexcept {
        if constexpr (moves_nan) {
            const int end = nan_end_for(p, op);
            if (end == 1) return M::template with_nan_at<nan_end::top>::decode(key);
            if (end == 2) return M::template with_nan_at<nan_end::bottom>::decode(key);
        }
        return M::decode(key);
    }
    // The key an element folds as (meaningful only where contributes()).
    FLIPCHECK_HD static constexpr S key(policy p, reduce_op op, S bits) noexcept {
        if (p.nan == nan_policy::propagate && F::is_nan_bits(bits))
            bits = op == reduce_op::max ? F::quiet_nan : S(F::quiet_nan | F::sign_mask);
        else if (F::has_negative_zero && p.zero == zero_policy::equal && bits == F::sign_mask)
            bits = F::zero;
        return encode(p, op, bits);
    }
    template <class W>
    FLIPCHECK_HD static constexpr W pick(reduce_op op, W a, W b) noexcept {
        return op == reduce_op::max ? (a < b ? b : a) : (b < a ? b : a);
    }
    // Max stores ~index so that the greatest word among equal keys is the lowest index; min stores
    // the index itself. highest_index mirrors both; ties = any gets the lowest.
    FLIPCHECK_HD static constexpr bool inverted(policy p, reduce_op op) noexcept {
        return (op == reduce_op::max) == (p.ties != tie_policy::highest_index);
    }
    FLIPCHECK_HD static constexpr arg_word pack(policy p, reduce_op op, S bits, std::uint64_t index) noexcept {
        const std::uint64_t slot = inverted(p, op) ? ~index : index;
        if constexpr (F::width <= 32)
            return std::uint64_t(key(p, op, bits)) << 32 | (slot & 0xffffffffu);
        else
            return {key(p, op, bits), slot};
    }
    FLIPCHECK_HD static constexpr std::uint64_t unpack_index(policy p, reduce_op op, arg_word w) noexcept {
        std::uint64_t slot;
        if constexpr (F::width <= 32) slot = w & 0xffffffffu;
        else slot = w.slot;
        slot = inverted(p, op) ? ~slot : slot;
        return F::width <= 32 ? (slot & 0xffffffffu) : slot;
    }

    // A partial result: the fold so far, or nothing seen yet. Merging is associative and
    // commutative, which is what lets every fold shape below give the same answer.
    template <class W>
    struct partial {
        W word{};
        bool seen = false;
    };
    template <class W>
    FLIPCHECK_HD static constexpr partial<W> merge(reduce_op op, partial<W> a, partial<W> b) noexcept {
        if (!a.seen) return b;
        if (!b.seen) return a;
        return {pick(op, a.word, b.word), true};
    }
    FLIPCHECK_HD static constexpr partial<S> lift(policy p, reduce_op op, S bits) noexcept {
        return contributes(p, bits) ? partial<S>{key(p, op, bits), true} : partial<S>{};
    }
    FLIPCHECK_HD static constexpr partial<arg_word> lift_arg(policy p, reduce_op op, S bits, std::uint64_t i) noexcept {
        return contributes(p, bits) ? partial<arg_word>{pack(p, op, bits, i), true} : partial<arg_word>{};
    }

    // ---- value reducers: the bits of the result, nothing for n = 0 ----------------------------
    static std::optional<S> finish(policy p, reduce_op op, partial<S> r, std::size_t n) {
        if (n == 0) return std::nullopt;
        if (!r.seen) return F::quiet_nan;  // every element was a NaN under ignore: any NaN will do
        return decode(p, op, r.word);
    }

    static std::optional<S> sequential(policy p, reduce_op op, std::span<const S> xs) {
        partial<S> r;
        for (S x : xs) r = merge(op, r, lift(p, op, x));
        return finish(p, op, r, xs.size());
    }

    // Recursive halves: the shape of a block-level tree reduction.
    static std::optional<S> pairwise_tree(policy p, reduce_op op, std::span<const S> xs) {
        return finish(p, op, tree(p, op, xs), xs.size());
    }

    // Fold in a random permutation order (Fisher-Yates driven by the seed).
    static std::optional<S> permuted(policy p, reduce_op op, std::span<const S> xs, std::uint64_t seed) {
        const std::vector<std::size_t> order = permutation(xs.size(), seed);
        partial<S> r;
        for (std::size_t i : order) r = merge(op, r, lift(p, op, xs[i]));
        return finish(p, op, r, xs.size());
    }

    // Per-thread local folds published through one shared key word, interleaved by the seed.
    static std::optional<S> simulated_atomic(policy p, reduce_op op, std::span<const S> xs, std::uint64_t seed,
                                             unsigned threads) {
        auto lift_i = [&](std::size_t i) { return lift(p, op, xs[i]); };
        return finish(p, op, simulate<S>(op, xs.size(), seed, threads, lift_i), xs.size());
    }

    // ---- arg reducers: the index of the result, nothing for n = 0 or an all-NaN ignore --------
    static std::optional<std::size_t> arg_sequential(policy p, reduce_op op, std::span<const S> xs) {
        check_index_room(xs.size());
        partial<arg_word> r;
        for (std::size_t i = 0; i < xs.size(); ++i) r = merge(op, r, lift_arg(p, op, xs[i], i));
        return arg_finish(p, op, r);
    }

    static std::optional<std::size_t> arg_simulated_atomic(policy p, reduce_op op, std::span<const S> xs,
                                                           std::uint64_t seed, unsigned threads) {
        check_index_room(xs.size());
        auto lift_i = [&](std::size_t i) { return lift_arg(p, op, xs[i], i); };
        return arg_finish(p, op, simulate<arg_word>(op, xs.size(), seed, threads, lift_i));
    }

private:
    static partial<S> tree(policy p, reduce_op op, std::span<const S> xs) {
        if (xs.empty()) return {};
        if (xs.size() == 1) return lift(p, op, xs[0]);
        const std::size_t half = xs.size() / 2;
        return merge(op, tree(p, op, xs.first(half)), tree(p, op, xs.subspan(half)));
    }

    static std::vector<std::size_t> permutation(std::size_t n, std::uint64_t seed) {
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        detail::splitmix64 rng{seed};
        for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
        return order;
    }

    // Element i belongs to thread i % threads (a grid-stride loop). At each step the seed picks a
    // thread that still has work; it folds its next 1 to 4 elements locally and, at random or when
    // it runs out, publishes its local fold with one atomic max/min on the shared word and starts
    // over. The word starts at the identity key (0 for max, all ones for min), as a GPU word would;
    // "seen" is a second word set by any publication, so an all-NaN ignore is told apart.
    template <class W, class Lift>
    static partial<W> simulate(reduce_op op, std::size_t n, std::uint64_t seed, unsigned threads, Lift lift_i) {
        const std::size_t t_count = threads == 0 ? 1 : threads;
        detail::splitmix64 rng{seed};
        std::vector<std::size_t> next(t_count);
        std::vector<partial<W>> local(t_count);
        std::vector<std::size_t> live;
        for (std::size_t t = 0; t < t_count; ++t) {
            next[t] = t;
            if (t < n) live.push_back(t);
        }
        partial<W> shared{op == reduce_op::max ? W{} : identity_max<W>(), false};
        while (!live.empty()) {
            const std::size_t pos = rng.below(live.size()), t = live[pos];
            for (std::uint64_t k = 1 + rng.below(4); k > 0 && next[t] < n; --k, next[t] += t_count)
                local[t] = merge(op, local[t], lift_i(next[t]));
            const bool done = next[t] >= n;
            if (done || rng.below(4) == 0) {
                if (local[t].seen) shared = {pick(op, shared.word, local[t].word), true};  // the atomic RMW
                local[t] = {};
            }
            if (done) {
                live[pos] = live.back();
                live.pop_back();
            }
        }
        return shared;
    }
    template <class W>
    static constexpr W identity_max() noexcept {
        if constexpr (std::is_same_v<W, detail::key_slot>) return {~std::uint64_t(0), ~std::uint64_t(0)};
        else return W(~W(0));
    }

    static void check_index_room(std::size_t n) {
        if (F::width <= 32 && n > (std::size_t(1) << 32) - 1)
            throw std::length_error("keyed_reducer: a packed index holds at most 2^32 - 1 elements");
    }
    static std::optional<std::size_t> arg_finish(policy p, reduce_op op, partial<arg_word> r) {
        if (!r.seen) return std::nullopt;
        return std::size_t(unpack_index(p, op, r.word));
    }
};

}  // namespace flipcheck
