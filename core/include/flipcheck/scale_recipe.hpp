// Scale recipes: the rules in use for turning a block's amax into its e8m0 scale, as declared
// policies. OCP's MX specification gives one; production kernels use others, and a kernel is
// right or wrong only against the recipe it declares (a correct RCEIL kernel fails under OCP's).
//   ocp_floor  X = 2^(floor(log2 amax) - emax_E)          OCP MX v1.0 6.3 (scale.hpp, 1)
//   rceil      X = 2^ceil(log2(fl32(amax / max_E)))       the quotient rounded up to a power of
//              two: PTX cvt.rp.satfinite.ue8m0x2.f32 of amax / max_E (Blackwell), torchao's RCEIL
//              (ao#2035, ml_dtypes#298)
//   rceil_eps  the same after amax = max(amax, 1e-4)      DeepGEMM's, SGLang's and vLLM's
//              power-of-two scales (per_token_cast_to_fp8 with use_ue8m0: amax.clamp(1e-4) / 448,
//              then 2^ceil(log2))
// Every recipe: amax NaN -> 0xff, +inf -> 0xfe, and the code clamped to [0x00, 0xfe] (2^-127 to
// 2^127); amax +0 -> 0x00 (log2 0 = -inf, clamped). The amax's sign is ignored (it is a magnitude).
// fl32(amax / max_E) is the binary32 quotient rounded to nearest: what the kernels compute.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

#include "flipcheck/rounding_mode.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/hd.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/scale.hpp"

namespace flipcheck {

enum class scale_rounding : std::uint8_t { floor, ceil };

struct scale_recipe {
    scale_rounding round = scale_rounding::floor;
    float amax_floor = 0.0f;  // amax = max(amax, amax_floor) first; 0: none
    std::string_view name = "ocp_floor";
};
inline constexpr scale_recipe ocp_floor{scale_rounding::floor, 0.0f, "ocp_floor"};
inline constexpr scale_recipe rceil{scale_rounding::ceil, 0.0f, "rceil"};
inline constexpr scale_recipe rceil_eps{scale_rounding::ceil, 1e-4f, "rceil_eps"};
inline constexpr scale_recipe all_recipes[] = {ocp_floor, rceil, rceil_eps};

namespace oracle {

// A recipe's e8m0 code for element E's largest finite `max_elem` (emax = its ilogb), with the
// oracle's ilogb and a binary64 division (which rounds once to 53 bits, then to 24 innocuously:
// scale.hpp, 2). Host and device: the GPU runs it on every binary32 amax.
FLIPCHECK_HD inline std::uint8_t recipe_scale(scale_recipe r, float max_elem, float amax) noexcept {
    if (isnan(amax)) return 0xff;
    float a = amax < 0 ? -amax : amax;
    if (r.amax_floor > 0 && a < r.amax_floor) a = r.amax_floor;
    if (r.round == scale_rounding::floor) return mx_scale(ilogb(max_elem), a);  // OCP's, written once (scale.hpp)
    if (a == 0) return 0x00;
    if (isinf(a)) return 0xfe;
    const float q = float(double(a) / double(max_elem));
    if (q == 0) return 0x00;
    int k = ilogb(q);               // floor(log2 q), then up unless q is 2^k itself
    if (q != ldexp(1.0f, k)) ++k;   // ceil(log2 q)
    const int code = k + 127;
    return std::uint8_t(code < 0 ? 0 : code > 254 ? 254 : code);
}

}  // namespace oracle

// flipcheck's built-in RCEIL on the amax's bits: the binary32 quotient's exponent field, plus one
// when its mantissa is not zero (the next power of two up); a subnormal quotient, below 2^-126,
// is 2^-127 or less up to its top mantissa bit: code 1 above 2^-127, else 0.
FLIPCHECK_HD inline std::uint8_t rceil_scale_bits(float max_elem, float amax_floor, std::uint32_t amax_bits) noexcept {
    amax_bits &= 0x7fffffffu;
    if (amax_bits > 0x7f800000u) return 0xff;
    if (amax_bits == 0x7f800000u) return 0xfe;
    float a = bit_cast<float>(amax_bits);
    if (a < amax_floor) a = amax_floor;
    const std::uint32_t q = bit_cast<std::uint32_t>(a / max_elem);
    const std::uint32_t field = q >> 23, mantissa = q & 0x7fffffu;
    if (field == 0) return mantissa > 0x400000u ? 1 : 0;
    const std::uint32_t code = field + (mantissa != 0);
    return std::uint8_t(code > 254 ? 254 : code);
}

// The built-in ceil recipes as scale subjects of element E (check/scaling.hpp's mx scale shape).
template <format E>
struct mx_scale_rceil {
    using element = E;
    static constexpr scale_recipe recipe = rceil;
    static constexpr rounding_claim rounding_modes = needs_rounding(rounding_mode::to_nearest);  // amax / max_E rounds in the caller's mode
    FLIPCHECK_HD static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        return rceil_scale_bits(E::to_value(E::max_finite), 0.0f, amax_bits);
    }
};
template <format E>
struct mx_scale_rceil_eps {
    using element = E;
    static constexpr scale_recipe recipe = rceil_eps;
    static constexpr rounding_claim rounding_modes = needs_rounding(rounding_mode::to_nearest);  // amax / max_E rounds in the caller's mode
    FLIPCHECK_HD static std::uint8_t scale(std::uint32_t amax_bits) noexcept {
        return rceil_scale_bits(E::to_value(E::max_finite), rceil_eps.amax_floor, amax_bits);
    }
};


// A recipe's scale as the binary32 value a kernel multiplies by (scale subject X's code, decoded).
template <class X>
struct mx_scale_value_of {
    using element = typename X::element;
    static constexpr scale_recipe recipe = X::recipe;
    static constexpr rounding_claim rounding_modes = X::rounding_modes;
    FLIPCHECK_HD static float scale_value(float amax) noexcept { return e8m0_decode::decode(X::scale(bit_cast<std::uint32_t>(amax))); }
};

}  // namespace flipcheck
