// Every format flipcheck knows, each with a stable one-byte id (fuzz inputs and plug-ins carry
// it), apart from the catalogue of subjects (catalog/registry.hpp) so that a plug-in or a check
// can name a format without compiling the catalogue. Ids are appended, never reused.
#pragma once
#include <cstdint>
#include <type_traits>

#include "flipcheck/detail/type_list.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"

namespace flipcheck::registry {

// ---- formats ------------------------------------------------------------------------------------

using formats = list<
    format_entry<0x01, binary16, "IEEE 754", "half precision: 1-5-10, bias 15">,
    format_entry<0x02, bfloat16, "Google Brain", "the top half of a binary32: 1-8-7, bias 127">,
    format_entry<0x03, binary32, "IEEE 754", "single precision: 1-8-23, bias 127">,
    format_entry<0x04, binary64, "IEEE 754", "double precision: 1-11-52, bias 1023 (sampled, not exhaustive)">>;
static_assert(ids_unique<formats>());

// The 8-bit and smaller formats (minifloat.hpp): every code of each is checked, never sampled. They
// are a list of their own because the drivers built for 16 bits and more (the GPU sweep and
// reduction kernels, the RapidCheck suites, the fuzz targets' draws) do not take a byte format;
// the drivers that do (the main job, `sweep`, `list`, the exhaustive reducer checks, the mutants)
// iterate all_formats.
using low_precision_formats = list<
    format_entry<0x05, float8_e4m3fn, "OCP FP8", "1-4-3, bias 7; no infinity; NaN only at S.1111.111">,
    format_entry<0x06, float8_e5m2, "OCP FP8", "1-5-2, bias 15; infinities and NaNs as in IEEE">,
    format_entry<0x07, float8_e4m3fnuz, "Graphcore, AMD MI300", "1-4-3, bias 8; no infinity, no -0; one NaN, 0x80">,
    format_entry<0x08, float8_e5m2fnuz, "Graphcore, AMD MI300", "1-5-2, bias 16; no infinity, no -0; one NaN, 0x80">,
    format_entry<0x09, float8_e8m0fnu, "OCP MX scales", "8 exponent bits, unsigned: 2^(e-127); no zero; one NaN, 0xff">,
    format_entry<0x0a, float6_e2m3fn, "OCP MXFP6", "1-2-3, bias 1, the low 6 bits of a byte; no infinity, no NaN">,
    format_entry<0x0b, float6_e3m2fn, "OCP MXFP6", "1-3-2, bias 3, the low 6 bits of a byte; no infinity, no NaN">,
    format_entry<0x0c, float4_e2m1fn, "OCP MXFP4, NVFP4", "1-2-1, bias 1, the low 4 bits of a byte or two per byte; no infinity, no NaN">>;
using all_formats = concat<formats, low_precision_formats>;
static_assert(ids_unique<all_formats>());

// Whether a format has the shape IEEE's binary formats have, which the seeds' bit tricks assume:
// signed, every storage bit the value's, and NaNs of both signs or none.
template <class F>
inline constexpr bool ieee_shaped = F::is_signed && F::unused_mask == 0 && F::nans != nan_encoding::single_pattern;

// (A function, not a lambda-initialised variable: nvcc 13's front end crashes on the latter.)
namespace detail {
template <class F, class... E>
constexpr std::uint8_t format_id_in(list<E...>*) {
    std::uint8_t id = 0;
    ((std::is_same_v<typename E::type, F> ? void(id = E::id) : void()), ...);
    return id;
}
}  // namespace detail
template <class F>
inline constexpr std::uint8_t format_id = detail::format_id_in<F>(static_cast<all_formats*>(nullptr));

// The formats of MinBits to MaxBits bits (packed argmax needs room for a 32-bit index beside
// the key; seed 004 needs native signed and unsigned atomics of the width).
namespace detail {
template <int MinBits, int MaxBits, class... E>
constexpr auto pick_formats(list<E...>*) {
    return static_cast<typename concat<std::conditional_t<(E::type::width >= MinBits && E::type::width <= MaxBits), list<E>, list<>>...>::type*>(nullptr);
}
}  // namespace detail
template <int MinBits, int MaxBits>
using formats_between = std::remove_pointer_t<decltype(detail::pick_formats<MinBits, MaxBits>(static_cast<formats*>(nullptr)))>;

// The first format of a list of format entries (to name a family, or ask what shape it has).
namespace detail {
template <class On>
struct first;
template <class E0, class... E>
struct first<list<E0, E...>> {
    using type = typename E0::type;
};
}  // namespace detail
template <class On>
using first_format = typename detail::first<On>::type;

}  // namespace flipcheck::registry
