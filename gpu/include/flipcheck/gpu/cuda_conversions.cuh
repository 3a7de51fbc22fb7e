// CUDA's own float conversions as quantizer subjects (quantize.hpp), each declaring what NVIDIA's
// documentation says it does, for the audit's conversion table: check_quantizer_every runs them on
// the device (on sm_90, __nv_cvt_float_to_fp8 is the hardware cvt.rn{.satfinite}.e4m3x2/e5m2x2
// instruction; the fp6 and fp4 ones are the header's software path below sm_100a), and the same
// structs run on the host, where the headers emulate them.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <type_traits>

#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/quantize.hpp"

namespace flipcheck::gpu::cuda_conversions {

// __nv_cvt_float_to_fp8: round to nearest even; __NV_SATFINITE clamps to +-max (NaN stays NaN),
// __NV_NOSAT overflows to e5m2's inf or e4m3's NaN (cuda_fp8.h).
template <class E, __nv_fp8_interpretation_t I, __nv_saturation_t Sat>
struct fp8 {
    using format = binary32;
    using element = E;
    static constexpr quantize_policy declared{rounding::nearest_even, Sat == __NV_SATFINITE ? saturation::finite
                                                                      : E::has_infinity    ? saturation::infinity
                                                                                           : saturation::nan};
    __host__ __device__ static std::uint8_t quantize(std::uint32_t x) { return __nv_cvt_float_to_fp8(bit_cast<float>(x), Sat, I); }
};

// __nv_cvt_float_to_fp6 / _fp4 with cudaRoundNearest: nearest even, saturating (the elements have
// no infinity or NaN; the header maps NaN to the largest magnitude, a NaN is not judged here).
template <class E, __nv_fp6_interpretation_t I>
struct fp6 {
    using format = binary32;
    using element = E;
    static constexpr quantize_policy declared{rounding::nearest_even, saturation::finite};
    __host__ __device__ static std::uint8_t quantize(std::uint32_t x) {
        return __nv_cvt_float_to_fp6(bit_cast<float>(x), I, cudaRoundNearest);
    }
};
struct fp4_e2m1 {
    using format = binary32;
    using element = float4_e2m1fn;
    static constexpr quantize_policy declared{rounding::nearest_even, saturation::finite};
    __host__ __device__ static std::uint8_t quantize(std::uint32_t x) {
        return __nv_cvt_float_to_fp4(bit_cast<float>(x), __NV_E2M1, cudaRoundNearest);
    }
};

// __float2half_r{n,z,u} and __float2bfloat16_r{n,z,u}: IEEE's convertFormat in the named
// direction, overflow to inf where the direction leads there.
enum class direction { rn, rz, ru };
constexpr rounding rounding_of(direction d) {
    return d == direction::rn ? rounding::nearest_even : d == direction::rz ? rounding::toward_zero : rounding::up;
}
// E: binary16 (__float2half_r*) or bfloat16 (__float2bfloat16_r*).
template <class E, direction D>
struct narrow {
    using format = binary32;
    using element = E;
    static constexpr quantize_policy declared{rounding_of(D), saturation::infinity};
    __host__ __device__ static std::uint16_t quantize(std::uint32_t x) {
        const float f = bit_cast<float>(x);
        if constexpr (std::is_same_v<E, binary16>)
            return __half_raw(D == direction::rn ? __float2half_rn(f) : D == direction::rz ? __float2half_rz(f) : __float2half_ru(f)).x;
        else
            return __nv_bfloat16_raw(D == direction::rn   ? __float2bfloat16_rn(f)
                                     : D == direction::rz ? __float2bfloat16_rz(f)
                                                          : __float2bfloat16_ru(f)).x;
    }
};

}  // namespace flipcheck::gpu::cuda_conversions
