// Plug in FP8/MX scaling code: an amax, an e8m0 scale (OCP's and RCEIL), a decoder, a quantizer,
// a scaled quantizer and an index key, each checked against flipcheck's oracle by its shape, under what it declares.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_SCALING(AmaxF32, my::amax_f32);
FLIPCHECK_CHECK_SCALING(E8m0ScaleE4m3, my::e8m0_scale_e4m3);
FLIPCHECK_CHECK_SCALING(E4m3Decode, my::e4m3_decode);
FLIPCHECK_CHECK_SCALING(RceilScaleE4m3, my::rceil_scale_e4m3);  // judged under the recipe it declares
FLIPCHECK_CHECK_QUANTIZER(ToE4m3, my::to_e4m3);
FLIPCHECK_CHECK_KEY(IndexKey, my::index_key);
FLIPCHECK_CHECK_SCALED_QUANTIZER(ScaleToE4m3, my::scale_to_e4m3);
