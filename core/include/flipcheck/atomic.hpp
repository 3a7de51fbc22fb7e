// Float atomic max/min built on integer atomics, written once over a "word" backend: the same
// update code runs on a CUDA global or shared word (gpu/) and on a CPU word that replays an
// interleaving chosen by a test or a fuzzer. Each strategy declares the policy it claims; the
// reducer laws judge it against the oracle.
//
// A Word over unsigned storage S provides: S load(), fetch_max(S), fetch_min(S),
// fetch_max_signed(S), fetch_min_signed(S) (the bits compared as two's complement), and
// S cas(S expected, S desired) returning the old value.
#pragma once
#include <cstddef>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "flipcheck/mapping.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/reducer.hpp"

namespace flipcheck::atomic {

// A CPU word: each call is one atomic step. Replaying updates in a chosen order is exactly an
// interleaving of atomic read-modify-writes, since each of them is linearizable.
// Its methods are FLIPCHECK_HD only so that CUDA sources, which compile a strategy for both
// sides, may also replay it on the host.
template <class S>
struct sequential_word {
    S value;
    FLIPCHECK_HD S load() const { return value; }
    FLIPCHECK_HD S fetch_max(S v) { const S old = value; value = v > value ? v : value; return old; }
    FLIPCHECK_HD S fetch_min(S v) { const S old = value; value = v < value ? v : value; return old; }
    FLIPCHECK_HD S fetch_max_signed(S v) { const S old = value; value = as_signed(v) > as_signed(value) ? v : value; return old; }
    FLIPCHECK_HD S fetch_min_signed(S v) { const S old = value; value = as_signed(v) < as_signed(value) ? v : value; return old; }
    FLIPCHECK_HD S cas(S expected, S desired) { const S old = value; if (old == expected) value = desired; return old; }
    FLIPCHECK_HD static auto as_signed(S v) { return typename detail::signed_of<S>::type(v); }
};

// The shapes of an atomic strategy, the plug-in form of float atomic max/min on integer atomics
// (`mapped`, `signbit_dispatch`, `cas_loop` and `packed_arg` above are all of it):
//   format, op, declared, name  what it reduces, which way, under which policy it claims;
//   init()                      the word's starting value (Word's storage: its return type);
//   update(word, bits)          one element's atomic step(s) on any Word (core's
//                               sequential_word, gpu's cuda_word on global or shared memory);
//   result(word)                the answer's bits, read from the final word;
// and for argmax/argmin, update(word, bits, index) and index(word) instead of the last two.
// The checks: check.hpp (CPU interleavings), gpu/check.cuh (real atomics on a GPU).
template <class A>
concept atomic_strategy_common = format<typename A::format> && requires {
    { A::name } -> std::convertible_to<std::string_view>;
    { A::op } -> std::convertible_to<reduce_op>;
    { A::declared } -> std::convertible_to<policy>;
    { A::init() } -> std::unsigned_integral;
};
template <class A>
concept atomic_strategy = atomic_strategy_common<A> &&
    requires(sequential_word<std::remove_cvref_t<decltype(A::init())>>& w, typename A::format::storage bits) {
        A::update(w, bits);
        { A::result(w.value) } -> std::convertible_to<typename A::format::storage>;
    };
template <class A>
concept arg_atomic_strategy = atomic_strategy_common<A> &&
    requires(sequential_word<std::remove_cvref_t<decltype(A::init())>>& w, typename A::format::storage bits, std::uint32_t i) {
        A::update(w, bits, i);
        { A::index(w.value) } -> std::convertible_to<std::size_t>;
    };


// The mapped-key strategy: the word holds keys and integer max/min does the work. The NaN
// policy decides what a NaN contributes: total_order its own key; propagate the canonical NaN
// that wins (+qNaN for max, -qNaN for min); ignore nothing. With ignore, an all-NaN input leaves
// the initial key, which decodes to a NaN, as maximumNumber demands.
template <mapping M, nan_policy P, reduce_op Op>
struct mapped {
    using F = typename M::format;
    using format = F;
    using S = typename F::storage;
    static constexpr reduce_op op = Op;
    static constexpr std::string_view name = "mapped";
    static constexpr policy declared{P, zero_policy::ordered, tie_policy::any};

    // The identity key: the least key for max, the greatest (2^value_bits - 1) for min.
    FLIPCHECK_HD static constexpr S init() noexcept { return Op == reduce_op::max ? S(0) : F::value_mask; }
    // What an element contributes is the reducers' rule (reducer.hpp), so the two cannot drift.
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits) noexcept {
        if (!keyed_reducer<M>::contributes(declared, bits)) return;
        const S key = keyed_reducer<M>::key(declared, Op, bits);
        if (Op == reduce_op::max) w.fetch_max(key);
        else w.fetch_min(key);
    }
    FLIPCHECK_HD static S result(S word) noexcept { return keyed_reducer<M>::decode(declared, Op, word); }
};

// Seed 004's trick on raw bits: for min, a negative value (by its sign bit) takes unsigned
// atomicMax and a positive one signed atomicMin; max mirrors it. Valid for numbers; a NaN acts
// by its bits (no NaN handling), so it claims only the undefined NaN policy. The word starts at
// +inf for min and -inf for max.
// GeZero = true is the predecessor seed 004 warns about: `val >= 0` picks the branch, so -0
// takes the signed one. It is kept as a mutant.
template <format F, reduce_op Op, bool GeZero = false>
struct signbit_dispatch {
    using format = F;
    using S = typename F::storage;
    static constexpr reduce_op op = Op;
    static constexpr std::string_view name = GeZero ? "seed004_ge0" : "seed004_signbit";
    static constexpr policy declared{nan_policy::undefined, zero_policy::ordered, tie_policy::any};
    FLIPCHECK_HD static constexpr S init() noexcept {
        return Op == reduce_op::min ? F::infinity : S(F::infinity | F::sign_mask);
    }
    FLIPCHECK_HD static bool negative(S bits) noexcept {
        return GeZero ? !(F::to_value(bits) >= 0) : oracle::signbit(F::to_value(bits));
    }
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits) noexcept {
        const bool neg = negative(bits);
        if (Op == reduce_op::min) neg ? void(w.fetch_max(bits)) : void(w.fetch_min_signed(bits));
        else neg ? void(w.fetch_min(bits)) : void(w.fetch_max_signed(bits));
    }
    FLIPCHECK_HD static S result(S word) noexcept { return word; }
};

// The CAS-loop baseline: load, combine with C fmax/fmin, compare-and-swap until it sticks. It
// claims what C promises: NaNs lose to numbers, and the sign of fmax(-0, +0) is unspecified.
template <format F, reduce_op Op>
struct cas_loop {
    using format = F;
    using S = typename F::storage;
    using V = typename F::value_type;
    static constexpr reduce_op op = Op;
    static constexpr std::string_view name = "cas_fmax";
    static constexpr policy declared{nan_policy::ignore, zero_policy::equal, tie_policy::any};
    FLIPCHECK_HD static constexpr S init() noexcept { return F::quiet_nan; }  // loses to any number
    FLIPCHECK_HD static V c_fmax(V a, V b) noexcept {
#if defined(__CUDA_ARCH__)
        return Op == reduce_op::max ? ::fmax(a, b) : ::fmin(a, b);
#else
        return Op == reduce_op::max ? std::fmax(a, b) : std::fmin(a, b);
#endif
    }
    // fmax returns one of its operands (or a NaN when both are): keep whichever it chose.
    FLIPCHECK_HD static S combine(S old, S bits) noexcept {
        const V r = c_fmax(F::to_value(old), F::to_value(bits));
        return bit_cast<typename oracle::impl::uint_of<V>::type>(r) ==
                       bit_cast<typename oracle::impl::uint_of<V>::type>(F::to_value(bits))
                   ? bits
                   : old;
    }
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits) noexcept {
        S old = w.load();
        for (;;) {
            const S want = combine(old, bits);
            if (want == old) return;
            const S seen = w.cas(old, want);
            if (seen == old) return;
            old = seen;
        }
    }
    FLIPCHECK_HD static S result(S word) noexcept { return word; }
};

// Argmax/argmin through one 64-bit atomic: the mapped key in the high word and the index in the
// low word, arranged so that ties pick the lowest index (max stores ~index, min stores index).
// LowestIndex = false is the mutant that forgets the inversion. Formats up to 32 bits.
template <mapping M, reduce_op Op, bool LowestIndex = true>
struct packed_arg {
    using F = typename M::format;
    using format = F;
    using S = typename F::storage;
    static_assert(F::width <= 32, "the key and a 32-bit index must fit in 64 bits");
    static constexpr reduce_op op = Op;
    static constexpr std::string_view name = LowestIndex ? "packed_arg" : "packed_arg_no_inversion";
    static constexpr policy declared{nan_policy::total_order, zero_policy::ordered, tie_policy::lowest_index};
    static constexpr bool invert = (Op == reduce_op::max) == LowestIndex;

    FLIPCHECK_HD static constexpr std::uint64_t init() noexcept { return Op == reduce_op::max ? 0 : ~std::uint64_t(0); }
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits, std::uint32_t index) noexcept {
        const std::uint64_t packed = std::uint64_t(M::encode(bits)) << 32 | (invert ? ~index : index);
        if (Op == reduce_op::max) w.fetch_max(packed);
        else w.fetch_min(packed);
    }
    FLIPCHECK_HD static std::uint32_t index(std::uint64_t word) noexcept {
        return invert ? ~std::uint32_t(word) : std::uint32_t(word);
    }
};

// A strategy on a word narrower than 32 bits, run on a 32-bit word: a GPU has no 8-bit atomics
// and no 16-bit max, so the byte formats' keys are reduced zero-extended in a 32-bit word, where
// unsigned order is the same. (The other GPU form keeps the byte in place and updates it with a
// CAS on its containing word: gpu/word.cuh.) Only unsigned max/min, load and CAS pass through;
// a signed update would need sign extension, and no byte strategy makes one.
template <class A>
struct widened : A {
    using narrow = std::remove_cvref_t<decltype(A::init())>;
    using S = typename A::format::storage;
    static_assert(sizeof(narrow) < 4, "widened: the strategy's word is already 32 bits or more");
    template <class Word>
    struct view {
        Word& w;
        FLIPCHECK_HD narrow load() const { return narrow(w.load()); }
        FLIPCHECK_HD narrow fetch_max(narrow v) { return narrow(w.fetch_max(std::uint32_t(v))); }
        FLIPCHECK_HD narrow fetch_min(narrow v) { return narrow(w.fetch_min(std::uint32_t(v))); }
        FLIPCHECK_HD narrow cas(narrow expected, narrow desired) {
            return narrow(w.cas(std::uint32_t(expected), std::uint32_t(desired)));
        }
    };
    FLIPCHECK_HD static constexpr std::uint32_t init() noexcept { return A::init(); }
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits) noexcept {
        view<Word> v{w};
        A::update(v, bits);
    }
    FLIPCHECK_HD static S result(std::uint32_t word) noexcept { return S(A::result(narrow(word))); }
};

// A strategy on one lane of a word that other values share: a bfloat16 or half atomic made of a
// 32-bit compare-and-swap, where the array's neighbour owns the other half of the word (fp8 in a
// quarter). The checks run it at every lane with a neighbour in each other lane, and require both:
// the array's lane ends as the oracle says, and each neighbour ends as its own update made it
// (lane_isolation). Its declarations:
//   format, op, declared, name  as an atomic_strategy's;
//   using shared_word = ...;    the word (unsigned, wider than the lane): on a GPU the aligned word
//                               holding the value, `addr & ~(sizeof(shared_word) - 1)`;
//   init()                      the lane's starting value; its type is the lane;
//   update(word, offset, bits)  offset: the value's byte offset in the word (its address mod
//                               sizeof(shared_word)); the lane is the word's bits from 8 * offset up,
//                               as on a little-endian machine (every GPU and x86);
//   result(lane)                the answer's bits, read from the lane's final value.
template <class A>
concept lane_atomic_strategy = atomic_strategy_common<A> && std::unsigned_integral<typename A::shared_word> &&
    (sizeof(typename A::shared_word) > sizeof(A::init())) &&
    requires(sequential_word<typename A::shared_word>& w, unsigned offset, typename A::format::storage bits,
             std::remove_cvref_t<decltype(A::init())> lane) {
        A::update(w, offset, bits);
        { A::result(lane) } -> std::convertible_to<typename A::format::storage>;
    };

// The layout of a lane strategy's word, and what its neighbours do: each other lane holds a
// neighbour whose one update is the format's 1.0, so its result must be 1.0 exactly.
template <lane_atomic_strategy A>
struct lane_layout {
    using word = typename A::shared_word;
    using lane = std::remove_cvref_t<decltype(A::init())>;
    using S = typename A::format::storage;
    static constexpr unsigned count = sizeof(word) / sizeof(lane);
    static constexpr S neighbour_value = A::format::one;
    static constexpr unsigned offset(unsigned i) noexcept { return unsigned(i * sizeof(lane)); }
    static constexpr lane get(word w, unsigned offset) noexcept { return lane(w >> (8 * offset)); }
    // Every lane at init(): the word before any update.
    static constexpr word start() noexcept {
        word w = 0;
        for (unsigned i = 0; i < count; ++i) w |= word(A::init()) << (8 * offset(i));
        return w;
    }
};

// One lane of a lane strategy's word after a run with the array's values at `own_offset`: the
// array's answer there (offset == own_offset), or a neighbour's (offset != own_offset).
struct lane_value {
    unsigned own_offset = 0, offset = 0;
    std::optional<std::uint64_t> answer;
    bool finished = true;  // false: the run was stopped as a livelock (interleaving.hpp)
};

// Every lane of every placement of xs's values, for updates replayed whole: the neighbours update
// first (a later update that overwrites a neighbour's lane is then seen), then xs in `order`. The
// placements in offset order, each with its lanes in offset order; nothing for an empty input.
template <lane_atomic_strategy R, class S = typename R::format::storage>
std::vector<lane_value> replay_lanes(std::span<const S> xs, std::span<const std::size_t> order) {
    using L = lane_layout<R>;
    std::vector<lane_value> out;
    if (xs.empty()) return out;
    for (unsigned own = 0; own < L::count; ++own) {
        sequential_word<typename L::word> w{L::start()};
        for (unsigned n = 0; n < L::count; ++n)
            if (n != own) R::update(w, L::offset(n), L::neighbour_value);
        for (std::size_t i : order) R::update(w, L::offset(own), xs[i]);
        for (unsigned n = 0; n < L::count; ++n)
            out.push_back({L::offset(own), L::offset(n), std::uint64_t(S(R::result(L::get(w.value, L::offset(n))))), true});
    }
    return out;
}

// The word a strategy runs on: the type its init() returns (a bfloat16 strategy may keep its keys
// in a 32-bit word), or the format's storage for one without init() (P3008's atomic_ref).
template <class R, class Fallback>
struct word_type {
    using type = Fallback;
};
template <class R, class Fallback>
    requires requires { R::init(); }
struct word_type<R, Fallback> {
    using type = std::remove_cvref_t<decltype(R::init())>;
};
template <class R, class Fallback>
using word_of = typename word_type<R, Fallback>::type;

// One reducer of registry.hpp's atomic shape over xs on a CPU word, one atomic step per element
// in the order given (indices into xs): the answer's bits (a value reducer) or index (an arg
// reducer), nothing for an empty input. Every CPU driver (the main job, the mutant zoo, the
// RapidCheck suites) replays reducers through this one function.
template <class R, class S = typename R::format::storage>
auto replay(std::span<const S> xs, std::span<const std::size_t> order) {
    if constexpr (requires { &R::index; }) {
        std::optional<std::size_t> out;
        if (xs.empty()) return out;
        sequential_word<word_of<R, std::uint64_t>> w{R::init()};
        for (std::size_t i : order) R::update(w, xs[i], std::uint32_t(i));
        out = std::size_t(R::index(w.value));
        return out;
    } else {
        std::optional<S> out;
        if (xs.empty()) return out;
        using W = word_of<R, S>;
        W init = W(xs[0]);  // without init() (P3008), the object holds the first element before any fetch
        if constexpr (requires { R::init(); }) init = R::init();
        sequential_word<W> w{init};
        for (std::size_t i : order) R::update(w, xs[i]);
        if constexpr (requires { R::result(w.value); }) out = S(R::result(w.value));
        else out = w.value;
        return out;
    }
}

}  // namespace flipcheck::atomic
