// flipcheck's C++ oracle's totalOrder as the sweep's laws call it (law.hpp: the codes' values, then
// oracle.hpp's total_less), one entry point a format, for prove_test to read through the
// translator and prove equal to ieee_terms.hpp's statement over every pair of codes. Never compiled
// into a test binary: the prover's clang compiles it.
#include <cstdint>

#include "flipcheck/formats.hpp"
#include "flipcheck/oracle.hpp"

template <class F>
static bool less(typename F::storage a, typename F::storage b) {
    return flipcheck::oracle::total_less(F::to_value(a), F::to_value(b));
}

extern "C" bool oracle_less_binary16(std::uint16_t a, std::uint16_t b) { return less<flipcheck::binary16>(a, b); }
extern "C" bool oracle_less_bfloat16(std::uint16_t a, std::uint16_t b) { return less<flipcheck::bfloat16>(a, b); }
extern "C" bool oracle_less_binary32(std::uint32_t a, std::uint32_t b) { return less<flipcheck::binary32>(a, b); }
extern "C" bool oracle_less_binary64(std::uint64_t a, std::uint64_t b) { return less<flipcheck::binary64>(a, b); }
