// Plug in a reducer function (a CPU loop here; it could launch your kernel or call a library):
// the edge battery, RapidCheck's random arrays, order and partition independence, large arrays.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_REDUCER(MaxPropagate, my::max_propagate);
FLIPCHECK_CHECK_REDUCER(NanArgmin, my::nanargmin);
// A byte format's reducer: its edge values are every code (flipcheck/edge_values.hpp).
FLIPCHECK_CHECK_REDUCER(E4m3Max, my::e4m3_max);
// Packed pairs (two fp4 per byte): every array of up to three bytes, each lane on its own.
FLIPCHECK_CHECK_PAIR_REDUCER(Fp4x2Max, my::fp4x2_max);
