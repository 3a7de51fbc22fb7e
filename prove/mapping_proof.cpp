#include "mapping_proof.hpp"

#include <chrono>
#include <functional>

#include <z3++.h>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/formats.hpp"
#include "flipcheck/law.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

namespace {

// The compiled subject as a flipcheck mapping, so that flipcheck's own laws judge it natively.
const compiled_mapping* native = nullptr;
template <class F>
struct native_mapping {
    using format = F;
    using S = typename F::storage;
    static constexpr std::string_view name = "the compiled subject";
    static S encode(S b) { return S(native->native_encode(b)); }
    static S decode(S k) { return S(native->native_decode(k)); }
};

// The formats whose laws are stated here: IEEE interchange formats, where every pattern is a key.
template <class Fn>
void with_ieee_format(const std::string& name, Fn&& fn) {
    if (name == "binary16") return fn.template operator()<binary16>(11, 5);
    if (name == "bfloat16") return fn.template operator()<bfloat16>(8, 8);
    if (name == "binary32") return fn.template operator()<binary32>(24, 8);
    if (name == "binary64") return fn.template operator()<binary64>(53, 11);
    throw input_error("the prover states the mapping laws for binary16, bfloat16, binary32 and binary64; " + name +
                      " has 2^8 codes or fewer, which `flipcheck sweep` enumerates exhaustively");
}

double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

mapping_proof prove_mapping(const compiled_mapping& m, const std::string& subject, const proof_options& o) {
    mapping_proof out;
    out.subject = subject;
    out.format = m.format_name();
    const auto start = std::chrono::steady_clock::now();
    with_ieee_format(out.format, [&]<class F>(unsigned significand, unsigned exponent) {
        using S = typename F::storage;
        constexpr unsigned w = sizeof(S) * 8;
        out.width = w;
        z3::context c;
        const z3::sort fp = c.fpa_sort(exponent, significand);
        auto bv = [&](std::uint64_t v) { return c.bv_val(v, w); };
        auto call = [&](const llvm::Function& fn, const z3::expr& x) { return term_of(c, fn, {x}).value; };
        auto enc = [&](const z3::expr& x) { return call(m.encode(), x); };
        auto dec = [&](const z3::expr& x) { return call(m.decode(), x); };

        // IEEE 754-2019 totalOrder minus equality, from the FloatingPoint theory.
        const z3::expr sign = bv(std::uint64_t(F::sign_mask)), payload = bv((std::uint64_t(1) << (significand - 1)) - 1);
        auto negative = [&](const z3::expr& b) { return (b & sign) != bv(0); };
        auto is_nan = [&](const z3::expr& b) { return b.mk_from_ieee_bv(fp).mk_is_nan(); };
        auto total_less = [&](const z3::expr& a, const z3::expr& b) {
            const z3::expr x = a.mk_from_ieee_bv(fp), y = b.mk_from_ieee_bv(fp);
            const z3::expr na = x.mk_is_nan(), nb = y.mk_is_nan(), sa = negative(a), sb = negative(b);
            const z3::expr numbers = z3::to_expr(c, Z3_mk_fpa_lt(c, x, y)) || (z3::to_expr(c, Z3_mk_fpa_eq(c, x, y)) && sa && !sb);
            const z3::expr pa = a & payload, pb = b & payload;
            const z3::expr payload_less = (sa && z3::ugt(pa, pb)) || (!sa && z3::ult(pa, pb));
            const z3::expr both_nan = (sa != sb && sa) || (sa == sb && payload_less);
            return (!na && !nb && numbers) || (na && !nb && sa) || (!na && nb && !sb) || (na && nb && both_nan);
        };

        const z3::expr k = c.bv_const("k", w), x = c.bv_const("x", w);
        // Every call below is encode or decode at some input: both defined at every x covers them all.
        const z3::expr defined = term_of(c, m.encode(), {x}).defined && term_of(c, m.decode(), {x}).defined;
        const z3::expr last = bv(std::uint64_t(F::all_ones));
        const z3::expr d0 = dec(k), d1 = dec(k + bv(1)), enc_d0 = enc(d0), enc_k = enc(k), dec_enc_k = dec(enc_k);
        const z3::expr lowest = enc(bv(std::uint64_t(F::lowest))), highest = enc(bv(std::uint64_t(F::highest)));
        const z3::expr qnan = enc(bv(std::uint64_t(F::quiet_nan))), neg_qnan = enc(bv(std::uint64_t(S(F::quiet_nan | F::sign_mask))));
        // law.hpp's mapping_laws, for a format whose every pattern is a key (no unused bits)
        const std::vector<std::pair<law_id, z3::expr>> laws{
            {law_id::round_trip_key, enc_d0 == k},
            {law_id::round_trip_bits, dec_enc_k == k},
            {law_id::successor_order, k == last || total_less(d0, d1)},
            {law_id::zero_placement, d0 != sign || (k != last && d1 == bv(0))},
            {law_id::nan_total_order, !is_nan(d0) || (negative(d0) && z3::ult(k, lowest)) || (!negative(d0) && z3::ugt(k, highest))},
            {law_id::nan_propagate, is_nan(d0) || (z3::ult(k, qnan) && z3::ugt(k, neg_qnan))},
            {law_id::nan_ignore, is_nan(d0) || (z3::uge(k, lowest) && z3::ule(k, highest))},
        };

        // The pair laws (check/pairs.hpp's pair_law), over a and b.
        const z3::expr a = c.bv_const("a", w), b = c.bv_const("b", w);
        auto pair_holds = [&](bool max) {
            const z3::expr ka = enc(a), kb = enc(b);
            const z3::expr got = dec(max ? z3::ite(z3::ugt(ka, kb), ka, kb) : z3::ite(z3::ult(ka, kb), ka, kb));
            const z3::expr a_less = total_less(a, b), b_less = total_less(b, a);
            const z3::expr want = max ? z3::ite(a_less, b, a) : z3::ite(a_less, a, b);
            return got == want || (!a_less && !b_less && (got == a || got == b));
        };

        z3::params p(c);
        p.set("timeout", o.timeout_ms);
        native = &m;
        std::vector<std::pair<std::string, z3::expr>> all{{"defined", defined}};  // over x; the laws over k
        for (const auto& [id, holds] : laws) all.emplace_back(std::string(to_string(id)), holds);
        all.emplace_back("pairs_max", pair_holds(true));
        all.emplace_back("pairs_min", pair_holds(false));
        // The smallest value of var for which the solver's assertions hold, fixed bit by bit from the
        // top. A bit the best model so far has at 0 can be 0 (that model says so) and costs no query;
        // only its 1 bits are asked about, so a key like 0x8000000000000001 takes 2 queries, not 64.
        // Unknown if the solver times out on the way.
        auto smallest = [&](z3::solver& s, const z3::expr& var, z3::check_result& r) {
            std::uint64_t best = s.get_model().eval(var, true).get_numeral_uint64();
            s.push();
            for (int bit = int(w) - 1; bit >= 0 && r != z3::unknown; --bit) {
                const z3::expr at = var.extract(unsigned(bit), unsigned(bit));
                if (best >> bit & 1) {
                    s.push();
                    s.add(at == c.bv_val(0, 1));
                    r = s.check();
                    if (r == z3::sat) best = s.get_model().eval(var, true).get_numeral_uint64();
                    s.pop();
                }
                s.add(at == c.bv_val(unsigned(best >> bit & 1), 1));
            }
            s.pop();
            if (r != z3::unknown) r = z3::sat;  // best is a model's
            return best;
        };
        native = &m;
        for (const auto& [name, holds] : all) {
            law_verdict v;
            v.law = name;
            if (!out.laws.empty() && out.laws.front().result != outcome::proved) {  // not what the code computes
                out.laws.push_back(v);
                continue;
            }
            const auto t = std::chrono::steady_clock::now();
            z3::solver s(c);
            s.set(p);
            s.add(!holds);
            z3::check_result r = s.check();
            const bool pair = name.rfind("pairs_", 0) == 0;
            if (r == z3::sat) {
                // The smallest failing input, in the sweep's order: the key; for a pair law the row a,
                // then b in it (`flipcheck pairs` reports each row's smallest b).
                const std::uint64_t first = smallest(s, name == "defined" ? x : pair ? a : k, r);
                v.key = first;
                if (pair && r == z3::sat) {
                    s.add(a == bv(first));
                    r = s.check();
                    if (r == z3::sat) v.b = smallest(s, b, r);
                }
                v.result = r == z3::unknown ? outcome::unknown : outcome::refuted;
                const std::uint64_t hi = first;
                if (v.result == outcome::refuted && name == "defined") {
                    z3::solver which(c);
                    which.add(!term_of(c, m.encode(), {bv(hi)}).defined);
                    const bool in_encode = which.check() == z3::sat;
                    v.counterexample = std::string(in_encode ? "encode" : "decode") + "(" + hex(hi, F::width) +
                                       ") has undefined behaviour: a shift by the width or more, an nsw/nuw overflow, a division by "
                                       "zero or unreachable code reached (LLVM's poison)";
                } else if (v.result == outcome::refuted && pair) {
                    using step = pair_law<native_mapping<F>>;
                    const reduce_op op = name == "pairs_max" ? reduce_op::max : reduce_op::min;
                    const S sa = S(first), sb = S(*v.b), got = step::combine(sa, sb, op);
                    if (step::holds(sa, sb, got, op))
                        throw translation_error("the solver refutes " + v.law + " at a=" + hex(first, F::width) + ", b=" + hex(*v.b, F::width) +
                                                ", but the compiled code run natively keeps it there: a bug in flipcheck's translation "
                                                "of this code (please report it with the source)");
                    const std::string what = op == reduce_op::max ? "max" : "min";
                    v.counterexample = what + "(" + show<F>(sa) + ", " + show<F>(sb) + ") through the keys gives " + show<F>(got) +
                                       "; totalOrder's " + what + ": " + show<F>(step::expected(sa, sb, op));
                } else if (v.result == outcome::refuted) {
                    // Confirmed by the code itself, judged by the C++ oracle.
                    const law_id id = laws[out.laws.size() - 1].first;
                    using laws_of = mapping_laws<native_mapping<F>>;
                    if (!(laws_of::failures(S(hi)) & law_bit(id)))
                        throw translation_error("the solver refutes " + v.law + " at key " + hex(hi, F::width) +
                                                ", but the compiled code run natively keeps it there: a bug in flipcheck's translation "
                                                "of this code (please report it with the source)");
                    v.counterexample = describe_mapping_failure<F>(subject, laws_of::explain(id, S(hi)));
                }
            } else {
                v.result = r == z3::unsat ? outcome::proved : outcome::unknown;
            }
            v.seconds = since(t);
            out.laws.push_back(v);
        }
        native = nullptr;
    });
    out.seconds = since(start);
    return out;
}

}  // namespace flipcheck::prove
