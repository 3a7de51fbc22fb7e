// Plug in FP8/MX scaling code: an amax and an e8m0 scale, each checked against flipcheck's oracle
// (the OCP MX formula, amax's NaN and -0 rules) by its shape.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_SCALING(AmaxF32, my::amax_f32);
FLIPCHECK_CHECK_SCALING(E8m0ScaleE4m3, my::e8m0_scale_e4m3);
FLIPCHECK_CHECK_SCALING(E4m3Decode, my::e4m3_decode);
