// Plug in a mapping: one line gives it the seven mapping laws under RapidCheck and the exhaustive
// sweep of all 2^32 keys (stopping at the first chunk that fails), plus a replay test.
#include <flipcheck/rapidcheck.hpp>

#include "my_code.hpp"

FLIPCHECK_CHECK_MAPPING(FloatKey, my::float_key);
