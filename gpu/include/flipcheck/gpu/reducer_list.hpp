// Every GPU reducer, listed once (reduce.hpp's handles name them): the kernels that exist only on
// the GPU, each one line of value_kernels or arg_kernels, then every reducer of the registry's
// reducers and reducer_mutants, run one atomic update per element. Host code, no CUDA types.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/policy.hpp"

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

}  // namespace flipcheck::gpu
