// Every test here must FAIL (run_examples.cmake checks that it does, and that each failure's
// replay line fails again): the macros on known-wrong code.
#include <flipcheck/rapidcheck.hpp>

#include "known_wrong.hpp"

FLIPCHECK_CHECK_ATOMIC(AtomicMaxGe0, wrong::atomic_max_ge0);
FLIPCHECK_CHECK_REDUCER(MaxStdFold, wrong::max_std_fold);
FLIPCHECK_CHECK_MAPPING(KeySignOnly, wrong::key_sign_only);
FLIPCHECK_CHECK_ATOMIC(ArgmaxNoInversion, wrong::argmax_no_inversion);
FLIPCHECK_CHECK_ATOMIC(CasMaxStale, wrong::cas_max_stale);
FLIPCHECK_CHECK_ATOMIC(Bf16MaxWrongHalf, wrong::bf16_max_wrong_half);
FLIPCHECK_CHECK_SCALING(AmaxStdMax, wrong::amax_std_max);
FLIPCHECK_CHECK_SCALING(E8m0ScaleNoNan, wrong::e8m0_scale_no_nan);
FLIPCHECK_CHECK_SCALING(E4m3Decode480, wrong::e4m3_decode_480);
FLIPCHECK_CHECK_PAIR_REDUCER(Fp4x2MaxWholeByte, wrong::fp4x2_max_whole_byte);
FLIPCHECK_CHECK_QUANTIZER(ToE4m3Truncating, wrong::to_e4m3_truncating);
FLIPCHECK_CHECK_KEY(IndexKeySignedZeros, wrong::index_key_signed_zeros);
FLIPCHECK_CHECK_SCALED_QUANTIZER(UnscaleToE4m3Reciprocal, wrong::unscale_to_e4m3_reciprocal);
