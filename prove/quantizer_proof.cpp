#include "quantizer_proof.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <z3++.h>

#include "decide.hpp"
#include "elements.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/quantize.hpp"
#include "ieee_terms.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

namespace {

z3::expr fp(z3::context& c, Z3_ast a) { return z3::to_expr(c, a); }

// An element's codes as Z3 terms over their storage bits: which are NaNs, which are the format's,
// and their values (binary64 holds every one exactly). An 8-bit element's by its table; a 16-bit
// one's through the FloatingPoint theory.
template <class E>
struct element_terms {
    z3::context& c;
    static constexpr unsigned bits = sizeof(typename E::storage) * 8;
    z3::expr code(std::uint64_t v) const { return c.bv_val(v, bits); }
    z3::sort own() const { return c.fpa_sort(E::width - E::mantissa_bits - 1, E::mantissa_bits + 1); }
    z3::expr is_nan(const z3::expr& k) const {
        if constexpr (bits == 16) {
            return k.mk_from_ieee_bv(own()).mk_is_nan();
        } else {
            z3::expr r = c.bool_val(false);
            for (unsigned v = 0; v < (1u << bits); ++v)
                if (E::is_nan_bits(typename E::storage(v))) r = r || k == code(v);
            return r;
        }
    }
    // A code of the format (a 6- or 4-bit element's byte has its other bits clear) that is a number.
    z3::expr judged(const z3::expr& k) const {
        if constexpr (bits == 16) return !is_nan(k);
        else if constexpr (E::width < bits) return z3::ult(k, code(std::uint64_t(1) << E::width)) && !is_nan(k);
        else return !is_nan(k);
    }
    z3::expr value(const z3::expr& k) const {
        if constexpr (bits == 16) {
            return fp(c, Z3_mk_fpa_to_fp_float(c, Z3_mk_fpa_rne(c), k.mk_from_ieee_bv(own()), c.fpa_sort(11, 53)));
        } else {
            z3::expr r = c.fpa_nan(c.fpa_sort(11, 53));
            for (unsigned v = 0; v < (1u << E::width); ++v)
                if (!E::is_nan_bits(typename E::storage(v))) r = z3::ite(k == code(v), c.fpa_val(double(E::to_value(typename E::storage(v)))), r);
            return r;
        }
    }
};

}  // namespace

proof prove_quantizer(const compiled_subject& m, const std::string& subject, const proof_options& o) {
    if (m.policy() < 0 || m.policy() / 4 > 2 || m.policy() % 4 > 2) throw input_error(subject + " declares a policy the prover does not know");
    const quantize_policy p{rounding(m.policy() / 4), saturation(m.policy() % 4)};
    proof out = prove_in_format(m, subject, "quantizer", [&]<class F>(proof& out, unsigned significand, unsigned exponent) {
        with_element(m.element_name(), [&]<class E>() {
            if (!can_declare<E>(p))
                throw input_error(subject + " declares saturation=" + std::string(to_string(p.saturate)) + ", which " + std::string(E::name) +
                                  " cannot encode");
            using S = typename F::storage;
            using C = code_t<E>;
            constexpr unsigned w = F::width;
            z3::context c;
            const ieee_terms t(c, w, significand, exponent);
            const element_terms<E> el{c};
            const z3::expr rne = fp(c, Z3_mk_fpa_rne(c));
            auto quantize = [&](const z3::expr& x) { return term_of(c, m.quantize(), {x}).value.extract(el.bits - 1, 0); };

            // The input by the walk's rank, magnitude then sign (rank 2 m + s): the smallest failing
            // rank is the sweep's first counterexample.
            const z3::expr rank = c.bv_const("rank", w), x = z3::concat(rank.extract(0, 0), rank.extract(w - 1, 1));
            const z3::expr negative = t.negative(x), xf = x.mk_from_ieee_bv(t.fp);

            // IEEE 754's rounding of |x| to the element with an exponent range that does not end
            // above, as the magnitude's code (0 up to max_finite, or past it: an overflow) and
            // whether it is exact. In 15 exponent bits every input is a normal number (or 0 or
            // infinity): scalings are exact there.
            // Its significand holds the input's and every element value and midpoint (a 16-bit
            // element's from bfloat16 needs more than the input's 8 bits).
            const unsigned ws = std::max(significand, unsigned(E::mantissa_bits) + 3);
            const z3::sort wide = c.fpa_sort(15, ws);
            const z3::expr a = fp(c, Z3_mk_fpa_to_fp_float(c, rne, fp(c, Z3_mk_fpa_abs(c, xf)), wide));
            auto constant = [&](double v) { return fp(c, Z3_mk_fpa_to_fp_float(c, rne, c.fpa_val(v), wide)); };
            const bool down_always = p.round == rounding::toward_zero;
            const z3::expr down = c.bool_val(down_always) || (c.bool_val(p.round == rounding::up) && negative);
            constexpr unsigned mw = 32;
            std::optional<z3::expr> magnitude_code, exact;
            if constexpr (E::mantissa_bits >= 2) {
                // By Z3's rounding: |x| 2^s into a format of the element's precision whose least
                // exponent is the element's once scaled (binary64's range), so that its subnormals'
                // quantum is the element's and its codes' bits are the element's codes. The scaling
                // is a sum on the exponent field: no multiplier.
                const z3::sort rounded_sort = c.fpa_sort(11, E::mantissa_bits + 1);
                const int scale = E::bias - 1023;  // binary64's least exponent (-1022) less the element's (1 - bias)
                const z3::expr a_bits = a.mk_to_ieee_bv();
                const unsigned ww = a_bits.get_sort().bv_size();
                const z3::expr shifted = a_bits + c.bv_val(std::int64_t(scale) * (std::int64_t(1) << (ws - 1)), ww);
                const z3::expr scaled = z3::ite(a.mk_is_zero() || a.mk_is_inf(), a_bits, shifted).mk_from_ieee_bv(wide);
                const z3::expr rtz = fp(c, Z3_mk_fpa_rtz(c)), rtp = fp(c, Z3_mk_fpa_rtp(c));
                const z3::expr toward = p.round == rounding::nearest_even ? rne : p.round == rounding::toward_zero ? rtz : z3::ite(negative, rtz, rtp);
                const z3::expr r = fp(c, Z3_mk_fpa_to_fp_float(c, toward, scaled, rounded_sort));
                magnitude_code = z3::zext(r.mk_to_ieee_bv(), mw - (12 + E::mantissa_bits));  // sign 0
                exact = fp(c, Z3_mk_fpa_eq(c, fp(c, Z3_mk_fpa_to_fp_float(c, rne, r, wide)), scaled));
            } else {
                // A format of one mantissa bit (float4_e2m1fn) has no FloatingPoint sort (Z3 wants
                // 3 significand bits): the code is counted from the thresholds IEEE's rounding
                // directions draw between its values (code c's value v_c ascends with c, and the
                // value past max_finite is max_finite's plus its binade's step).
                std::vector<double> v;
                for (unsigned k = 0; k <= E::max_finite; ++k) v.push_back(double(E::to_value(typename E::storage(k))));
                v.push_back(v.back() + (v.back() - v[v.size() - 2]));
                auto count = [&](auto&& passed) {
                    z3::expr n = c.bv_val(0, mw);
                    for (std::size_t j = 0; j + 1 < v.size(); ++j) n = n + z3::ite(passed(j), c.bv_val(1, mw), c.bv_val(0, mw));
                    return n;
                };
                const z3::expr nearest = count([&](std::size_t j) {
                    const z3::expr mid = constant((v[j] + v[j + 1]) / 2);
                    return fp(c, Z3_mk_fpa_gt(c, a, mid)) || (c.bool_val((j + 1) % 2 == 0) && fp(c, Z3_mk_fpa_eq(c, a, mid)));
                });
                const z3::expr toward_zero = count([&](std::size_t j) { return fp(c, Z3_mk_fpa_geq(c, a, constant(v[j + 1]))); });
                const z3::expr away = count([&](std::size_t j) { return fp(c, Z3_mk_fpa_gt(c, a, constant(v[j]))); });
                magnitude_code = p.round == rounding::nearest_even ? nearest : p.round == rounding::toward_zero ? toward_zero : z3::ite(negative, toward_zero, away);
                z3::expr on_value = c.bool_val(false);
                for (double value : v) on_value = on_value || fp(c, Z3_mk_fpa_eq(c, a, constant(value)));
                exact = on_value;
            }

            // The code the policy gives (quantize.hpp's header): the sign rule, overflow, +-inf.
            const z3::expr sign = el.code(E::sign_mask);
            auto with_sign = [&](const z3::expr& k) {
                const z3::expr zero = E::has_negative_zero ? z3::ite(negative, sign, el.code(0)) : el.code(0);
                return z3::ite(k == el.code(0), zero, z3::ite(negative, k | sign, k));
            };
            const z3::expr saturated = with_sign(el.code(E::max_finite));
            const z3::expr infinite = p.saturate == saturation::nan || !E::has_infinity ? el.code(E::quiet_nan) : (el.code(E::infinity) | z3::ite(negative, sign, el.code(0)));
            const z3::expr overflow = p.saturate == saturation::finite ? saturated : z3::ite(down, saturated, infinite);
            const z3::expr of_infinity = p.saturate == saturation::finite ? saturated : infinite;
            const z3::expr above = z3::ugt(*magnitude_code, c.bv_val(E::max_finite, mw));
            const z3::expr want = z3::ite(xf.mk_is_inf(), of_infinity, z3::ite(above, overflow, with_sign(magnitude_code->extract(el.bits - 1, 0))));

            // Which law judges an input (check/quantizers.hpp's walk): special for +-inf, |x| above
            // the largest finite code and a zero answer; idempotent where x is a code's value;
            // rounding elsewhere.
            const z3::expr max_value = constant(double(E::to_value(E::max_finite)));
            const z3::expr zero_answer = !el.is_nan(want) && (want & ~sign) == el.code(0);
            const z3::expr special = xf.mk_is_inf() || fp(c, Z3_mk_fpa_gt(c, a, max_value)) || zero_answer;
            const z3::expr got = quantize(x), is_nan = xf.mk_is_nan();
            const z3::expr same = got == want || (el.is_nan(got) && el.is_nan(want));

            // The order law on neighbours of one sign (each magnitude after its predecessor, up to
            // infinity), and -0 against +0; a NaN answer is judged by the other laws.
            const z3::expr m_bits = x & t.bv(~std::uint64_t(F::sign_mask) & std::uint64_t(F::all_ones));
            const z3::expr previous = quantize(x - t.bv(1)), at_zero = quantize(t.bv(0));
            const z3::expr chained = z3::uge(m_bits, t.bv(1)) && z3::ule(m_bits, t.bv(std::uint64_t(F::infinity)));
            const z3::expr gv = el.value(got), pv = el.value(previous);
            const z3::expr in_order = z3::ite(negative, fp(c, Z3_mk_fpa_leq(c, gv, pv)), fp(c, Z3_mk_fpa_geq(c, gv, pv)));
            const z3::expr zeros = !negative || !el.judged(got) || !el.judged(at_zero) || !fp(c, Z3_mk_fpa_gt(c, gv, el.value(at_zero)));
            const z3::expr order = z3::ite(m_bits == t.bv(0), zeros, !chained || !el.judged(got) || !el.judged(previous) || in_order);

            // A refutation at rank k, confirmed by the compiled code judged by flipcheck's own walk
            // of check/quantizers.hpp at that input (and its neighbour).
            auto confirm = [&, p](int law) {
                return [&, p, law](law_verdict& v) {
                    const std::uint64_t k = *v.key;
                    const S xs = S((k >> 1) | ((k & 1) << (w - 1)));
                    v.key = xs;
                    v.where = "input " + hex(xs, int(w)) + " (" + show<F>(xs) + ")";
                    const S neighbour = S(xs & ~F::sign_mask) == 0 ? S(0) : S(xs - 1);
                    const C got_x = C(m.native_quantize(xs)), got_n = C(m.native_quantize(neighbour));
                    const auto code = [](C k) { return show<E>(k); };
                    const double xv = double(F::to_value(xs));
                    bool broken = false;
                    if (law == 0) {
                        const bool judged = !E::is_nan_bits(got_x) && !E::is_nan_bits(got_n) && got_x < (1u << E::width) && got_n < (1u << E::width);
                        const float gx = E::to_value(got_x), gn = E::to_value(got_n);
                        broken = judged && (xs == F::sign_mask ? gx > gn : (xv < 0 ? gx > gn : gx < gn));
                        v.counterexample = "quantize_order: quantize(" + show<F>(neighbour) + ") = " +
                                           code(got_n) + " but quantize(" + show<F>(xs) + ") = " + code(got_x) +
                                           ": the results run against the inputs' order";
                    } else if (xv != xv) {
                        broken = law == 1 && E::nans != nan_encoding::none && !E::is_nan_bits(got_x);
                        v.counterexample = "quantize_special: quantize(" + show<F>(xs) + ") = " + code(got_x) + "; the oracle's: " + code(E::quiet_nan);
                    } else {
                        const C want_x = oracle::quantize<E>(p, xv);
                        const double wv = E::to_value(want_x), av = xv < 0 ? -xv : xv;
                        const bool special = av == double(INFINITY) || av > double(E::to_value(E::max_finite)) || wv == 0.0;
                        broken = !quantize_check::same_code<E>(got_x, want_x) && law == (special ? 1 : wv == xv ? 2 : 3);
                        v.counterexample = std::string(to_string(quantize_check::laws[law])) + ": quantize(" + show<F>(xs) + ") = " +
                                           code(got_x) + "; the oracle's: " + code(want_x);
                    }
                    if (!broken)
                        throw translation_error("the solver refutes " + v.law + " at " + v.where +
                                                ", but the compiled quantizer run natively keeps it there: a bug in flipcheck's translation of "
                                                "this code (please report it with the source)");
                };
            };
            // In quantize_check::laws' order: order, special, idempotent, rounding.
            const z3::expr holds[4] = {order, z3::ite(is_nan, c.bool_val(E::nans == nan_encoding::none) || el.is_nan(got), !special || same),
                                       is_nan || special || !*exact || same, is_nan || special || *exact || same};
            std::vector<law_statement> laws{defined_law(c, x, {{"quantize", &m.quantize()}}, int(w))};
            for (int l = 0; l < 4; ++l) laws.push_back({std::string(to_string(quantize_check::laws[l])), holds[l], rank, std::nullopt, confirm(l)});
            out.laws = decide(c, laws, o);
        });
    });
    out.kind = "quantizer to " + m.element_name() + ", " + std::string(to_string(p.round)) + ", " + std::string(to_string(p.saturate));
    return out;
}

}  // namespace flipcheck::prove
