// The rows of flipcheck/gpu/every_input.hpp: the registry's binary32 quantizers and mutants and
// CUDA's conversions (cuda_conversions.cuh), each through check_quantizer_every; its binary32
// canonical keys and key mutants through check_canonical_key_every; its binary32 scaled quantizers
// and their mutants through check_scaled_quantizer_every.
#include "flipcheck/gpu/every_input.hpp"

#include <cuda_runtime.h>

#include <string>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/gpu/cuda_conversions.cuh"
#include "flipcheck/gpu/detail/registry_types.hpp"
#include "flipcheck/gpu/key_walk.cuh"
#include "flipcheck/gpu/quantize_walk.cuh"
#include "flipcheck/gpu/scaled_quantize_walk.cuh"

namespace flipcheck::gpu {
namespace {

constexpr std::uint64_t every_magnitude = std::uint64_t(1) << 31;

template <class X>
quantizer_row row_of(std::string name, std::string library, bool mutant, std::uint64_t magnitudes) {
    using E = typename X::element;
    // A sample sits around the element's largest finite value, where saturation and overflow are.
    std::uint64_t first = 0;
    if (magnitudes < every_magnitude) {
        const std::uint64_t top = bit_cast<std::uint32_t>(E::to_value(E::max_finite));
        first = top > magnitudes / 2 ? top - magnitudes / 2 : 0;
    }
    walk_timing t;
    quantizer_row row{check_quantizer_every<X>(first, magnitudes, &t), std::move(library), std::string(E::name), X::declared, mutant, 0, 0};
    row.report.subject = std::move(name);
    row.kernel_ms = t.kernel_ms;
    row.wall_ms = t.wall_ms;
    return row;
}

std::string toolkit() {
    int v = 0;
    cudaRuntimeGetVersion(&v);
    return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) + ", device";
}

template <class List>
void registry_rows(std::vector<quantizer_row>& out, bool mutants, std::uint64_t magnitudes) {
    registry::for_each<List>([&]<class I>() {
        using X = canonical_t<typename I::type>;
        if constexpr (quantizer_subject<X>) {
            if constexpr (std::is_same_v<typename X::format, binary32>)
                out.push_back(row_of<X>(std::string(I::entry::name), "flipcheck", mutants, magnitudes));
        }
    });
}

template <class List>
void key_rows(std::vector<walk_row>& out, bool mutants, std::uint64_t pairs) {
    registry::for_each<List>([&]<class I>() {
        using X = canonical_t<typename I::type>;
        if constexpr (canonical_key_subject<X>) {
            if constexpr (std::is_same_v<typename X::format, binary32>) {
                walk_timing t;
                walk_row row{check_canonical_key_every<X>(&t, pairs), mutants, t.kernel_ms, t.wall_ms};
                row.report.subject = std::string(I::entry::name);
                out.push_back(std::move(row));
            }
        }
    });
}

template <class List>
void scaled_rows(std::vector<walk_row>& out, bool mutants, std::size_t scales, std::uint64_t magnitudes) {
    registry::for_each<List>([&]<class I>() {
        using X = canonical_t<typename I::type>;
        if constexpr (scaled_quantizer_subject<X>) {
            if constexpr (std::is_same_v<typename X::format, binary32>) {
                walk_timing t;
                walk_row row{check_scaled_quantizer_every<X>(scales, magnitudes, &t), mutants, t.kernel_ms, t.wall_ms};
                row.report.subject = std::string(I::entry::name);
                out.push_back(std::move(row));
            }
        }
    });
}

}  // namespace

std::vector<walk_row> every_scaled_pair(bool mutants, std::size_t scales, std::uint64_t magnitudes) {
    std::vector<walk_row> out;
    if (mutants) scaled_rows<registry::scaling_mutant_instances>(out, true, scales, magnitudes);
    else scaled_rows<registry::scaling_instances>(out, false, scales, magnitudes);
    return out;
}

std::vector<walk_row> every_key_code(bool mutants, std::uint64_t pairs) {
    std::vector<walk_row> out;
    if (mutants) key_rows<registry::key_mutant_instances>(out, true, pairs);
    else key_rows<registry::key_instances>(out, false, pairs);
    return out;
}

std::vector<quantizer_row> every_input(quantizer_set set, std::uint64_t magnitudes) {
    std::vector<quantizer_row> out;
    if (set == quantizer_set::built_ins) registry_rows<registry::scaling_instances>(out, false, magnitudes);
    if (set == quantizer_set::mutants) registry_rows<registry::scaling_mutant_instances>(out, true, magnitudes);
    if (set != quantizer_set::cuda_conversions) return out;
    namespace cc = cuda_conversions;
    const std::string lib = toolkit();
    out.push_back(row_of<cc::fp8<float8_e4m3fn, __NV_E4M3, __NV_SATFINITE>>("__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp8<float8_e4m3fn, __NV_E4M3, __NV_NOSAT>>("__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp8<float8_e5m2, __NV_E5M2, __NV_SATFINITE>>("__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp8<float8_e5m2, __NV_E5M2, __NV_NOSAT>>("__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp6<float6_e2m3fn, __NV_E2M3>>("__nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp6<float6_e3m2fn, __NV_E3M2>>("__nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest)", lib, false, magnitudes));
    out.push_back(row_of<cc::fp4_e2m1>("__nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest)", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<binary16, cc::direction::rn>>("__float2half_rn", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<binary16, cc::direction::rz>>("__float2half_rz", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<binary16, cc::direction::ru>>("__float2half_ru", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<bfloat16, cc::direction::rn>>("__float2bfloat16_rn", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<bfloat16, cc::direction::rz>>("__float2bfloat16_rz", lib, false, magnitudes));
    out.push_back(row_of<cc::narrow<bfloat16, cc::direction::ru>>("__float2bfloat16_ru", lib, false, magnitudes));
    return out;
}

}  // namespace flipcheck::gpu
