#include "scale_proof.hpp"

#include <bit>
#include <chrono>

#include <z3++.h>

#include "decide.hpp"
#include "elements.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/scales.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/scale_recipe.hpp"
#include "ieee_terms.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

namespace {

z3::expr fp(z3::context& c, Z3_ast a) { return z3::to_expr(c, a); }

}  // namespace

proof prove_scale(const compiled_subject& m, const std::string& subject, const proof_options& o) {
    const scale_recipe recipe{m.recipe_ceil() ? scale_rounding::ceil : scale_rounding::floor, std::bit_cast<float>(m.recipe_amax_floor()),
                              m.recipe_ceil() ? (m.recipe_amax_floor() ? rceil_eps.name : rceil.name) : ocp_floor.name};
    if (!(recipe.amax_floor >= 0.0f) || (recipe.round == scale_rounding::floor && recipe.amax_floor != 0.0f))
        throw input_error(subject + " declares a recipe the prover does not know (an amax floor on a floor recipe, or a negative one)");
    proof out;
    out.subject = subject;
    out.format = "binary32";
    out.width = 32;
    const auto start = std::chrono::steady_clock::now();
    with_element(m.element_name(), [&]<class E>() {
        out.kind = "mx scale for " + std::string(E::name) + ", recipe " + std::string(recipe.name);
        const float max_elem = E::to_value(E::max_finite);
        z3::context c;
        const z3::sort f32 = c.fpa_sort(8, 24), wide = c.fpa_sort(15, 24);
        const z3::expr rne = fp(c, Z3_mk_fpa_rne(c));
        const z3::expr a = c.bv_const("amax", 32);
        const z3::expr af = a.mk_from_ieee_bv(f32);
        auto constant = [&](float v) { return c.bv_val(std::bit_cast<std::uint32_t>(v), 32).mk_from_ieee_bv(f32); };
        auto code = [&](std::int64_t k) { return c.bv_val(k, 8); };
        // floor(log2 v) and whether v is a power of two, for a positive finite v: its exponent and
        // mantissa in 15 exponent bits, where every binary32 value is normal.
        auto exponent_of = [&](const z3::expr& v) {
            const z3::expr bits = fp(c, Z3_mk_fpa_to_fp_float(c, rne, v, wide)).mk_to_ieee_bv();  // 1 + 15 + 23 bits, exact
            return z3::zext(bits.extract(37, 23), 17) - c.bv_val(16383, 32);
        };
        auto mantissa_zero = [&](const z3::expr& v) {
            return fp(c, Z3_mk_fpa_to_fp_float(c, rne, v, wide)).mk_to_ieee_bv().extract(22, 0) == c.bv_val(0, 23);
        };
        auto clamped = [&](const z3::expr& biased) {  // a 32-bit signed code, clamped to [0, 254]
            return z3::ite(biased < c.bv_val(0, 32), code(0), z3::ite(biased > c.bv_val(254, 32), code(254), biased.extract(7, 0)));
        };
        // scale_recipe.hpp's rules, restated: NaN 0xff, +inf 0xfe, zero 0x00; the amax floor first.
        const z3::expr v = recipe.amax_floor > 0 ? z3::ite(fp(c, Z3_mk_fpa_lt(c, af, constant(recipe.amax_floor))), constant(recipe.amax_floor), af) : af;
        z3::expr want = code(0);
        if (recipe.round == scale_rounding::floor) {
            const int emax = E::exponent_field(E::max_finite) - E::bias;  // floor(log2 max_E): emax_of<E>
            want = z3::ite(v.mk_is_zero(), code(0), clamped(exponent_of(v) - c.bv_val(emax - 127, 32)));
        } else {
            const z3::expr q = fp(c, Z3_mk_fpa_div(c, rne, v, constant(max_elem)));  // IEEE's binary32 quotient, to nearest
            const z3::expr up = z3::ite(mantissa_zero(q), c.bv_val(0, 32), c.bv_val(1, 32));  // ceil(log2 q)
            want = z3::ite(v.mk_is_zero() || q.mk_is_zero(), code(0), clamped(exponent_of(q) + up + c.bv_val(127, 32)));
        }
        want = z3::ite(af.mk_is_nan(), code(0xff), z3::ite(af.mk_is_inf(), code(0xfe), want));
        const z3::expr got = term_of(c, m.scale(), {a}).value.extract(7, 0);
        const z3::expr non_negative = z3::ule(a, c.bv_val(0x7fffffffu, 32));

        std::vector<law_statement> laws{defined_law(c, a, {{"scale", &m.scale()}}, 32)};
        laws.push_back({std::string(to_string(law_id::scale_agreement)), !non_negative || got == want, a, std::nullopt,
                        [&, recipe, max_elem](law_verdict& v) {
                            // Confirmed by the compiled scale, judged by flipcheck's oracle (check/scales.hpp's words).
                            const std::uint32_t bits = std::uint32_t(*v.key);
                            const std::uint8_t got_code = m.native_scale(bits), want_code = oracle::recipe_scale(recipe, max_elem, std::bit_cast<float>(bits));
                            v.where = "amax " + hex(bits, 32) + " (" + show<binary32>(bits) + ")";
                            if (got_code == want_code)
                                throw translation_error("the solver refutes scale_agreement at " + v.where +
                                                        ", but the compiled scale run natively keeps it there: a bug in flipcheck's "
                                                        "translation of this code (please report it with the source)");
                            v.counterexample = "the e8m0 scale of amax " + show<binary32>(bits) + " for " + std::string(E::name) +
                                               " elements is " + show_e8m0(got_code) + "; recipe " + std::string(recipe.name) +
                                               "'s: " + show_e8m0(want_code);
                        }});
        out.laws = decide(c, laws, o);
    });
    out.seconds = seconds_since(start);
    return out;
}

}  // namespace flipcheck::prove
