// A plug-in of the many-to-one kinds (plugin_check_test): quantizers, e8m0 scales under a recipe
// (as codes and as values), an NVFP4 global scale with its own target, and canonical keys
// (integers and big-endian bytes, binary16 to binary64) and scaled quantizers, each right, and the known-wrong ones of
// the catalog (quantizer_mutants.hpp, scaling_mutants.hpp, key_mutants.hpp), exported as a user
// would export theirs.
#include <string_view>

#include "flipcheck/catalog/key_mutants.hpp"
#include "flipcheck/catalog/quantizer_mutants.hpp"
#include "flipcheck/catalog/scaling_mutants.hpp"
#include "flipcheck/canonical_key.hpp"
#include "flipcheck/plugin/export.hpp"
#include "flipcheck/quantize.hpp"
#include "flipcheck/scaled_quantize.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace {
namespace fc = flipcheck;
namespace m = fc::mutants;

struct e4m3_rne : fc::quantizer<fc::binary32, fc::float8_e4m3fn, fc::quantize_policy{}> {
    static constexpr std::string_view name = "e4m3_rne";
};
struct bf16_to_e5m2_rz : fc::quantizer<fc::bfloat16, fc::float8_e5m2, fc::quantize_policy{fc::rounding::toward_zero, fc::saturation::infinity}> {
    static constexpr std::string_view name = "bf16_to_e5m2_rz";
};
struct e4m3_truncated : m::quantize_truncated<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "e4m3_truncated";
};
struct e4m3_nosat : m::quantize_overflow_to_nan<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "e4m3_nosat";
};
struct rceil_code : fc::mx_scale_rceil<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "rceil_code";
};
// A correct RCEIL scale that forgot to declare its recipe: judged as OCP's floor, it fails.
struct rceil_undeclared {
    using element = fc::float8_e4m3fn;
    static constexpr std::string_view name = "rceil_undeclared";
    static std::uint8_t scale(std::uint32_t amax) { return fc::mx_scale_rceil<fc::float8_e4m3fn>::scale(amax); }
};
struct rceil_value : fc::mx_scale_value_of<fc::mx_scale_rceil<fc::float8_e4m3fn>> {
    static constexpr std::string_view name = "rceil_value";
};
struct clamped_after_rounding : m::ue8m0_clamped_after_rounding<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "clamped_after_rounding";
};
struct nvfp4_global : fc::nvfp4_global_scale<> {
    static constexpr std::string_view name = "nvfp4_global";
};
struct nvfp4_global_unguarded : m::nvfp4_global_scale_unguarded<> {
    static constexpr std::string_view name = "nvfp4_global_unguarded";
};
struct sql_bytes_f32 : fc::sql_key_bytes<fc::binary32> {
    static constexpr std::string_view name = "sql_bytes_f32";
};
struct sql_widened : fc::sql_key_widened<> {
    static constexpr std::string_view name = "sql_widened";
};
struct total_order_f64 : fc::total_order_key<fc::binary64> {
    static constexpr std::string_view name = "total_order_f64";
};
struct signed_zeros_f32 : m::sql_key_signed_zeros<fc::binary32> {
    static constexpr std::string_view name = "signed_zeros_f32";
};
struct fused_e4m3 : fc::scaled_quantizer<fc::binary32, fc::float8_e4m3fn, fc::scaled_policy{{}, fc::scale_op::multiply, fc::intermediate::exact}> {
    static constexpr std::string_view name = "fused_e4m3";
};
struct bf16_mx_e2m1 : fc::scaled_quantizer<fc::bfloat16, fc::float4_e2m1fn, fc::scaled_policy{{}, fc::scale_op::divide, fc::intermediate::binary32}> {
    static constexpr std::string_view name = "bf16_mx_e2m1";
};
struct fused_double_rounding : m::scaled_double_rounding<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "fused_double_rounding";
};
struct little_endian_f16 : m::sql_key_little_endian<fc::binary16> {
    static constexpr std::string_view name = "little_endian_f16";
};
}  // namespace

FLIPCHECK_EXPORT_SUBJECTS(e4m3_rne, bf16_to_e5m2_rz, e4m3_truncated, e4m3_nosat, rceil_code, rceil_undeclared, rceil_value,
                          clamped_after_rounding, nvfp4_global, nvfp4_global_unguarded, sql_bytes_f32, sql_widened, total_order_f64,
                          signed_zeros_f32, little_endian_f16, fused_e4m3, bf16_mx_e2m1, fused_double_rounding);
