// A plug-in of the scaling kinds the examples do not export (plugin_check_test): flipcheck's own
// tensor scale, MX block scales over binary32 and over an fp8 format, and NVFP4 block scale, each
// right, and two known-wrong ones (scaling_mutants.hpp), exported as a user would export theirs.
#include <string_view>

#include "flipcheck/plugin/export.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/catalog/scaling_mutants.hpp"

namespace {
namespace fc = flipcheck;
struct tensor_scale_e4m3 : fc::fp8_tensor_scale<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "tensor_scale_e4m3";
};
struct block_scale_f32 : fc::mx_block_scale<fc::binary32, fc::float8_e4m3fn> {
    static constexpr std::string_view name = "block_scale_f32";
};
struct block_scale_e5m2 : fc::mx_block_scale<fc::float8_e5m2, fc::float8_e4m3fn> {
    static constexpr std::string_view name = "block_scale_e5m2";
};
struct nvfp4_scale : fc::nvfp4_block_scale {
    static constexpr std::string_view name = "nvfp4_scale";
};
struct tensor_scale_unguarded : fc::mutants::fp8_scale_unguarded<fc::float8_e4m3fn> {
    static constexpr std::string_view name = "tensor_scale_unguarded";
};
struct nvfp4_truncated : fc::mutants::nvfp4_scale_truncated<> {
    static constexpr std::string_view name = "nvfp4_truncated";
};
}  // namespace

FLIPCHECK_EXPORT_SUBJECTS(tensor_scale_e4m3, block_scale_f32, block_scale_e5m2, nvfp4_scale, tensor_scale_unguarded, nvfp4_truncated);
