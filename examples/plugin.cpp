// Export subjects for `flipcheck check --plugin libmy_subjects.so`: build this file as a shared
// library (CMake: add_library(my_subjects MODULE plugin.cpp), linked to flipcheck::core).
#include <flipcheck/export.hpp>

#include "my_code.hpp"

FLIPCHECK_EXPORT_SUBJECTS(my::float_key, my::atomic_max_float, my::atomic_argmax_float, my::cas_max_float, my::bf16_max_in_32_bits,
                          my::bf16_max_shared_word, my::max_propagate, my::nanargmin, my::amax_f32, my::e4m3_max, my::e4m3_decode,
                          my::e8m0_scale_e4m3, my::fp4x2_max, my::to_e4m3, my::rceil_scale_e4m3, my::index_key, my::scale_to_e4m3);
