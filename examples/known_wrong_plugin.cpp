// known_wrong.hpp's subjects for `flipcheck check --plugin`: every one must fail there too.
#include <flipcheck/export.hpp>

#include "known_wrong.hpp"

FLIPCHECK_EXPORT_SUBJECTS(wrong::atomic_max_ge0, wrong::max_std_fold, wrong::key_sign_only, wrong::argmax_no_inversion, wrong::amax_std_max,
                          wrong::e4m3_decode_480, wrong::e8m0_scale_no_nan, wrong::cas_max_stale, wrong::bf16_max_wrong_half,
                          wrong::fp4x2_max_whole_byte, wrong::to_e4m3_truncating, wrong::index_key_signed_zeros,
                          wrong::unscale_to_e4m3_reciprocal);
