// The special patterns of a format, where the bugs this project hunts live, and a random draw
// that reaches every IEEE class often. Host only; RapidCheck generators, fuzz dictionaries, the
// mutant driver and the audit battery all start from these.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "flipcheck/format.hpp"

namespace flipcheck {

// +-0, +-denorm_min, +-largest subnormal, +-min normal, +-1, +-max, +-inf, quiet and signalling
// NaNs of both signs (canonical and with a payload), and the ulp neighbours of the finite ones.
template <format F>
std::vector<typename F::storage> edge_values() {
    using S = typename F::storage;
    const S finite[] = {F::zero, F::denorm_min, F::max_subnormal, F::min_normal, F::one, F::max_finite};
    std::vector<S> out;
    for (S sign : {S(0), F::sign_mask}) {
        for (S v : finite) {
            out.push_back(S(v | sign));
            if (v != F::zero) out.push_back(S((v - 1) | sign));
            if (v != F::max_finite) out.push_back(S((v + 1) | sign));
        }
        for (S v : {F::infinity, F::quiet_nan, F::signaling_nan, S(F::quiet_nan | 0x15), S(F::infinity | (F::quiet_bit >> 1))})
            out.push_back(S(v | sign));
    }
    return out;
}

// One draw: a third uniform raw patterns; a third edge values, choosing the class first (zero,
// infinity, NaN with a random payload, a subnormal edge, a normal edge) so that each class of each
// sign comes up in over 2% of draws; a third a uniform exponent then a uniform mantissa, so that
// tiny and huge magnitudes are as common as ordinary ones.
template <format F, class Rng>
typename F::storage random_bits(Rng& rng) {
    using S = typename F::storage;
    const std::uint64_t r = rng();
    const S sign = (r & 8) ? F::sign_mask : S(0);
    switch (r % 3) {
        case 0: return S(rng());
        case 1: {
            const std::uint64_t pick = (r >> 4) % 3;
            switch ((r >> 8) % 5) {
                case 0: return S(sign | F::zero);
                case 1: return S(sign | F::infinity);
                case 2: {  // quiet or signalling, canonical or with a random (non-zero) payload
                    const S quiet = (r & 16) ? F::quiet_bit : S(0);
                    const S payload = (r & 32) ? S(rng() & (F::quiet_bit - 1)) : S(0);
                    return S(sign | F::infinity | quiet | (payload == 0 && quiet == 0 ? S(1) : payload));
                }
                case 3: {
                    const S sub[] = {F::denorm_min, S(F::denorm_min + 1), F::max_subnormal};
                    return S(sign | sub[pick]);
                }
                default: {
                    const S normal[] = {F::min_normal, F::one, F::max_finite};
                    const S v = normal[pick];
                    return S(sign | ((r & 64) ? v : S(v - ((r & 128) ? 1 : 0))));
                }
            }
        }
        default: {
            const S exponent = S((rng() % ((std::uint64_t(1) << F::exponent_bits))) << F::mantissa_bits);
            return S(sign | exponent | S(rng() & F::mantissa_mask));
        }
    }
}

}  // namespace flipcheck
