// Plug in an atomic strategy: the edge battery (every singleton, pair and triple of edge values,
// in every order), RapidCheck's random arrays in random interleavings, order independence and
// 2^20-element arrays, each update replayed whole on a CPU word of the type init() returns; and
// interleaved_steps, where each element is a thread and each load, fetch or CAS a step (every
// schedule of small arrays, random ones of larger), which is what catches a CAS loop that loses
// an update.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_ATOMIC(AtomicMaxFloat, my::atomic_max_float);
FLIPCHECK_CHECK_ATOMIC(AtomicArgmaxFloat, my::atomic_argmax_float);
FLIPCHECK_CHECK_ATOMIC(CasMaxFloat, my::cas_max_float);
FLIPCHECK_CHECK_ATOMIC(Bf16MaxIn32Bits, my::bf16_max_in_32_bits);
// A bfloat16 in half of a word its neighbour shares: every stage runs it at both halves, with the
// neighbour's own update in the other, and the neighbour must end as its update made it.
FLIPCHECK_CHECK_ATOMIC(Bf16MaxSharedWord, my::bf16_max_shared_word);
