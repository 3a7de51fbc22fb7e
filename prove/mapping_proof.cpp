#include "mapping_proof.hpp"

#include <chrono>

#include <z3++.h>

#include "decide.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/law.hpp"
#include "ieee_terms.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

namespace {

// The compiled subject as a flipcheck mapping, so that flipcheck's own laws judge it natively.
const compiled_subject* native = nullptr;
template <class F>
struct native_mapping {
    using format = F;
    using S = typename F::storage;
    static constexpr std::string_view name = "the compiled subject";
    static S encode(S b) { return S(native->native_encode(b)); }
    static S decode(S k) { return S(native->native_decode(k)); }
};

std::string disagreement(const std::string& law, const std::string& where) {
    return "the solver refutes " + law + " at " + where + ", but the compiled code run natively keeps it there: a bug in "
           "flipcheck's translation of this code (please report it with the source)";
}

}  // namespace

proof prove_mapping(const compiled_subject& m, const std::string& subject, const proof_options& o) {
    return prove_in_format(m, subject, "mapping", [&]<class F>(proof& out, unsigned significand, unsigned exponent) {
        using S = typename F::storage;
        constexpr unsigned w = F::width;
        z3::context c;
        const ieee_terms t(c, w, significand, exponent);
        auto bv = [&](std::uint64_t v) { return t.bv(v); };
        auto enc = [&](const z3::expr& x) { return term_of(c, m.encode(), {x}).value; };
        auto dec = [&](const z3::expr& x) { return term_of(c, m.decode(), {x}).value; };

        // Every call below is encode or decode at some input: both defined at every x covers them all.
        const z3::expr k = c.bv_const("k", w), x = c.bv_const("x", w), a = c.bv_const("a", w), b = c.bv_const("b", w);
        std::vector<law_statement> laws{defined_law(c, x, {{"encode", &m.encode()}, {"decode", &m.decode()}}, F::width)};

        // law.hpp's mapping_laws over k, for a format whose every pattern is a key (no unused bits).
        const z3::expr sign = bv(std::uint64_t(F::sign_mask)), last = bv(std::uint64_t(F::all_ones));
        const z3::expr d0 = dec(k), d1 = dec(k + bv(1)), enc_d0 = enc(d0), enc_k = enc(k), dec_enc_k = dec(enc_k);
        const z3::expr lowest = enc(bv(std::uint64_t(F::lowest))), highest = enc(bv(std::uint64_t(F::highest)));
        const z3::expr qnan = enc(bv(std::uint64_t(F::quiet_nan))), neg_qnan = enc(bv(std::uint64_t(S(F::quiet_nan | F::sign_mask))));
        const std::vector<std::pair<law_id, z3::expr>> key_laws{
            {law_id::round_trip_key, enc_d0 == k},
            {law_id::round_trip_bits, dec_enc_k == k},
            {law_id::successor_order, k == last || t.total_less(d0, d1)},
            {law_id::zero_placement, d0 != sign || (k != last && d1 == bv(0))},
            {law_id::nan_total_order,
             !t.is_nan(d0) || (t.negative(d0) && z3::ult(k, lowest)) || (!t.negative(d0) && z3::ugt(k, highest))},
            {law_id::nan_propagate, t.is_nan(d0) || (z3::ult(k, qnan) && z3::ugt(k, neg_qnan))},
            {law_id::nan_ignore, t.is_nan(d0) || (z3::uge(k, lowest) && z3::ule(k, highest))},
        };
        for (const auto& [id, holds] : key_laws)
            laws.push_back({std::string(to_string(id)), holds, k, std::nullopt, [&, id = id](law_verdict& v) {
                                // Confirmed by the code itself, judged by the C++ oracle.
                                using laws_of = mapping_laws<native_mapping<F>>;
                                v.where = "key " + hex(*v.key, F::width);
                                if (!(laws_of::failures(S(*v.key)) & law_bit(id))) throw translation_error(disagreement(v.law, v.where));
                                v.counterexample = describe_mapping_failure<F>(subject, laws_of::explain(id, S(*v.key)));
                            }});

        // The pair laws (check/pairs.hpp's pair_law) over a and b.
        for (const reduce_op op : {reduce_op::max, reduce_op::min}) {
            const bool max = op == reduce_op::max;
            const z3::expr ka = enc(a), kb = enc(b);
            const z3::expr got = dec(max ? z3::ite(z3::ugt(ka, kb), ka, kb) : z3::ite(z3::ult(ka, kb), ka, kb));
            const z3::expr a_less = t.total_less(a, b), b_less = t.total_less(b, a);
            const z3::expr want = max ? z3::ite(a_less, b, a) : z3::ite(a_less, a, b);
            laws.push_back({max ? "pairs_max" : "pairs_min", got == want || (!a_less && !b_less && (got == a || got == b)), a, b,
                            [&, op](law_verdict& v) {
                                using step = pair_law<native_mapping<F>>;
                                const S sa = S(*v.key), sb = S(*v.b), got = step::combine(sa, sb, op);
                                v.where = "a=" + hex(sa, F::width) + ", b=" + hex(sb, F::width);
                                if (step::holds(sa, sb, got, op)) throw translation_error(disagreement(v.law, v.where));
                                const std::string what = op == reduce_op::max ? "max" : "min";
                                v.counterexample = what + "(" + show<F>(sa) + ", " + show<F>(sb) + ") through the keys gives " +
                                                   show<F>(got) + "; totalOrder's " + what + ": " + show<F>(step::expected(sa, sb, op));
                            }});
        }
        native = &m;
        out.laws = decide(c, laws, o);
        native = nullptr;
    });
}

std::optional<proof> prove_equal(const compiled_subject& m, const std::string& subject, const compiled_subject& of, const proof& proved,
                                 const proof_options& o) {
    if (!proved.passed() || m.format_name() != of.format_name() || m.is_key() || m.is_quantizer() || m.is_scale() || of.is_key() || of.is_quantizer() || of.is_scale())
        return std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    z3::context c;
    z3::params params(c);
    params.set("timeout", o.timeout_ms);
    const unsigned w = proved.width;
    const z3::expr x = c.bv_const("x", w);
    const function_term me = term_of(c, m.encode(), {x}), md = term_of(c, m.decode(), {x});
    const function_term oe = term_of(c, of.encode(), {x}), od = term_of(c, of.decode(), {x});
    z3::solver s(c);
    s.set(params);
    s.add(!(me.defined && md.defined && me.value == oe.value && md.value == od.value));
    if (s.check() != z3::unsat) return std::nullopt;
    proof out = proved;
    out.subject = subject;
    out.equal_to = proved.subject;
    out.seconds = seconds_since(start);
    for (auto& l : out.laws) l.seconds = 0;  // decided in the equality's time, once for all
    return out;
}

}  // namespace flipcheck::prove
