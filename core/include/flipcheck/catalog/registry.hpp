// The registry: every format, mapping, reducer and mutant flipcheck knows, each on one line with
// its metadata, in type lists that every driver iterates (the main job, `sweep`, `list`,
// `mutants`, the RapidCheck suites, the fuzz targets, the GPU kernels' instantiations and the
// kill table of docs/mutants.md). Nothing else enumerates them.
//
// Adding an entry is its definition plus one line here. Each line carries a stable one-byte id,
// unique within its list, that fuzz inputs decode: ids are appended, never reused or renumbered,
// so a corpus file keeps its meaning when entries are added. A removed entry's id stays retired.
//
// The vocabulary (docs/architecture.md, "Glossary"):
//   format    a binary encoding (format.hpp), described as data: infinities, NaN encoding, -0, sign.
//   mapping   a bijection from a format's bits to unsigned keys meant to sort like totalOrder.
//   reducer   code that reduces an array to its max/min (a value reducer) or the index of it (an arg
//             reducer) and declares the policy it claims: an atomic update strategy run over a
//             word (atomic.hpp, p3008.hpp), a keyed fold (reducer.hpp), or a kernel.
//   mutant    a known-wrong mapping or reducer, with the law expected to kill it.
//   subject   whatever is being checked: an entry of this registry, or a user's own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "flipcheck/amax.hpp"
#include "flipcheck/canonical_key.hpp"
#include "flipcheck/atomic.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/formats.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/p3008.hpp"
#include "flipcheck/packed_reducer.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/reducer.hpp"
#include "flipcheck/quantize.hpp"
#include "flipcheck/scaled_quantize.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"
#include "flipcheck/catalog/key_mutants.hpp"
#include "flipcheck/catalog/quantizer_mutants.hpp"
#include "flipcheck/catalog/scaling_mutants.hpp"
#include "flipcheck/catalog/subjects/seed002.hpp"
#include "flipcheck/catalog/subjects/yamr.hpp"

namespace flipcheck::registry {

// ---- mappings -----------------------------------------------------------------------------------

// A mapping family: M<F> for each format entry F of On. IeeeShapeOnly: the mapping assumes
// ieee_shaped formats, so on the low-precision formats that are not, failing is its expected
// verdict (a finding the main job shows, not a test failure); it is run there all the same.
template <std::uint8_t Id, template <class> class M, text Origin, text Description, class On = formats, bool IeeeShapeOnly = true>
struct mapping_entry {
    static constexpr std::uint8_t id = Id;
    template <class F>
    using on = M<F>;
    using formats = On;
    static constexpr std::string_view name = M<first_format<On>>::name;
    static constexpr kind what = kind::mapping;
    static constexpr about info{Id, name, what, Origin.view(), Description.view(), std::nullopt};
    template <class F>
    static constexpr bool expected_right = !IeeeShapeOnly || ieee_shaped<F>;
};
template <std::uint8_t Id, template <class> class M, law_id KilledBy, text Origin, text Description, class On = formats>
struct mapping_mutant_entry : mapping_entry<Id, M, Origin, Description, On> {
    static constexpr kind what = kind::mapping_mutant;
    static constexpr law_id killed_by = KilledBy;
    static constexpr about info{Id, mapping_entry<Id, M, Origin, Description, On>::name, what, Origin.view(),
                                Description.view(), KilledBy};
};

template <class F>
using wrong_at_pi = mutants::swapped_pi<F>;

using mappings = list<
    mapping_entry<0x01, sign_flip, "seed 000", "seed 000's branchy map: set the MSB of positives, invert negatives">,
    mapping_entry<0x02, sign_flip_branchless, "seed 000, Herf, CUB", "seed 000's mask routine = Herf's FloatFlip = CUB TwiddleIn">,
    mapping_entry<0x03, signed_key, "Rust f32::total_cmp", "Rust total_cmp's signed key, through its unsigned view">,
    mapping_entry<0x04, key_mapping, "flipcheck", "the format-aware key: right on every format (mapping.hpp)", formats, false>>;

using mapping_mutants = list<
    mapping_mutant_entry<0x41, mutants::sign_bit_only, law_id::successor_order, "a common first attempt", "flips only the sign bit: negatives sort backwards">,
    mapping_mutant_entry<0x42, mutants::no_invert_negatives, law_id::round_trip_key, "seed 000's snippet without the ~", "sets the MSB of positives, forgets to invert negatives">,
    mapping_mutant_entry<0x43, mutants::wrong_inverse_branch, law_id::round_trip_key, "seed 000's inverse, mistyped", "the inverse tests the key's MSB after flipping it">,
    mapping_mutant_entry<0x44, mutants::zeros_swapped, law_id::successor_order, "Triton/sphexa signed-zero bug class", "wrong at exactly -0: it sorts above +0">,
    mapping_mutant_entry<0x45, mutants::wrong_at_neg_denorm_min, law_id::successor_order, "a one-pattern bug", "wrong at exactly -denorm_min (0x80000001 in binary32)">,
    mapping_mutant_entry<0x46, wrong_at_pi, law_id::successor_order, "a one-pattern bug off the edges", "wrong at exactly pi (0x40490fdb): only the exhaustive sweep finds it", formats_between<32, 32>>,
    mapping_mutant_entry<0x47, mutants::signed_key_as_unsigned, law_id::successor_order, "Rust total_cmp's key without its unsigned view", "signed keys compared as unsigned">>;

// Known-wrong keys of the low-precision formats, each on the formats its bug needs.
using low_precision_mapping_mutants = list<
    mapping_mutant_entry<0x48, mutants::sign_xor_key, law_id::successor_order, "a generic float key on MX scales", "the seeds' sign-xor key on e8m0: reverses the order of its upper half", list<format_entry<0x09, float8_e8m0fnu, "", "">>>,
    mapping_mutant_entry<0x49, mutants::ieee_key_on_fnuz, law_id::successor_order, "an IEEE key on fnuz (triton#10745's class)", "seed 000's key on fnuz: the NaN 0x80 lands between -denorm_min and +0", list<format_entry<0x07, float8_e4m3fnuz, "", "">, format_entry<0x08, float8_e5m2fnuz, "", "">>>,
    mapping_mutant_entry<0x4a, mutants::byte_sign_key, law_id::round_trip_bits, "a byte key on fp4", "takes the sign from bit 7 of the byte, not fp4's bit 3", list<format_entry<0x0c, float4_e2m1fn, "", "">>>,
    mapping_mutant_entry<0x4b, mutants::unmasked_key, law_id::round_trip_bits, "an fp6 key on the whole byte", "tests the sign with b >= 0x20 without masking the unused bits", list<format_entry<0x0a, float6_e2m3fn, "", "">, format_entry<0x0b, float6_e3m2fn, "", "">>>>;
static_assert(ids_unique<concat<mappings, mapping_mutants, low_precision_mapping_mutants>>());

// Every (mapping, format) pair of a list of mapping entries, as concrete types.
template <class E, class F>
struct instance {
    using entry = E;
    using format = F;
    using type = typename E::template on<F>;
};
namespace detail {
template <class E, class... F>
constexpr auto instances_of(list<F...>*) {
    return static_cast<list<instance<E, typename F::type>...>*>(nullptr);
}
template <class... E>
constexpr auto all_instances(list<E...>*) {
    return static_cast<typename concat<std::remove_pointer_t<decltype(instances_of<E>(static_cast<typename E::formats*>(nullptr)))>...>::type*>(nullptr);
}
}  // namespace detail
template <class Entries>
using instances = std::remove_pointer_t<decltype(detail::all_instances(static_cast<Entries*>(nullptr)))>;
// Every (entry, format) pair of a list of mapping entries over the format entries On instead of
// each entry's own formats.
namespace detail {
template <class On, class... E>
constexpr auto all_instances_on(list<E...>*) {
    return static_cast<typename concat<std::remove_pointer_t<decltype(instances_of<E>(static_cast<On*>(nullptr)))>...>::type*>(nullptr);
}
}  // namespace detail
template <class Entries, class On>
using instances_on = std::remove_pointer_t<decltype(detail::all_instances_on<On>(static_cast<Entries*>(nullptr)))>;

// The concrete mapping types of every registered mapping and mapping mutant (the GPU sweep has a
// kernel for each).
using sweepable = instances<concat<mappings, mapping_mutants>>;
// The same for the low-precision formats: every built-in mapping as it is (the seeds' ones give
// findings there) and their own mutants. The CPU sweeps them (a byte has 256 codes).
using low_precision_sweepable = concat<instances_on<mappings, low_precision_formats>, instances<low_precision_mapping_mutants>>;
using all_sweepable = concat<sweepable, low_precision_sweepable>;
// Whether instance I (of all_sweepable) is a built-in expected to pass every law: the finding
// that the seeds' mappings are wrong on the formats that are not ieee_shaped is kept as data.
// (A function, not a lambda-initialised variable: nvcc 13's front end crashes on the latter.)
template <class I>
constexpr bool expected_right() {
    if constexpr (I::entry::what == kind::mapping) return I::entry::template expected_right<typename I::format>;
    else return false;
}

// ---- reducers -----------------------------------------------------------------------------------
// A reducer family: R<F, Op> for each format entry of On and each reduce_op. R provides format,
// op, declared, and either init()/update(Word&, bits)[/result(word)] (a value reducer) or
// init()/update(Word&, bits, index)/index(word) (an arg reducer). A value reducer without init()
// starts from the array's first element, as a P3008 atomic object holds a value before any fetch.

template <std::uint8_t Id, text Name, template <class, reduce_op> class R, text Origin, text Description, class On = formats>
struct reducer_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    template <class F, reduce_op Op>
    using on = R<F, Op>;
    using formats = On;
    static constexpr bool arg = requires { &R<first_format<On>, reduce_op::max>::index; };
    static constexpr kind what = arg ? kind::arg_reducer : kind::value_reducer;
    static constexpr about info{Id, name, what, Origin.view(), Description.view(), std::nullopt};
};
template <std::uint8_t Id, text Name, template <class, reduce_op> class R, text Origin, text Description, class On = formats>
struct reducer_mutant_entry : reducer_entry<Id, Name, R, Origin, Description, On> {
    static constexpr bool arg = reducer_entry<Id, Name, R, Origin, Description, On>::arg;
    static constexpr kind what = arg ? kind::arg_mutant : kind::value_mutant;
    static constexpr law_id killed_by = arg ? law_id::arg_reducer_agreement : law_id::reducer_agreement;
    static constexpr about info{Id, Name.view(), what, Origin.view(), Description.view(), killed_by};
};

template <class F, reduce_op Op>
using mapped_total_order = atomic::mapped<key_mapping<F>, nan_policy::total_order, Op>;
template <class F, reduce_op Op>
using mapped_propagate = atomic::mapped<key_mapping<F>, nan_policy::propagate, Op>;
template <class F, reduce_op Op>
using mapped_ignore = atomic::mapped<key_mapping<F>, nan_policy::ignore, Op>;
template <class F, reduce_op Op>
using seed004_signbit = atomic::signbit_dispatch<F, Op>;
template <class F, reduce_op Op>
using cas_fmax = atomic::cas_loop<F, Op>;
template <class F, reduce_op Op>
using fetch_max = p3008::fetch<F, Op == reduce_op::max ? p3008::operation::max : p3008::operation::min>;
template <class F, reduce_op Op>
using fetch_fmaximum = p3008::fetch<F, Op == reduce_op::max ? p3008::operation::fmaximum : p3008::operation::fminimum>;
template <class F, reduce_op Op>
using fetch_fmaximum_num = p3008::fetch<F, Op == reduce_op::max ? p3008::operation::fmaximum_num : p3008::operation::fminimum_num>;
template <class F, reduce_op Op>
using packed_arg = atomic::packed_arg<key_mapping<F>, Op>;

// Atomic update strategies: the code the GPU kernels run, replayed on a CPU word too.
using reducers = list<
    reducer_entry<0x01, "mapped_total_order", mapped_total_order, "seed 000", "mapped keys, integer atomic max/min: totalOrder (NaNs by sign and payload)">,
    reducer_entry<0x02, "mapped_propagate", mapped_propagate, "IEEE 754 maximum", "mapped keys; a NaN folds as the canonical NaN that wins">,
    reducer_entry<0x03, "mapped_ignore", mapped_ignore, "IEEE 754 maximumNumber", "mapped keys; a NaN contributes nothing">,
    reducer_entry<0x04, "seed004_signbit", seed004_signbit, "seed 004", "signbit ? unsigned atomic : signed atomic, on the raw bits", formats_between<32, 64>>,
    reducer_entry<0x05, "cas_fmax", cas_fmax, "C fmax", "a compare-and-swap loop on fmax/fmin">,
    reducer_entry<0x06, "fetch_max", fetch_max, "C++26 P3008", "std::atomic<float>::fetch_max/fetch_min">,
    reducer_entry<0x07, "fetch_fmaximum", fetch_fmaximum, "C++26 P3008", "fetch_fmaximum/fetch_fminimum: IEEE maximum/minimum">,
    reducer_entry<0x08, "fetch_fmaximum_num", fetch_fmaximum_num, "C++26 P3008", "fetch_fmaximum_num/fetch_fminimum_num: IEEE maximumNumber">,
    reducer_entry<0x09, "packed_arg", packed_arg, "packed 64-bit argmax", "key << 32 | ~index in one 64-bit atomic: ties to the lowest index", formats_between<1, 32>>>;

// The same strategies on the byte formats, checked on every pair and triple of codes. A GPU has no
// byte atomics: `_w32` reduces the key zero-extended in a 32-bit word (atomic::widened); `_byte`
// updates the byte in place, which on a GPU is a CAS on its containing 32-bit word (gpu/word.cuh).
template <class F, reduce_op Op>
using mapped_total_order_w32 = atomic::widened<mapped_total_order<F, Op>>;
template <class F, reduce_op Op>
using mapped_propagate_w32 = atomic::widened<mapped_propagate<F, Op>>;
template <class F, reduce_op Op>
using mapped_ignore_w32 = atomic::widened<mapped_ignore<F, Op>>;
using byte_reducers = list<
    reducer_entry<0x0a, "mapped_total_order_w32", mapped_total_order_w32, "seed 000", "format-aware keys in a 32-bit word: totalOrder", low_precision_formats>,
    reducer_entry<0x0b, "mapped_propagate_w32", mapped_propagate_w32, "IEEE 754 maximum", "format-aware keys in a 32-bit word; a lone NaN moved to the winning end", low_precision_formats>,
    reducer_entry<0x0c, "mapped_ignore_w32", mapped_ignore_w32, "IEEE 754 maximumNumber", "format-aware keys in a 32-bit word; a NaN contributes nothing", low_precision_formats>,
    reducer_entry<0x0d, "mapped_total_order_byte", mapped_total_order, "seed 000", "format-aware keys in the byte itself (a GPU: CAS on its 32-bit word)", low_precision_formats>,
    reducer_entry<0x0e, "packed_arg", packed_arg, "packed 64-bit argmax", "key << 32 | ~index in one 64-bit atomic: ties to the lowest index", low_precision_formats>>;

// Reducers of packed pairs (two fp4 per byte: packed_reducer.hpp), on every pair and triple of bytes.
template <std::uint8_t Id, text Name, template <class, reduce_op> class R, bool Wrong, text Origin, text Description>
struct pair_reducer_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    template <class F, reduce_op Op>
    using on = R<F, Op>;
    using format = float4_e2m1fn;  // the one format that packs in pairs
    static constexpr bool arg = false;
    static constexpr kind what = Wrong ? kind::value_mutant : kind::value_reducer;
    static constexpr law_id killed_by = law_id::reducer_agreement;
    static constexpr about info{Id, Name.view(), what, Origin.view(), Description.view(),
                                Wrong ? std::optional<law_id>(killed_by) : std::nullopt};
};
using pair_reducers = list<
    pair_reducer_entry<0x0f, "lanewise_key", packed::lanewise, false, "NVFP4, MXFP4", "two fp4 per byte, each lane keyed and folded on its own">>;
using pair_reducer_mutants = list<
    pair_reducer_entry<0x8c, "one_byte_key", packed::one_byte_key, true, "a packed fp4x2 max", "one 8-bit key over the whole byte: lane 1's order decides both lanes">>;

template <class F, reduce_op Op>
using seed004_ge0 = atomic::signbit_dispatch<F, Op, true>;
template <class F, reduce_op Op>
using raw_unsigned_atomic = mutants::raw_unsigned<F, Op>;
template <class F, reduce_op Op>
using seed000_no_nan_propagate = mutants::claims<mapped_total_order<F, Op>, nan_policy::propagate>;
template <class F, reduce_op Op>
using seed000_no_nan_ignore = mutants::claims<mapped_total_order<F, Op>, nan_policy::ignore>;
template <class F, reduce_op Op>
using cas_fmax_as_maximum = mutants::claims<atomic::cas_loop<F, Op>, nan_policy::propagate>;
template <class F, reduce_op Op>
using packed_arg_no_inversion = atomic::packed_arg<key_mapping<F>, Op, false>;

using reducer_mutants = list<
    reducer_mutant_entry<0x81, "seed004_ge0", seed004_ge0, "seed 004's `val >= 0` predecessor (Triton/sphexa class)", "-0 takes the signed atomic branch", formats_between<32, 64>>,
    reducer_mutant_entry<0x82, "raw_unsigned_atomic", raw_unsigned_atomic, "libcudacxx bug class", "unsigned atomicMax/Min on the raw float bits">,
    reducer_mutant_entry<0x83, "seed000_no_nan_propagate", seed000_no_nan_propagate, "seed 000's snippet, no NaN handling", "keys give total_order but claim propagate">,
    reducer_mutant_entry<0x84, "seed000_no_nan_ignore", seed000_no_nan_ignore, "seed 000's snippet, no NaN handling", "keys give total_order but claim ignore">,
    reducer_mutant_entry<0x85, "cas_fmax_as_maximum", cas_fmax_as_maximum, "fmax mistaken for IEEE maximum", "a CAS loop on fmax claiming NaN propagation">,
    reducer_mutant_entry<0x86, "packed_arg_no_inversion", packed_arg_no_inversion, "packed 64-bit argmax", "index not inverted: the highest index wins ties", formats_between<1, 32>>>;

// Whole-array reducers of one format (the seeds' CPU emulations, std::max folds): R provides
// format, op, declared and reduce(span) -> the result bits (a value reducer) or index (arg), or
// nothing for no answer; large_input, if present, is an array size the reducer must also see.
template <std::uint8_t Id, text Name, class R, text Origin, text Description>
struct array_mutant_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    using type = R;
    static constexpr bool arg = requires { R::arg_reduce({}); };  // check/reducers.hpp's arg_reducer_function
    static constexpr kind what = arg ? kind::arg_mutant : kind::value_mutant;
    static constexpr law_id killed_by = arg ? law_id::arg_reducer_agreement : law_id::reducer_agreement;
    static constexpr about info{Id, Name.view(), what, Origin.view(), Description.view(), killed_by};
};

using array_mutants = list<
    array_mutant_entry<0x87, "seed002_minus_lowest", subjects::seed002_reducer<subjects::seed002_version::full_code>, "seed 002's full code snippet", "-lowest() (= +FLT_MAX) as the initial value">,
    array_mutant_entry<0x88, "seed002_flt_min_final", subjects::seed002_reducer<subjects::seed002_version::walkthrough>, "seed 002's FindMaxOfMax", "FLT_MIN in the final pass: wrong for all-negative arrays">,
    array_mutant_entry<0x89, "seed002_ties", subjects::seed002_reducer<subjects::seed002_version::ties_only>, "seed 002's tie-breaking", "equal values across lanes and strides do not go to the lowest index">,
    array_mutant_entry<0x8a, "yamr_sentinel", subjects::yamr_reducer, "seed 003's YAMR", "the -3.402e+38 sentinel wins over -FLT_MAX and -inf">,
    array_mutant_entry<0x8b, "std_max_fold_propagate", mutants::std_max_fold_propagate<binary32>, "std::max folds", "`a < b ? b : a` claiming NaN propagation: position-dependent">>;
static_assert(ids_unique<concat<reducers, reducer_mutants, array_mutants>>());

// Keyed folds (reducer.hpp): keyed_reducer<M>'s fold shapes, for any mapping M, under any policy
// given at run time. Fold<M>::run(policy, op, xs, seed, threads) gives the answer.
template <std::uint8_t Id, text Name, template <class> class Fold, text Description>
struct fold_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    template <class M>
    using on = Fold<M>;
    static constexpr bool arg = requires { Fold<sign_flip<binary32>>::arg; };
    static constexpr kind what = arg ? kind::arg_reducer : kind::value_reducer;
    static constexpr about info{Id, Name.view(), what, "keyed_reducer", Description.view(), std::nullopt};
};

namespace folds_of {
template <class M>
using S = typename M::format::storage;
template <class M>
struct sequential {
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t, unsigned) { return keyed_reducer<M>::sequential(p, op, xs); }
};
template <class M>
struct pairwise_tree {
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t, unsigned) { return keyed_reducer<M>::pairwise_tree(p, op, xs); }
};
template <class M>
struct permuted {
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t seed, unsigned) { return keyed_reducer<M>::permuted(p, op, xs, seed); }
};
template <class M>
struct simulated_atomic {
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t seed, unsigned threads) {
        return keyed_reducer<M>::simulated_atomic(p, op, xs, seed, threads);
    }
};
template <class M>
struct arg_sequential {
    static constexpr bool arg = true;
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t, unsigned) { return keyed_reducer<M>::arg_sequential(p, op, xs); }
};
template <class M>
struct arg_simulated_atomic {
    static constexpr bool arg = true;
    static auto run(policy p, reduce_op op, std::span<const S<M>> xs, std::uint64_t seed, unsigned threads) {
        return keyed_reducer<M>::arg_simulated_atomic(p, op, xs, seed, threads);
    }
};
}  // namespace folds_of

using folds = list<
    fold_entry<0x21, "sequential", folds_of::sequential, "a left fold of keys">,
    fold_entry<0x22, "pairwise_tree", folds_of::pairwise_tree, "recursive halves: a block's tree reduction">,
    fold_entry<0x23, "permuted", folds_of::permuted, "a fold in a random order">,
    fold_entry<0x24, "simulated_atomic", folds_of::simulated_atomic, "per-thread folds published through one atomic word, interleaved">,
    fold_entry<0x25, "arg_sequential", folds_of::arg_sequential, "argmax/argmin: key and index packed in one word, folded">,
    fold_entry<0x26, "arg_simulated_atomic", folds_of::arg_simulated_atomic, "argmax/argmin through one atomic word, interleaved">>;
static_assert(ids_unique<concat<reducers, reducer_mutants, array_mutants, folds, byte_reducers, pair_reducers, pair_reducer_mutants>>());

// ---- the FP8/MX scaling path ------------------------------------------------------------------------
// amax functions, scale functions, decoders and whole amax-then-scale block pipelines (amax.hpp,
// scale.hpp, scaling_mutants.hpp): T<F> for each format entry F of On, where F is the input
// format of an amax or a pipeline, the element format of a scale, the coded format of a decoder.
// check/scaling.hpp's check_scaling<T<F>>() checks each by its shape.

// A format list by type: the format entries of F... (their ids are the registry's own).
template <class... F>
using formats_of = list<format_entry<format_id<F>, F, "", "">...>;
using amax_formats = formats_of<binary16, bfloat16, binary32, binary64, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz,
                                float8_e5m2fnuz, float6_e2m3fn, float6_e3m2fn, float4_e2m1fn>;
using mx_elements = formats_of<float8_e4m3fn, float8_e5m2, float6_e2m3fn, float6_e3m2fn, float4_e2m1fn>;
using fp8_formats = formats_of<float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz>;
using quantizer_elements = formats_of<float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float6_e2m3fn,
                                      float6_e3m2fn, float4_e2m1fn>;

template <std::uint8_t Id, text Name, template <class> class T, bool Wrong, law_id KilledBy, text Origin, text Description, class On,
          kind Right = kind::scaling, kind Mutant = kind::scaling_mutant>
struct scaling_entry {
    static constexpr std::uint8_t id = Id;
    static constexpr std::string_view name = Name.view();
    template <class F>
    using on = T<F>;
    using formats = On;
    static constexpr kind what = Wrong ? Mutant : Right;
    static constexpr law_id killed_by = KilledBy;  // the law that judges it (a mutant: kills it)
    static constexpr about info{Id, Name.view(), what, Origin.view(), Description.view(),
                                Wrong ? std::optional<law_id>(KilledBy) : std::nullopt};
};

template <class E>
using mx_block_scale_f32 = mx_block_scale<binary32, E>;
template <class E>
using mx_block_scale_bf16 = mx_block_scale<bfloat16, E>;
template <class>
using e8m0_decoder = e8m0_decode;
template <class>
using nvfp4_scale = nvfp4_block_scale;
// Quantizers (quantize.hpp) by element E: what cvt.rn.satfinite does from each input format, and
// the other declared directions and saturations from binary32.
inline constexpr quantize_policy rn_satfinite{rounding::nearest_even, saturation::finite};
template <class E>
using quantize_binary32 = quantizer<binary32, E, rn_satfinite>;
template <class E>
using quantize_bfloat16 = quantizer<bfloat16, E, rn_satfinite>;
template <class E>
using quantize_binary16 = quantizer<binary16, E, rn_satfinite>;
template <class E>
using quantize_overflowing = quantizer<binary32, E, quantize_policy{rounding::nearest_even, E::has_infinity ? saturation::infinity : saturation::nan}>;
template <class E>
using quantize_toward_zero = quantizer<binary32, E, quantize_policy{rounding::toward_zero, saturation::finite}>;
template <class E>
using quantize_up = quantizer<binary32, E, quantize_policy{rounding::up, saturation::finite}>;
// binary32 narrowed to a 16-bit float (IEEE's convertFormat): nearest even, overflow to +-inf.
template <class E>
using narrow_binary32 = quantizer<binary32, E, quantize_policy{rounding::nearest_even, saturation::infinity}>;
// Scaled quantizers (scaled_quantize.hpp): x * s or x / s, then cvt.rn.satfinite's rules.
template <class E>
using quantize_scaled = scaled_quantizer<binary32, E, scaled_policy{rn_satfinite, scale_op::multiply, intermediate::binary32}>;
template <class E>
using quantize_scaled_exact = scaled_quantizer<binary32, E, scaled_policy{rn_satfinite, scale_op::multiply, intermediate::exact}>;
template <class E>
using quantize_divided = scaled_quantizer<binary32, E, scaled_policy{rn_satfinite, scale_op::divide, intermediate::binary32}>;
template <class E>
using quantize_scaled_bf16 = scaled_quantizer<bfloat16, E, scaled_policy{rn_satfinite, scale_op::multiply, intermediate::binary32}>;
template <class E>
using mx_scale_value_rceil = mx_scale_value_of<mx_scale_rceil<E>>;
template <class>
using nvfp4_global = nvfp4_global_scale<>;

using scaling = list<
    scaling_entry<0x31, "keyed_amax_propagate", keyed_amax_propagate, false, law_id::reducer_agreement, "flipcheck", "the unsigned max of |x|'s bits from +0: a NaN keys above +inf and wins (OCP MX)", amax_formats>,
    scaling_entry<0x32, "keyed_amax_ignore", keyed_amax_ignore, false, law_id::reducer_agreement, "flipcheck", "the same with a NaN keyed as +0: NaNs skipped, +0 if no number", amax_formats>,
    scaling_entry<0x33, "mx_scale", mx_scale_from_bits, false, law_id::scale_agreement, "OCP MX v1.0 6.3", "e8m0 = floor(log2(amax)) - emax + 127 from the amax's bits, clamped; NaN 0xff", mx_elements>,
    scaling_entry<0x34, "fp8_tensor_scale", fp8_tensor_scale, false, law_id::scale_agreement, "TransformerEngine current scaling", "max_E / amax in binary32; 0 and inf give 1, overflow FLT_MAX, NaN NaN", fp8_formats>,
    scaling_entry<0x35, "e8m0_decode", e8m0_decoder, false, law_id::decode_agreement, "OCP MX", "2^(c-127): 0x00 is the subnormal 2^-127, 0xff NaN", formats_of<float8_e8m0fnu>>,
    scaling_entry<0x36, "mx_block_scale", mx_block_scale_f32, false, law_id::scale_agreement, "OCP MX v1.0 6.3", "a block of 32 binary32 to its e8m0 scale: keyed amax then mx_scale", mx_elements>,
    scaling_entry<0x37, "mx_block_scale_bf16", mx_block_scale_bf16, false, law_id::scale_agreement, "OCP MX v1.0 6.3", "a block of 32 bfloat16 to its e8m0 scale: keyed amax then mx_scale", mx_elements>,
    scaling_entry<0x38, "nvfp4_block_scale", nvfp4_scale, false, law_id::scale_agreement, "NVIDIA NVFP4", "e4m3fn((block amax / 6) * global scale), nearest even, saturated at 448", formats_of<float4_e2m1fn>>,
    scaling_entry<0x39, "quantize", quantize_binary32, false, law_id::quantize_rounding, "PTX cvt.rn.satfinite", "binary32 to the element: nearest, ties to even, +-inf and overflow to +-max, NaN to NaN", quantizer_elements>,
    scaling_entry<0x3a, "quantize_bf16", quantize_bfloat16, false, law_id::quantize_rounding, "PTX cvt.rn.satfinite", "bfloat16 to the element, the same rules (every input: exhaustive)", quantizer_elements>,
    scaling_entry<0x3b, "quantize_f16", quantize_binary16, false, law_id::quantize_rounding, "PTX cvt.rn.satfinite", "binary16 to the element, the same rules (every input: exhaustive)", quantizer_elements>,
    scaling_entry<0x3c, "quantize_overflowing", quantize_overflowing, false, law_id::quantize_special, "OCP FP8, non-saturating", "binary32 to the element, nearest even; overflow and +-inf to inf (e5m2) or NaN (the others)", fp8_formats>,
    scaling_entry<0x3d, "quantize_toward_zero", quantize_toward_zero, false, law_id::quantize_rounding, "IEEE 754 roundTowardZero", "binary32 to the element, truncated; +-inf to +-max", quantizer_elements>,
    scaling_entry<0x3e, "quantize_up", quantize_up, false, law_id::quantize_rounding, "IEEE 754 roundTowardPositive", "binary32 to the element, toward +inf (cvt.rp's direction); +-inf to +-max", quantizer_elements>,
    scaling_entry<0x3f, "mx_scale_rceil", mx_scale_rceil, false, law_id::scale_agreement, "PTX cvt.rp.satfinite.ue8m0x2, torchao RCEIL", "e8m0 = ceil(log2(amax / max_E)) + 127 from the binary32 quotient's bits, clamped; NaN 0xff", mx_elements>,
    scaling_entry<0x50, "mx_scale_rceil_eps", mx_scale_rceil_eps, false, law_id::scale_agreement, "DeepGEMM, SGLang, vLLM (use_ue8m0)", "the same after amax = max(amax, 1e-4)", formats_of<float8_e4m3fn>>,
    scaling_entry<0x51, "mx_scale_value_rceil", mx_scale_value_rceil, false, law_id::scale_power_of_two, "torchao RCEIL", "the RCEIL scale as the binary32 value a kernel multiplies by: 2^(code - 127)", formats_of<float8_e4m3fn>>,
    scaling_entry<0x52, "nvfp4_global_scale", nvfp4_global, false, law_id::scale_agreement, "NVIDIA NVFP4", "448 * 6 / amax in binary32; 0 and inf give 1, overflow FLT_MAX, NaN NaN", formats_of<float4_e2m1fn>>,
    scaling_entry<0x57, "narrow", narrow_binary32, false, law_id::quantize_rounding, "IEEE 754 convertFormat, __float2half_rn", "binary32 to the 16-bit float: nearest, ties to even; overflow and +-inf to +-inf, NaN to NaN", formats_of<binary16, bfloat16>>,
    scaling_entry<0x58, "quantize_scaled", quantize_scaled, false, law_id::quantize_rounding, "TransformerEngine, (x * scale).to(fp8)", "x * s rounded to binary32, then quantize's rules: what a kernel that multiplies in a register does", quantizer_elements>,
    scaling_entry<0x59, "quantize_scaled_exact", quantize_scaled_exact, false, law_id::quantize_rounding, "a fused scale-and-convert", "x * s quantized once: the product in binary64, rounded to odd into binary32 (no double rounding)", quantizer_elements>,
    scaling_entry<0x5a, "quantize_divided", quantize_divided, false, law_id::quantize_rounding, "OCP MX reference, A / 2^e", "x / s rounded to binary32, then quantize's rules", mx_elements>,
    scaling_entry<0x5b, "quantize_scaled_bf16", quantize_scaled_bf16, false, law_id::quantize_rounding, "MX from bfloat16 activations", "bfloat16 x * s in binary32, then quantize's rules (every input under every e8m0 scale: exhaustive)", mx_elements>>;

template <class F>
using ge0_split_amax = mutants::ge0_split_amax<F>;
template <class F>
using unguarded_unsigned_amax = mutants::unguarded_unsigned_amax<F>;
template <class F>
using fmaxf_block_amax = mutants::fmaxf_block_amax<F>;
template <class F>
using bf16x2_hmax_amax = mutants::bf16x2_hmax_amax<F>;
template <class E>
using bf16x2_hmax_mx_block_scale = mutants::bf16x2_hmax_mx_block_scale<E>;
template <class E>
using e8m0_from_exponent_field = mutants::e8m0_from_exponent_field<E>;
template <class F>
using e8m0_as_exponent_field = mutants::e8m0_as_exponent_field<F>;
template <class F>
using fnuz_nan_as_negative_zero = mutants::fnuz_nan_as_negative_zero<F>;
template <class F>
using std_max_amax = mutants::std_max_amax<F>;
template <class E>
using fp8_scale_unguarded = mutants::fp8_scale_unguarded<E>;
template <class F>
using nvfp4_scale_truncated = mutants::nvfp4_scale_truncated<F>;
template <class E>
using quantize_carry_dropped = mutants::quantize_carry_dropped<E>;
template <class E>
using quantize_truncated = mutants::quantize_truncated<E>;
template <class E>
using quantize_ties_away = mutants::quantize_ties_away<E>;
template <class E>
using quantize_flushes_subnormals = mutants::quantize_flushes_subnormals<E>;
template <class E>
using quantize_overflow_to_nan = mutants::quantize_overflow_to_nan<E>;
template <class E>
using quantize_fnuz_sign_on_zero = mutants::quantize_fnuz_sign_on_zero<E>;
template <class E>
using scaled_double_rounding = mutants::scaled_double_rounding<E>;
template <class E>
using scaled_reciprocal = mutants::scaled_reciprocal<E>;
template <class E>
using fp8_tensor_scale_any_mode = mutants::fp8_tensor_scale_any_mode<E>;
template <class E>
using quantize_nearbyint = mutants::quantize_nearbyint<E>;
template <class E>
using scaled_flushed_intermediate = mutants::scaled_flushed_intermediate<E>;
template <class F>
using e4m3fn_nan_as_480 = mutants::e4m3fn_nan_as_480<F>;
template <class F>
using e3m2_top_binade_collapsed = mutants::e3m2_top_binade_collapsed<F>;
template <class F>
using fnuz_abs_amax = mutants::fnuz_abs_amax<F>;
template <class E>
using ue8m0_clamped_after_rounding = mutants::ue8m0_clamped_after_rounding<E>;
template <class E>
using fp8_scale_no_epsilon = mutants::fp8_scale_no_epsilon<E>;
template <class F>
using nvfp4_global_scale_unguarded = mutants::nvfp4_global_scale_unguarded<F>;

using scaling_mutants = list<
    scaling_entry<0x91, "ge0_split_amax", ge0_split_amax, true, law_id::reducer_agreement, "pytorch#119320", "value >= 0 ? signed atomicMax : unsigned atomicMin; amax = max(|max|, |min|): -0 takes the signed branch", formats_of<binary32>>,
    scaling_entry<0x92, "unguarded_unsigned_amax", unguarded_unsigned_amax, true, law_id::reducer_agreement, "an assert(value >= 0) compiled out", "unsigned atomicMax on the bits of `x < 0 ? -x : x`: -0 and -NaN beat every positive", formats_of<binary32>>,
    scaling_entry<0x93, "fmaxf_block_amax", fmaxf_block_amax, true, law_id::reducer_agreement, "a block fold before a key atomic", "fmaxf(acc, |x|) in the block, then the key atomic: the NaN is gone before the atomic", formats_of<binary32>>,
    scaling_entry<0x94, "bf16x2_hmax_amax", bf16x2_hmax_amax, true, law_id::reducer_agreement, "TransformerEngine#3550", "a packed bf16x2 __hmax2(acc, __habs2(x)) abs-max: NaN loses", formats_of<bfloat16>>,
    scaling_entry<0x95, "bf16x2_hmax_mx_block_scale", bf16x2_hmax_mx_block_scale, true, law_id::scale_agreement, "TransformerEngine#3550", "that abs-max feeding the e8m0 scale: a finite scale for a block holding a NaN", formats_of<float8_e4m3fn>>,
    scaling_entry<0x96, "e8m0_from_exponent_field", e8m0_from_exponent_field, true, law_id::scale_agreement, "sglang#25519's class", "the e8m0 scale from the amax's exponent field, no NaN check: NaN gives a finite code", mx_elements>,
    scaling_entry<0x97, "e8m0_as_exponent_field", e8m0_as_exponent_field, true, law_id::decode_agreement, "TransformerEngine#3262, #3070", "e8m0 decoded as code << 23: 0x00 becomes +0, 0xff +inf", formats_of<float8_e8m0fnu>>,
    scaling_entry<0x98, "fnuz_nan_as_negative_zero", fnuz_nan_as_negative_zero, true, law_id::decode_agreement, "triton#10745", "fnuz decoded as IEEE sign-magnitude: the NaN 0x80 becomes -0.0", formats_of<float8_e4m3fnuz, float8_e5m2fnuz>>,
    scaling_entry<0x99, "std_max_amax", std_max_amax, true, law_id::reducer_agreement, "hipDNN (rocm-libraries#12362)", "std::max(acc, fabs(x)) as the amax fold: a NaN after the start is dropped", formats_of<binary32>>,
    scaling_entry<0x9a, "fp8_scale_unguarded", fp8_scale_unguarded, true, law_id::scale_agreement, "TransformerEngine's overflow guard, missing; TensorLib#99", "max_E / amax with no FLT_MAX guard: a subnormal amax gives an infinite scale", fp8_formats>,
    scaling_entry<0x9b, "nvfp4_scale_truncated", nvfp4_scale_truncated, true, law_id::scale_agreement, "a truncating conversion for cvt.rn", "NVFP4's e4m3fn block scale rounded toward zero, not to nearest", formats_of<float4_e2m1fn>>,
    scaling_entry<0x9c, "quantize_carry_dropped", quantize_carry_dropped, true, law_id::quantize_order, "a rounding step ORed into the exponent field", "the mantissa's carry is lost: x just below 2^k quantizes to 2^(k-1)", formats_of<float8_e4m3fn, float8_e5m2, float4_e2m1fn>>,
    scaling_entry<0x9d, "quantize_truncated", quantize_truncated, true, law_id::quantize_rounding, "an int cast for rintf, cvt.rz for cvt.rn", "declares nearest-even, truncates toward zero", formats_of<float8_e4m3fn, float6_e3m2fn>>,
    scaling_entry<0x9e, "quantize_ties_away", quantize_ties_away, true, law_id::quantize_rounding, "roundf for IEEE's rint", "declares ties to even, rounds ties away from zero", formats_of<float8_e4m3fn, float4_e2m1fn>>,
    scaling_entry<0x9f, "quantize_flushes_subnormals", quantize_flushes_subnormals, true, law_id::quantize_idempotent, "a fast path with no subnormal branch", "the element's subnormals flushed to zero, their own values included", formats_of<float8_e4m3fn, float8_e5m2>>,
    scaling_entry<0xa0, "quantize_overflow_to_nan", quantize_overflow_to_nan, true, law_id::quantize_special, "__NV_NOSAT for __NV_SATFINITE (mlx#4376's 0x7f)", "declares satfinite, gives e4m3fn's NaN 0x7f on overflow and +-inf", formats_of<float8_e4m3fn>>,
    scaling_entry<0xa1, "quantize_fnuz_sign_on_zero", quantize_fnuz_sign_on_zero, true, law_id::quantize_special, "triton#9603's class", "sign | q(|x|) on fnuz: -0 and tiny negatives get 0x80, fnuz's NaN", formats_of<float8_e4m3fnuz, float8_e5m2fnuz>>,
    scaling_entry<0xa2, "e4m3fn_nan_as_480", e4m3fn_nan_as_480, true, law_id::decode_agreement, "mlx#4376", "e4m3fn decoded with no NaN: 0x7f and 0xff come out +-480", formats_of<float8_e4m3fn>>,
    scaling_entry<0xa3, "e3m2_top_binade_collapsed", e3m2_top_binade_collapsed, true, law_id::decode_agreement, "trinity#672", "fp6 e3m2's top exponent treated as reserved: 16, 20, 24, 28 decode as 14", formats_of<float6_e3m2fn>>,
    scaling_entry<0xa4, "fnuz_abs_amax", fnuz_abs_amax, true, law_id::reducer_agreement, "triton#9603", "amax as max(abs(x)) with abs clearing fnuz's sign bit: the NaN 0x80 becomes +0", formats_of<float8_e4m3fnuz, float8_e5m2fnuz>>,
    scaling_entry<0xa5, "ue8m0_clamped_after_rounding", ue8m0_clamped_after_rounding, true, law_id::scale_power_of_two, "vLLM#58032's class", "2^ceil(log2(amax / 448)), then max(s, 1 / (448 * 512)): a tiny amax's scale is no power of two", formats_of<float8_e4m3fn>>,
    scaling_entry<0xa6, "fp8_scale_no_epsilon", fp8_scale_no_epsilon, true, law_id::scale_agreement, "kernels-community#681", "1 / (amax / max_E) with no epsilon: an all-zero block's scale is +inf (its codes 0 * inf = NaN)", formats_of<float8_e4m3fn>>,
    scaling_entry<0xa7, "nvfp4_global_scale_unguarded", nvfp4_global_scale_unguarded, true, law_id::scale_agreement, "flashinfer#3448", "NVFP4's global scale 448 * 6 / amax with no zero guard: +inf for an all-zero tensor", formats_of<float4_e2m1fn>>,
    scaling_entry<0xab, "scaled_double_rounding", scaled_double_rounding, true, law_id::quantize_rounding, "(x * scale).to(fp8) sold as a fused conversion", "declares x * s quantized once, rounds the product to binary32 first: a product just off a midpoint ties to even", formats_of<float8_e4m3fn, float4_e2m1fn>>,
    scaling_entry<0xac, "scaled_reciprocal", scaled_reciprocal, true, law_id::quantize_rounding, "x * scale_inv for x / scale", "declares x / s, multiplies by 1 / s rounded to binary32", formats_of<float8_e4m3fn>>,
    scaling_entry<0xad, "scaled_flushed_intermediate", scaled_flushed_intermediate, true, law_id::quantize_idempotent, "nvcc --use_fast_math (-ftz=true)", "x * s with a subnormal product flushed to zero before the narrowing", formats_of<bfloat16>>,
    scaling_entry<0xae, "fp8_tensor_scale_any_mode", fp8_tensor_scale_any_mode, true, law_id::scale_agreement, "a kernel library called after fesetround", "max_E / amax in binary32, declared right in any rounding mode: the quotient rounds in the caller's mode", formats_of<float8_e4m3fn>>,
    scaling_entry<0xaf, "quantize_nearbyint", quantize_nearbyint, true, law_id::quantize_rounding, "nearbyint for IEEE's roundTiesToEven", "declares ties to even in any rounding mode, rounds with nearbyint: the caller's mode", formats_of<float8_e4m3fn>>>;

// Every (entry, format) pair of the scaling path, as concrete types (instance<E, F>::type).
using scaling_instances = instances<scaling>;
using scaling_mutant_instances = instances<scaling_mutants>;

// ---- canonical keys (canonical_key.hpp, key_mutants.hpp) -------------------------------------------
// Sort and index keys that give equal values one key, T<F> for each input format F; checked by
// check/canonical_keys.hpp (through check_scaling, beside the scaling path in the main job).
// (A struct, not an alias template: nvcc 13's front end loses an alias's text parameters.)
template <std::uint8_t Id, text Name, template <class> class T, bool Wrong, law_id KilledBy, text Origin, text Description, class On>
struct key_entry : scaling_entry<Id, Name, T, Wrong, KilledBy, Origin, Description, On, kind::key, kind::key_mutant> {};
using key_formats = formats_of<binary16, bfloat16, binary32, binary64>;  // binary64 sampled
template <class F>
using sql_key_widened = flipcheck::sql_key_widened<F>;
template <class F>
using sql_key_signed_zeros = mutants::sql_key_signed_zeros<F>;
template <class F>
using sql_key_nan_payloads = mutants::sql_key_nan_payloads<F>;
template <class F>
using sql_key_little_endian = mutants::sql_key_little_endian<F>;
using keys = list<
    key_entry<0x53, "total_order_key", total_order_key, false, law_id::key_order, "IEEE 754 totalOrder", "the sign flip itself: every code its own key (Rust's total_cmp)", key_formats>,
    key_entry<0x54, "sql_key", sql_key, false, law_id::key_equivalence, "PostgreSQL, DuckDB float order", "-0 made +0, every NaN the all-ones key above +inf's, then the sign flip", key_formats>,
    key_entry<0x55, "sql_key_bytes", sql_key_bytes, false, law_id::key_order, "an index's key bytes", "the SQL key as big-endian bytes (compared with memcmp)", key_formats>,
    key_entry<0x56, "sql_key_widened", sql_key_widened, false, law_id::key_equivalence, "one key type for every float column", "a binary32 value widened exactly to binary64, then binary64's SQL key as bytes", formats_of<binary32>>>;
using key_mutants = list<
    key_entry<0xa8, "sql_key_signed_zeros", sql_key_signed_zeros, true, law_id::key_equivalence, "Southclaws/rad#2, doradb#1108", "the order key with NaNs canonicalized but not -0: -0 and +0 get two keys (an index seek misses a row)", key_formats>,
    key_entry<0xa9, "sql_key_nan_payloads", sql_key_nan_payloads, true, law_id::key_equivalence, "NaN left uncanonicalized", "-0 canonicalized, NaNs keyed by their bits: NaNs apart, a negative one below -inf", key_formats>,
    key_entry<0xaa, "sql_key_little_endian", sql_key_little_endian, true, law_id::key_order, "an integer key written in host byte order", "the right key's bytes least significant first: memcmp reads the low byte first", formats_of<binary32>>>;
using key_instances = instances<keys>;
using key_mutant_instances = instances<key_mutants>;
static_assert(ids_unique<concat<scaling, scaling_mutants, keys, key_mutants, reducers, reducer_mutants, array_mutants, folds>>());

// Runtime metadata of every entry of a list, in order.
template <class List>
constexpr auto infos() {
    return []<class... E>(list<E...>*) {
        struct all {
            about items[sizeof...(E) + 1];
            constexpr const about* begin() const { return items; }
            constexpr const about* end() const { return items + sizeof...(E); }
        };
        return all{{E::info..., about{}}};
    }(static_cast<List*>(nullptr));
}

}  // namespace flipcheck::registry
