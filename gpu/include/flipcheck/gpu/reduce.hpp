// The GPU reducers, callable from host code (no CUDA types): each array of a batch goes through
// one reducer in one launch, and the answers come back as bits or indices, or nothing for an
// empty array (and for an arg reduction with no answer: every element a NaN under ignore).
// Every reducer declares the policy it claims; gpu/tests judge it against the oracle under that.
//
// The GPU reducers are, in this order:
//   - the kernels that exist only on the GPU, one line each in value_kernels and arg_kernels
//     (reducer_list.hpp: flipcheck/gpu/reduce.cuh's keyed kernels, seed 002's kernels); adding
//     one is its kernel, its launch code (src/kernel_reducers.cuh) and one line there;
//   - every reducer of registry::reducers and registry::reducer_mutants (core's atomic update
//     strategies), each run by one generic kernel: one atomic update per element on a CUDA word
//     (reduce.cuh's per_element_kernel). A reducer added to the registry is a GPU reducer, with
//     no edit in gpu/.
// A handle, value_reducer or arg_reducer, names one of them (by name or stable id) and says what
// it exists for (formats, operations), what it declares and what to check it under.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "flipcheck/error.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/gpu/reducer_list.hpp"

namespace flipcheck::gpu {

namespace detail {

// registry::format_id<F>, computed in a function: nvcc 13.0's front end crashes on the lambda
// that initializes registry::format_id (an EDG internal error), and CUDA sources include this.
template <class F>
constexpr std::uint8_t format_id() {
    std::uint8_t id = 0;
    registry::for_each<registry::formats>([&]<class E>() {
        if (std::is_same_v<typename E::type, F>) id = E::id;
    });
    return id;
}

// Bit i: the i-th format of registry::formats is in On.
template <class On>
constexpr std::uint32_t format_bits() {
    std::uint32_t bits = 0, i = 0;
    registry::for_each<registry::formats>([&]<class FE>() {
        registry::for_each<On>([&]<class G>() {
            if (std::is_same_v<FE, G>) bits |= std::uint32_t(1) << i;
        });
        ++i;
    });
    return bits;
}
constexpr std::uint32_t format_bit(std::uint8_t format_id) {
    std::uint32_t bit = 0, i = 0;
    registry::for_each<registry::formats>([&]<class FE>() {
        if (FE::id == format_id) bit = std::uint32_t(1) << i;
        ++i;
    });
    return bit;
}

// A registry reducer declares per operation; a GPU handle does too, so it must declare the same
// for every format (a compile error here says one does not).
template <class E, reduce_op Op>
constexpr policy registry_declared() {
    const policy p = E::template on<registry::first_format<typename E::formats>, Op>::declared;
    bool same = true;
    registry::for_each<typename E::formats>([&]<class FE>() { same = same && E::template on<typename FE::type, Op>::declared == p; });
    if (!same) throw input_error("a registry reducer declares different policies for different formats");
    return p;
}

// What a handle knows of its reducer.
struct reducer_row {
    registry::about info;
    bool mutant;
    bool as_requested;
    policy own[2];          // by reduce_op, where it does not honour the request
    std::uint32_t formats;  // format_bits
    std::uint8_t ops;       // bit 0: max, bit 1: min
};

template <class E>
constexpr reducer_row row_of() {
    if constexpr (requires { typename E::kernel; }) {
        return {E::info, E::mutant, E::declared.as_requested, {E::declared.own, E::declared.own},
                format_bits<typename E::formats>(), std::uint8_t(E::operations)};
    } else {
        return {E::info,
                E::what == kind::value_mutant || E::what == kind::arg_mutant,
                false,
                {registry_declared<E, reduce_op::max>(), registry_declared<E, reduce_op::min>()},
                format_bits<typename E::formats>(),
                std::uint8_t(ops::both)};
    }
}
template <class... E>
constexpr std::array<reducer_row, sizeof...(E)> rows_of(registry::list<E...>*) {
    return {row_of<E>()...};
}
template <class List>
inline constexpr std::array<reducer_row, List::size> rows = rows_of(static_cast<List*>(nullptr));

}  // namespace detail

// A GPU reducer: value_reducer (the answer is bits) or arg_reducer (an index). A small value,
// compared by identity; value_reducer::all() lists every one.
template <bool Arg>
class reducer {
public:
    using list = std::conditional_t<Arg, arg_list, value_list>;
    static constexpr std::size_t count = list::size;

    // The reducer named `name`: input_error if there is none (in a constant expression, a
    // compile error).
    constexpr explicit reducer(std::string_view name) : index_(index_of(name)) {}
    static constexpr std::optional<reducer> find(std::string_view name) noexcept {
        for (std::size_t i = 0; i < count; ++i)
            if (detail::rows<list>[i].info.name == name) return reducer(i, 0);
        return std::nullopt;
    }
    // By the stable one-byte id (fuzz inputs): nothing for an id that is not a reducer of this kind.
    static constexpr std::optional<reducer> with_id(std::uint8_t id) noexcept {
        for (std::size_t i = 0; i < count; ++i)
            if (detail::rows<list>[i].info.id == id) return reducer(i, 0);
        return std::nullopt;
    }
    // Every one, in list order: the kernels, then the registry's.
    static constexpr std::array<reducer, count> all() noexcept { return all_of(std::make_index_sequence<count>()); }

    constexpr const registry::about& info() const noexcept { return row().info; }
    constexpr std::string_view name() const noexcept { return row().info.name; }
    constexpr std::uint8_t id() const noexcept { return row().info.id; }
    // Known-wrong, kept to be killed (the mutant zoo checks it, not the main job).
    constexpr bool mutant() const noexcept { return row().mutant; }

    // Whether it exists for the format (a registry::formats id) and operation; without an
    // operation, for either.
    constexpr bool supports(std::uint8_t format_id) const noexcept {
        return (row().formats & detail::format_bit(format_id)) != 0;
    }
    constexpr bool supports(std::uint8_t format_id, reduce_op op) const noexcept {
        return supports(format_id) && (row().ops & (op == reduce_op::max ? 1 : 2)) != 0;
    }
    template <format F>
    constexpr bool supports() const noexcept {
        return supports(detail::format_id<F>());
    }
    template <format F>
    constexpr bool supports(reduce_op op) const noexcept {
        return supports(detail::format_id<F>(), op);
    }

    // The policy it claims when asked for `requested`: the keyed kernels and packed_atomic and
    // two_level honour the request (ties = any for a value reducer); the rest claim their own.
    constexpr policy declared(reduce_op op, policy requested = {}) const noexcept {
        if (!row().as_requested) return row().own[op == reduce_op::max ? 0 : 1];
        if constexpr (Arg) return requested;
        else return {requested.nan, requested.zero, tie_policy::any};
    }
    // Every distinct policy it claims, to check it under: for those that honour the request, each
    // NaN x zero policy (x tie policy, for an arg reducer); for the rest, their own.
    std::vector<policy> policies_to_check(reduce_op op) const {
        std::vector<policy> out;
        auto add = [&](policy asked) {
            const policy p = declared(op, asked);
            for (const policy& q : out)
                if (q == p) return;
            out.push_back(p);
        };
        for (nan_policy n : {nan_policy::total_order, nan_policy::propagate, nan_policy::ignore})
            for (zero_policy z : {zero_policy::ordered, zero_policy::equal}) {
                if constexpr (Arg) {
                    for (tie_policy t : {tie_policy::lowest_index, tie_policy::highest_index, tie_policy::any}) add({n, z, t});
                } else {
                    add({n, z, tie_policy::any});
                }
            }
        return out;
    }

    friend constexpr bool operator==(reducer, reducer) noexcept = default;

private:
    constexpr reducer(std::size_t index, int) noexcept : index_(std::uint16_t(index)) {}
    static constexpr std::size_t index_of(std::string_view name) {
        if (const auto r = find(name)) return r->index_;
        throw input_error("no GPU " + std::string(Arg ? "arg" : "value") + " reducer is named " + std::string(name));
    }
    template <std::size_t... I>
    static constexpr std::array<reducer, count> all_of(std::index_sequence<I...>) noexcept {
        return {reducer(I, 0)...};
    }
    constexpr const detail::reducer_row& row() const noexcept { return detail::rows<list>[index_]; }

    // Two bytes, not one: GCC 12 at -O3 reports a false -Wstringop-overflow when a vector of a
    // one-byte class grows.
    std::uint16_t index_;
};
using value_reducer = reducer<false>;
using arg_reducer = reducer<true>;

// blocks per array (gridDim.x) and threads per block (a multiple of 32, at most 1024). Seed 002's
// kernels ignore it and use the article's shape: grid = SM count, 32 x 32 threads.
struct launch_shape {
    unsigned blocks = 4;
    unsigned threads = 256;
};

namespace detail {
// The launches, by storage type (src/reduce.cu instantiates them for 16-, 32- and 64-bit formats).
template <class S>
std::vector<std::optional<S>> reduce_bits(std::uint8_t format_id, value_reducer r, policy p, reduce_op op,
                                          const std::vector<std::vector<S>>& arrays, launch_shape shape);
template <class S>
std::vector<std::optional<std::size_t>> arg_reduce_bits(std::uint8_t format_id, arg_reducer r, policy p, reduce_op op,
                                                        const std::vector<std::vector<S>>& arrays, launch_shape shape);
}  // namespace detail

// Each array through r, under policy p (the request: the reducers that honour one run under it;
// the others ignore it). std::invalid_argument for a format or operation r does not exist for, or
// a bad launch shape.
template <format F>
std::vector<std::optional<typename F::storage>> reduce(value_reducer r, policy p, reduce_op op,
                                                       const std::vector<std::vector<typename F::storage>>& arrays,
                                                       launch_shape shape = {}) {
    static_assert(detail::format_id<F>() != 0, "the GPU reduces the formats of registry::formats");
    static_assert(sizeof(typename F::storage) >= 2, "src/reduce.cu instantiates the 16-, 32- and 64-bit storage types");
    return detail::reduce_bits(detail::format_id<F>(), r, p, op, arrays, shape);
}
template <format F>
std::vector<std::optional<std::size_t>> arg_reduce(arg_reducer r, policy p, reduce_op op,
                                                   const std::vector<std::vector<typename F::storage>>& arrays,
                                                   launch_shape shape = {}) {
    static_assert(detail::format_id<F>() != 0, "the GPU reduces the formats of registry::formats");
    static_assert(sizeof(typename F::storage) >= 2, "src/reduce.cu instantiates the 16-, 32- and 64-bit storage types");
    return detail::arg_reduce_bits(detail::format_id<F>(), r, p, op, arrays, shape);
}

}  // namespace flipcheck::gpu
