// What the prover's laws say about an IEEE format's codes, as Z3 terms over their bits: NaN-ness
// and IEEE 754 totalOrder written with Z3's FloatingPoint theory (fp.lt, fp.eq, fp.isNaN) plus the
// payload rule, sharing no code with flipcheck's C++ oracle; and the formats the prover states
// laws for. Also the search every refutation uses: the smallest input the solver allows.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <cstdio>
#include <cstdlib>

#include <z3++.h>

#include "flipcheck/error.hpp"
#include "flipcheck/formats.hpp"

namespace flipcheck::prove {

// fn.template operator()<F>(significand bits, exponent bits) for the IEEE format of that name.
template <class Fn>
void with_ieee_format(const std::string& name, Fn&& fn) {
    if (name == "binary16") return fn.template operator()<binary16>(11, 5);
    if (name == "bfloat16") return fn.template operator()<bfloat16>(8, 8);
    if (name == "binary32") return fn.template operator()<binary32>(24, 8);
    if (name == "binary64") return fn.template operator()<binary64>(53, 11);
    throw input_error("the prover states its laws for binary16, bfloat16, binary32 and binary64; " + name +
                      " has 2^8 codes or fewer, which `flipcheck sweep` and `flipcheck check` enumerate exhaustively");
}

struct ieee_terms {
    z3::context& c;
    unsigned width, significand;
    z3::sort fp;
    ieee_terms(z3::context& ctx, unsigned w, unsigned sig, unsigned exp) : c(ctx), width(w), significand(sig), fp(ctx.fpa_sort(exp, sig)) {}

    z3::expr bv(std::uint64_t v) const { return c.bv_val(v, width); }
    z3::expr negative(const z3::expr& b) const { return (b & bv(std::uint64_t(1) << (width - 1))) != bv(0); }
    z3::expr is_nan(const z3::expr& b) const { return b.mk_from_ieee_bv(fp).mk_is_nan(); }
    // totalOrder(a, b) without equality: a precedes b.
    z3::expr total_less(const z3::expr& a, const z3::expr& b) const {
        const z3::expr x = a.mk_from_ieee_bv(fp), y = b.mk_from_ieee_bv(fp);
        const z3::expr na = x.mk_is_nan(), nb = y.mk_is_nan(), sa = negative(a), sb = negative(b);
        const z3::expr numbers = z3::to_expr(c, Z3_mk_fpa_lt(c, x, y)) || (z3::to_expr(c, Z3_mk_fpa_eq(c, x, y)) && sa && !sb);
        const z3::expr payload = bv((std::uint64_t(1) << (significand - 1)) - 1);
        const z3::expr pa = a & payload, pb = b & payload;
        const z3::expr payload_less = (sa && z3::ugt(pa, pb)) || (!sa && z3::ult(pa, pb));
        const z3::expr both_nan = (sa != sb && sa) || (sa == sb && payload_less);
        return (!na && !nb && numbers) || (na && !nb && sa) || (!na && nb && !sb) || (na && nb && both_nan);
    }
};

// The smallest value of var for which the solver's assertions hold, the solver's last answer
// being sat: fixed bit by bit from the top. A bit the best model so far has at 0 can be 0 (that
// model says so) and costs no query; only its 1 bits are asked about, so 0x8000000000000001 takes
// 2 queries, not 64. r becomes unknown if the solver times out on the way, else stays sat.
inline double seconds_since(std::chrono::steady_clock::time_point t);
inline std::uint64_t smallest_input(z3::solver& s, const z3::expr& var, z3::check_result& r) {
    z3::context& c = var.ctx();
    const unsigned w = var.get_sort().bv_size();
    std::uint64_t best = s.get_model().eval(var, true).get_numeral_uint64();
    s.push();
    // A variable may be wider than 64 bits (the key walk's positions); its values here are not.
    auto bit_of = [&](int bit) { return bit < 64 ? unsigned(best >> bit & 1) : 0u; };
    for (int bit = int(w) - 1; bit >= 0 && r != z3::unknown; --bit) {
        const z3::expr at = var.extract(unsigned(bit), unsigned(bit));
        if (bit_of(bit)) {
            s.push();
            s.add(at == c.bv_val(0, 1));
            const auto t0 = std::chrono::steady_clock::now();
            r = s.check();
            if (std::getenv("FLIPCHECK_PROVE_TRACE")) std::fprintf(stderr, "bit %d: %s %.2f s\n", bit, r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", seconds_since(t0));
            if (r == z3::sat) best = s.get_model().eval(var, true).get_numeral_uint64();
            s.pop();
        }
        s.add(at == c.bv_val(bit_of(bit), 1));
    }
    s.pop();
    if (r != z3::unknown) r = z3::sat;
    return best;
}

inline double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace flipcheck::prove
