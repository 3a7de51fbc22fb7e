// The GPU reducers, callable from host code (no CUDA types): each array of a batch goes through
// one reducer in one launch, and the answers come back as bits or indices, or nothing for an
// empty array (and for an arg reduction with no answer: every element a NaN under ignore).
// Every reducer declares the policy it claims; gpu/tests judge it against the oracle under that.
//
// The GPU reducers are, in this order:
//   - the kernels that exist only on the GPU, one line each in value_kernels and arg_kernels
//     below (flipcheck/gpu/reduce.cuh's keyed kernels, seed 002's kernels); adding one is its
//     kernel, its launch code (src/kernel_reducers.cuh) and one line here;
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

namespace flipcheck::gpu {

// ---- the kernels that exist only on the GPU --------------------------------------------------

// Each is defined, with the code that launches it on a batch, in src/kernel_reducers.cuh.
namespace kernels {
struct warp_aggregated;
struct block_shared;
struct full_grid;
struct packed_atomic;
struct two_level;
struct seed002_walkthrough;
struct seed002_full_code;
struct seed002_fixed;
}  // namespace kernels

// What a kernel declares: the policy it is asked for (a value reducer's ties are then `any`), or
// one of its own whatever it is asked.
struct declares {
    bool as_requested = true;
    policy own{};
};
constexpr declares declares_own(policy p) noexcept { return {false, p}; }

// The operations a kernel exists for.
enum class ops : std::uint8_t { max = 1, min = 2, both = 3 };

// One kernel, in the registry's style: Id is stable and unique among all reducers and mutants,
// the registry's included (kernels take 0xc1 and up; fuzz inputs decode it); What says value or
// arg, reducer or mutant (a mutant is known-wrong, kept to be killed by reducer agreement).
template <std::uint8_t Id, registry::text Name, registry::kind What, class Kernel, registry::text Origin,
          registry::text Description, declares Declares = declares{}, class On = registry::formats, ops Ops = ops::both>
struct kernel_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    using kernel = Kernel;
    using formats = On;
    static constexpr ops operations = Ops;
    static constexpr declares declared = Declares;
    static constexpr registry::kind what = What;
    static constexpr bool arg = What == registry::kind::arg_reducer || What == registry::kind::arg_mutant;
    static constexpr bool mutant = What == registry::kind::value_mutant || What == registry::kind::arg_mutant;
    static constexpr registry::about info{
        Id, Name.view(), What, Origin.view(), Description.view(),
        mutant ? std::optional<law_id>(arg ? law_id::arg_reducer_agreement : law_id::reducer_agreement) : std::nullopt};
};

using registry::kind;

using value_kernels = registry::list<
    kernel_entry<0xc1, "warp_aggregated", kind::value_reducer, kernels::warp_aggregated, "CUDA warp-aggregated atomics", "mapped keys: each warp folds its elements, then one global atomic max/min per warp">,
    kernel_entry<0xc2, "block_shared", kind::value_reducer, kernels::block_shared, "seed 000's groupshared InterlockedMax", "mapped keys: shared-memory atomics, then one global atomic per block">,
    kernel_entry<0xc3, "full_grid", kind::value_reducer, kernels::full_grid, "CUDA threadFenceReduction", "mapped keys: block partials, the last block to finish reduces them (no atomics on the result)">>;

// What seed 002's host check means (`value > best`), and what its fixed kernels claim.
inline constexpr policy seed002_claim{nan_policy::undefined, zero_policy::equal, tie_policy::lowest_index};
inline constexpr policy seed002_fixed_claim{nan_policy::ignore, zero_policy::equal, tie_policy::lowest_index};

using arg_kernels = registry::list<
    kernel_entry<0xd1, "packed_atomic", kind::arg_reducer, kernels::packed_atomic, "packed 64-bit argmax", "key << 32 | slot, one 64-bit atomic per warp; binary64: (key, slot) by a 128-bit CAS">,
    kernel_entry<0xd2, "two_level", kind::arg_reducer, kernels::two_level, "seed 002's shape, on keys", "warp shuffles and shared memory on (key, slot), the last block reduces the block results">,
    kernel_entry<0xd3, "seed002_walkthrough", kind::arg_mutant, kernels::seed002_walkthrough, "seed 002 as written", "lowest() then FLT_MIN in the final pass; grid = SM count x 1024 threads", declares_own(seed002_claim), registry::formats_between<32, 32>, ops::max>,
    kernel_entry<0xd4, "seed002_full_code", kind::arg_mutant, kernels::seed002_full_code, "seed 002's full code", "-lowest() = +FLT_MAX as the initial value of both kernels", declares_own(seed002_claim), registry::formats_between<32, 32>, ops::max>,
    kernel_entry<0xd5, "seed002_fixed", kind::arg_reducer, kernels::seed002_fixed, "seed 002, fixed", "no initial value, NaNs skipped, ties to the lowest index", declares_own(seed002_fixed_claim), registry::formats_between<32, 32>, ops::max>>;

// ---- every GPU reducer ------------------------------------------------------------------------

namespace detail {
// The value (Arg = false) or arg reducers of a list of registry entries.
template <bool Arg, class... E>
constexpr auto pick(registry::list<E...>*) {
    return static_cast<registry::concat<std::conditional_t<E::arg == Arg, registry::list<E>, registry::list<>>...>*>(nullptr);
}
template <bool Arg, class List>
using only = std::remove_pointer_t<decltype(pick<Arg>(static_cast<List*>(nullptr)))>;
}  // namespace detail

// The kernels first, then the registry's reducers and mutants, in their order.
using value_list = registry::concat<value_kernels, detail::only<false, registry::reducers>, detail::only<false, registry::reducer_mutants>>;
using arg_list = registry::concat<arg_kernels, detail::only<true, registry::reducers>, detail::only<true, registry::reducer_mutants>>;
static_assert(registry::ids_unique<registry::concat<value_kernels, arg_kernels, registry::reducers, registry::reducer_mutants,
                                                    registry::array_mutants>>(),
              "a GPU kernel's id is taken by the registry (kernels take 0xc1 and up)");

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
