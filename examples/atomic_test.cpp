// Plug in an atomic strategy: the edge battery (every singleton, pair and triple of edge values,
// in every order), RapidCheck's random arrays in random interleavings, order independence and
// 2^20-element arrays, each replayed one atomic step at a time on a CPU word.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_ATOMIC(AtomicMaxFloat, my::atomic_max_float);
FLIPCHECK_CHECK_ATOMIC(AtomicArgmaxFloat, my::atomic_argmax_float);
