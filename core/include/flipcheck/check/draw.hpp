// The random draws of every random stage (RapidCheck's generators, the plug-in checker's random
// arrays), written once over any generator with a `std::uint64_t next()`: rc::Random or
// detail::splitmix64. Values are drawn as bits, since float draws never reach NaN, infinity, -0
// or subnormals, which is where mappings break; and they simplify as bits:
//   a number  -> +0, then -0, then fewer mantissa bits, then a smaller exponent, then + sign;
//   a NaN     -> +0, then the canonical quiet NaN, then + sign, quiet, a smaller payload.
// Every candidate is strictly simpler under one well-founded order (numbers before NaNs; numbers
// by (magnitude, sign); NaNs by (payload, signalling, sign)), so shrinking always terminates.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/format.hpp"

namespace flipcheck::draw {

// The shrink candidates of one pattern, simplest first (see the order above).
template <format F>
std::vector<typename F::storage> simpler_bits(typename F::storage b) {
    using S = typename F::storage;
    std::vector<S> out;
    auto add = [&](S c) {
        if (c != b && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    const S sign = S(b & F::sign_mask);
    add(F::zero);
    if (F::is_nan_bits(b)) {
        add(F::quiet_nan);
        if (sign) add(S(b & ~F::sign_mask));
        if (!(b & F::quiet_bit)) add(S(b | F::quiet_bit));
        // A smaller payload that keeps the NaN a NaN (a signalling one needs a non-zero payload).
        const S low = S(F::quiet_bit - 1), payload = S(b & low), floor = (b & F::quiet_bit) ? S(0) : S(1);
        for (S d = S(payload - floor); payload > floor && d > 0; d = S(d / 2)) add(S((b & ~low) | (payload - d)));
        return out;
    }
    if (sign) add(F::sign_mask);
    const S m = F::mantissa_field(b), e = F::exponent_field(b);
    if (m) {
        add(S(b & ~F::mantissa_mask));
        for (int i = F::mantissa_bits - 1; i >= 0; --i)
            if (m & (S(1) << i)) add(S(b & ~(S(1) << i)));
    }
    for (S d = e; d > 0; d = S(d / 2)) add(S(sign | S(S(e - d) << F::mantissa_bits) | m));
    if (sign) add(S(b & ~F::sign_mask));
    return out;
}

// A NaN of the given sign: quiet or signalling, canonical or with a random payload.
template <format F, class Rng>
typename F::storage nan(Rng& r, typename F::storage sign) {
    using S = typename F::storage;
    const std::uint64_t u = r.next();
    const S quiet = (u & 1) ? F::quiet_bit : S(0);
    S payload = (u & 2) ? S(r.next() & (F::quiet_bit - 1)) : S(0);
    if (!quiet && !payload) payload = 1;
    return S(sign | F::infinity | quiet | payload);
}

// One draw: 30% uniform raw patterns; 40% edge values, class first (zero, infinity, NaN, a
// subnormal edge, a normal edge, any of core's edge_values) so that every class of each sign
// gets several percent of draws in every format; 30% a uniform exponent, then a uniform mantissa.
template <format F, class Rng>
typename F::storage bits(Rng& r) {
    using S = typename F::storage;
    const std::uint64_t u = r.next();
    const S sign = (u >> 8) & 1 ? F::sign_mask : S(0);
    const std::uint64_t mode = u % 10, pick = (u >> 16) % 7;
    if (mode < 3) return S(r.next());
    if (mode < 7) {
        switch ((u >> 12) % 6) {
            case 0: return S(sign | F::zero);
            case 1: return S(sign | F::infinity);
            case 2: return nan<F>(r, sign);
            case 3: {  // the subnormal edges and their neighbours
                const S sub[] = {F::denorm_min, S(F::denorm_min + 1), S(F::max_subnormal - 1), F::max_subnormal};
                return S(sign | sub[pick % 4]);
            }
            case 4: {  // the normal edges and their neighbours
                const S normal[] = {F::min_normal, S(F::min_normal + 1), S(F::one - 1), F::one,
                                    S(F::one + 1),  S(F::max_finite - 1), F::max_finite};
                return S(sign | normal[pick]);
            }
            default: {
                static const std::vector<S> edges = edge_values<F>();
                return edges[r.next() % edges.size()];
            }
        }
    }
    const S exponent = S(S(r.next() % (std::uint64_t(1) << F::exponent_bits)) << F::mantissa_bits);
    return S(sign | exponent | S(r.next() & F::mantissa_mask));
}

template <format F, class Rng>
std::vector<typename F::storage> array(Rng& r, int size) {
    using S = typename F::storage;
    // Lengths around the warp (32) and block (1024) boundaries of GPU reductions, and beyond.
    static constexpr std::size_t lengths[] = {0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025};
    const std::uint64_t u = r.next();
    std::size_t n;
    switch ((u >> 8) % 4) {
        case 0: n = lengths[r.next() % std::size(lengths)]; break;
        case 1: n = 1025 + r.next() % 3072; break;                            // larger
        default: n = r.next() % (std::size_t(std::max(size, 0)) + 1); break;  // RapidCheck-sized
    }
    std::vector<S> xs(n);
    switch (u % 8) {
        case 0: {  // ties: a few distinct values, each repeated
            S pool[3];
            for (S& p : pool) p = bits<F>(r);
            const std::uint64_t k = 1 + r.next() % 3;
            for (S& x : xs) x = pool[r.next() % k];
            break;
        }
        case 1: {  // a NaN first, last or in the middle (or all three) of random numbers
            for (S& x : xs) x = bits<F>(r);
            if (n == 0) break;
            const std::uint64_t where = r.next() % 4;
            const S sign = (r.next() & 1) ? F::sign_mask : S(0);
            if (where == 0 || where == 3) xs.front() = nan<F>(r, sign);
            if (where == 1 || where == 3) xs.back() = nan<F>(r, sign);
            if (where == 2 || where == 3) xs[n / 2] = nan<F>(r, sign);
            break;
        }
        case 2: std::fill(xs.begin(), xs.end(), S(F::infinity | F::sign_mask)); break;  // all -inf
        case 3:  // all NaN, mixed signs and payloads
            for (S& x : xs) x = nan<F>(r, (r.next() & 1) ? F::sign_mask : S(0));
            break;
        case 4:  // mixed +-0, now and then another value
            for (S& x : xs) {
                const std::uint64_t v = r.next() % 8;
                x = v < 4 ? F::zero : v < 7 ? F::sign_mask : bits<F>(r);
            }
            break;
        default:
            for (S& x : xs) x = bits<F>(r);
            break;
    }
    return xs;
}

}  // namespace flipcheck::draw
