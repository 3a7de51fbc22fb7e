#include "key_proof.hpp"

#include <z3++.h>

#include "decide.hpp"
#include "flipcheck/canonical_key.hpp"
#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/check/describe.hpp"
#include "ieee_terms.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

proof prove_key(const compiled_subject& m, const std::string& subject, const proof_options& o) {
    if (m.declared() < 0 || m.declared() > 2) throw input_error(subject + " declares an equivalence the prover does not know");
    const auto e = equivalence(m.declared());
    return prove_in_format(m, subject, "canonical key", [&]<class F>(proof& out, unsigned significand, unsigned exponent) {
        using S = typename F::storage;
        constexpr unsigned w = F::width;
        z3::context c;
        const ieee_terms t(c, w, significand, exponent);
        // Positions and counts in w + 2 bits: the walk has up to 2^w + 2 positions, and binary64's
        // 2 n alone is past 2^64.
        constexpr unsigned pw = w + 2;
        auto p = [&](std::uint64_t v) { return c.bv_val(v, pw); };
        const std::uint64_t inf = F::infinity, sign = F::sign_mask, q = std::uint64_t(S(F::sign_mask - 1)) - inf;
        const z3::expr n = p(inf) + p(1), two_n = n + n, nans = p(q);
        const z3::expr size = e == equivalence::numeric ? two_n : two_n + nans + nans;
        // declared_order<F>::at(i) with every code: -NaNs (total_order), the negatives from -inf to
        // -0, the positives from +0 to +inf, the positive NaNs, then (sql) the negative ones.
        auto at = [&](const z3::expr& i0) {
            auto code = [&](const z3::expr& v) { return v.extract(w - 1, 0); };
            const z3::expr signed_code = t.bv(sign), first_nan = p(inf) + p(1);
            const z3::expr i = e == equivalence::total_order ? i0 - nans : i0;
            z3::expr r = signed_code | code(first_nan + (i - two_n - nans));  // sql's negative NaNs
            r = z3::ite(z3::ult(i, two_n + nans), code(first_nan + (i - two_n)), r);
            r = z3::ite(z3::ult(i, two_n), code(i - n), r);
            r = z3::ite(z3::ult(i, n), signed_code | code(n - p(1) - i), r);
            if (e == equivalence::total_order) r = z3::ite(z3::ult(i0, nans), signed_code | code(first_nan + (nans - p(1) - i0)), r);
            return r;
        };
        auto nan_bits = [&](const z3::expr& x) { return z3::ugt(x & t.bv(~sign & F::all_ones), t.bv(inf)); };
        auto one_class = [&](const z3::expr& a, const z3::expr& b) {
            if (e == equivalence::total_order) return c.bool_val(false);
            const z3::expr zeros = a == t.bv(sign) && b == t.bv(0);
            return e == equivalence::sql ? zeros || (nan_bits(a) && nan_bits(b)) : zeros;
        };
        auto key = [&](const z3::expr& x) { return term_of(c, m.key(), {x}).value; };

        const z3::expr x = c.bv_const("x", w), i = c.bv_const("i", pw);
        const z3::expr a = at(i - p(1)), b = at(i);
        const z3::expr in_walk = z3::uge(i, p(1)) && z3::ult(i, size), same = one_class(a, b);
        const z3::expr ka = key(a), kb = key(b);

        // A refutation at position i, confirmed by the walk's own step on the native key (the step
        // of check/canonical_keys.hpp's judge, whose loop bound has no 64-bit form for binary64).
        const key_check::declared_order<F> order{e, nullptr, 0, nullptr, 0, true};
        auto confirm = [&](int law) {
            return [&, law](law_verdict& v) {
                const std::uint64_t at_i = *v.key;
                const S ca = order.at(at_i - 1), cb = order.at(at_i);
                const std::uint64_t kca = m.native_key(ca), kcb = m.native_key(cb);
                v.where = "position " + std::to_string(at_i) + " of the declared order (" + hex(ca, F::width) + ", " + hex(cb, F::width) + ")";
                if (!order.in_order(ca, cb)) throw translation_error("the declared order's walk is out of order at " + v.where + ": a bug in flipcheck");
                const int broken = order.one_class(ca, cb) ? (kcb == kca ? -1 : 0) : (kca < kcb ? -1 : 1);
                if (broken != law)
                    throw translation_error("the solver refutes " + v.law + " at " + v.where +
                                            ", but the compiled key run natively keeps it there: a bug in flipcheck's translation of this "
                                            "code (please report it with the source)");
                v.counterexample = v.law + ": " + show<F>(ca) + " and " + show<F>(cb) + " are " + (law == 0 ? "equal" : "in order") +
                                   " under " + std::string(to_string(e)) + ", but their keys are " + hex(kca, int(m.key_bits())) + " and " +
                                   hex(kcb, int(m.key_bits()));
            };
        };
        const std::vector<law_statement> laws{
            defined_law(c, x, {{"key", &m.key()}}, F::width),
            {"key_equivalence", !in_walk || !same || ka == kb, i, std::nullopt, confirm(0)},
            {"key_order", !in_walk || same || z3::ult(ka, kb), i, std::nullopt, confirm(1)},
        };
        out.laws = decide(c, laws, o);
    });
}

}  // namespace flipcheck::prove
