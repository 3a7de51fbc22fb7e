// flipcheck-prove against what flipcheck already knows: on the 16-bit formats, where the sweep can
// enumerate every key, the prover's verdict and smallest failing key for each law equal the sweep's
// (flipcheck's C++ laws and oracle, run here on every key) for the built-in mappings and the
// mutants; on binary64 it proves the built-ins and refutes the mutants at keys the native code
// fails; code it cannot read is refused by name and line; undefined behaviour is a failure.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiled_subject.hpp"
#include "flipcheck/catalog/key_mutants.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/check/scales.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/mapping.hpp"
#include "ieee_terms.hpp"
#include "ir_terms.hpp"
#include "prove_subject.hpp"
#include "quantizers.hpp"
#include "scales.hpp"
#include "zoo.hpp"
#include "run_command.hpp"

namespace {

namespace fc = flipcheck;
namespace fp = flipcheck::prove;
using flipcheck::test::run_flipcheck;

const std::string catalogue = std::string(FLIPCHECK_SOURCE) + "/core/include/flipcheck/catalog/mutants.hpp";
const std::string unreadable = std::string(FLIPCHECK_SOURCE) + "/prove/tests/unreadable_mappings.cpp";
const std::string keys = std::string(FLIPCHECK_SOURCE) + "/core/include/flipcheck/catalog/key_mutants.hpp";

fp::proof prove(const std::string& file, const std::string& type) {
    const fp::compiled_subject m({file, type, {}});
    return fp::prove_subject(m, type, {});
}

// The sweep's answer: each law's smallest failing key over every key of a 16-bit format.
template <class M>
std::vector<std::optional<std::uint64_t>> swept() {
    using S = typename M::format::storage;
    std::vector<std::optional<std::uint64_t>> first(fc::mapping_law_count);
    for (std::uint64_t k = 0; k <= std::uint64_t(M::format::all_ones); ++k) {
        const fc::law_set failed = fc::mapping_laws<M>::failures(S(k));
        for (int l = 0; l < fc::mapping_law_count; ++l)
            if ((failed >> l & 1) && !first[l]) first[l] = k;
    }
    return first;
}

struct known {
    std::string type;
    std::function<std::vector<std::optional<std::uint64_t>>()> sweep;
};
#define FLIPCHECK_KNOWN(...) known{#__VA_ARGS__, [] { return swept<__VA_ARGS__>(); }}

TEST(prove, agrees_with_the_sweep_on_every_key_of_the_16_bit_formats) {
    const std::vector<known> cases{
        FLIPCHECK_KNOWN(flipcheck::sign_flip<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::sign_flip_branchless<flipcheck::bfloat16>),
        FLIPCHECK_KNOWN(flipcheck::format_key<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::signed_key<flipcheck::bfloat16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::sign_bit_only<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::no_invert_negatives<flipcheck::bfloat16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::wrong_inverse_branch<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::zeros_swapped<flipcheck::bfloat16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::wrong_at_neg_denorm_min<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::signed_key_as_unsigned<flipcheck::binary16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::byte_sign_key<flipcheck::bfloat16>),
        FLIPCHECK_KNOWN(flipcheck::mutants::unmasked_key<flipcheck::binary16>),
    };
    int refuted = 0, proved = 0;
    for (const known& c : cases) {
        const fp::proof p = prove(catalogue, c.type);
        const auto sweep = c.sweep();
        ASSERT_EQ(p.laws.size(), std::size_t(fc::mapping_law_count + 3)) << c.type;
        EXPECT_EQ(p.laws[0].law, "defined");
        EXPECT_EQ(p.laws[0].result, fp::outcome::proved) << c.type;
        for (int l = 0; l < fc::mapping_law_count; ++l) {
            const fp::law_verdict& v = p.laws[std::size_t(l) + 1];
            EXPECT_EQ(v.law, fc::to_string(fc::law_id(l)));
            if (sweep[std::size_t(l)]) {
                ++refuted;
                EXPECT_EQ(v.result, fp::outcome::refuted) << c.type << " " << v.law;
                EXPECT_EQ(v.key, sweep[std::size_t(l)]) << c.type << " " << v.law;
            } else {
                ++proved;
                EXPECT_EQ(v.result, fp::outcome::proved) << c.type << " " << v.law;
            }
        }
    }
    // Both outcomes were exercised, or the comparison proves nothing.
    EXPECT_GT(refuted, 10);
    EXPECT_GT(proved, 30);
}

// The pair laws against `flipcheck pairs`' own check (check/pairs.hpp) over all 2^32 pairs of
// binary16 codes: the same verdict, and for a wrong mapping the same first row a and its smallest b.
// A right mapping's check reads all 2^32 pairs (a few seconds a law): max only; min's is the same code.
template <class M>
void pairs_agree(const std::string& type, std::initializer_list<fc::reduce_op> ops) {
    const fp::proof p = prove(catalogue, type);
    ASSERT_EQ(p.laws.size(), std::size_t(fc::mapping_law_count + 3));
    for (const fc::reduce_op op : ops) {
        const fp::law_verdict& v = p.laws[op == fc::reduce_op::max ? 8 : 9];
        EXPECT_EQ(v.law, op == fc::reduce_op::max ? "pairs_max" : "pairs_min");
        fc::pairs_options o;
        o.op = op;
        o.limit = 1;
        const fc::pairs_report r = fc::check_pairs<M>(o);
        if (r.counterexamples.empty()) {
            EXPECT_EQ(r.failing_pairs, 0u) << type;
            EXPECT_EQ(v.result, fp::outcome::proved) << type << " " << v.law;
        } else {
            EXPECT_EQ(v.result, fp::outcome::refuted) << type << " " << v.law;
            EXPECT_EQ(v.key, r.counterexamples.front().a) << type << " " << v.law;
            EXPECT_EQ(v.b, r.counterexamples.front().b) << type << " " << v.law;
        }
    }
}

TEST(prove, the_pair_laws_agree_with_flipcheck_pairs_on_binary16) {
    using fc::reduce_op;
    pairs_agree<fc::sign_flip<fc::binary16>>("flipcheck::sign_flip<flipcheck::binary16>", {reduce_op::max});
    pairs_agree<fc::mutants::zeros_swapped<fc::binary16>>("flipcheck::mutants::zeros_swapped<flipcheck::binary16>",
                                                          {reduce_op::max, reduce_op::min});
    pairs_agree<fc::mutants::no_invert_negatives<fc::binary16>>("flipcheck::mutants::no_invert_negatives<flipcheck::binary16>",
                                                                {reduce_op::max, reduce_op::min});
}

// A canonical key against flipcheck's walk of the declared order over every code of a 16-bit
// format (check/canonical_keys.hpp's judge): each law's verdict and first failing position.
template <class X>
void key_agrees(const std::string& type) {
    using F = typename X::format;
    using S = typename F::storage;
    const fp::proof p = prove(keys, type);
    ASSERT_EQ(p.laws.size(), 3u) << type;
    EXPECT_EQ(p.kind, "canonical key");
    EXPECT_EQ(p.laws[0].result, fp::outcome::proved) << type;
    const fc::key_check::declared_order<F> order{X::declared, nullptr, 0, nullptr, 0, true};
    const auto found = fc::key_check::judge<F>(order, [](S x) { return fc::key_word(X::key(x)); }, 0, order.size());
    for (int l = 0; l < 2; ++l) {
        const fp::law_verdict& v = p.laws[std::size_t(l) + 1];
        EXPECT_EQ(v.law, l == 0 ? "key_equivalence" : "key_order");
        if (found.law[l].law < 0) {
            EXPECT_EQ(v.result, fp::outcome::proved) << type << " " << v.law;
        } else {
            EXPECT_EQ(v.result, fp::outcome::refuted) << type << " " << v.law;
            EXPECT_EQ(v.key, found.law[l].at) << type << " " << v.law;
        }
    }
}

TEST(prove, canonical_keys_agree_with_the_walk_on_every_code_of_the_16_bit_formats) {
    key_agrees<fc::total_order_key<fc::binary16>>("flipcheck::total_order_key<flipcheck::binary16>");
    key_agrees<fc::sql_key<fc::bfloat16>>("flipcheck::sql_key<flipcheck::bfloat16>");
    key_agrees<fc::sql_key_bytes<fc::binary16>>("flipcheck::sql_key_bytes<flipcheck::binary16>");
    key_agrees<fc::mutants::sql_key_signed_zeros<fc::binary16>>("flipcheck::mutants::sql_key_signed_zeros<flipcheck::binary16>");
    key_agrees<fc::mutants::sql_key_nan_payloads<fc::bfloat16>>("flipcheck::mutants::sql_key_nan_payloads<flipcheck::bfloat16>");
    key_agrees<fc::mutants::sql_key_little_endian<fc::binary16>>("flipcheck::mutants::sql_key_little_endian<flipcheck::binary16>");
}

// binary64's keys: the built-ins proved over all 2^64 codes; the mutants refuted where the walk's
// step, run natively, fails (the prover confirms it; the positions are the walk's: -0 then +0 at
// 2^63 - 2^52 + 1 under sql, -inf then the largest negative at 1).
TEST(prove, proves_the_binary64_keys_and_refutes_their_mutants) {
    for (const char* type : {"flipcheck::sql_key<flipcheck::binary64>", "flipcheck::total_order_key<flipcheck::binary64>",
                             "flipcheck::sql_key_bytes<flipcheck::binary64>"})
        EXPECT_TRUE(prove(keys, type).passed()) << type;
    const fp::proof zeros = prove(keys, "flipcheck::mutants::sql_key_signed_zeros<flipcheck::binary64>");
    EXPECT_EQ(zeros.laws[1].result, fp::outcome::refuted);
    EXPECT_EQ(zeros.laws[1].key, 0x7ff0000000000001u);
    EXPECT_NE(zeros.laws[1].counterexample.find("(-0 zero) and 0x0000000000000000 (0 zero) are equal under sql"), std::string::npos);
    const fp::proof bytes = prove(keys, "flipcheck::mutants::sql_key_little_endian<flipcheck::binary64>");
    EXPECT_EQ(bytes.laws[2].result, fp::outcome::refuted);
    EXPECT_EQ(bytes.laws[2].key, 1u);
    // A key that widens binary32 to binary64 (fpext, read through the FloatingPoint theory, a NaN
    // any NaN) before binary64's byte key: proved over every binary32 code.
    EXPECT_TRUE(prove(keys, "flipcheck::sql_key_widened<>").passed());
}

TEST(prove, proves_the_built_in_mappings_of_binary32_and_binary64) {
    for (const char* type : {"flipcheck::sign_flip<flipcheck::binary64>", "flipcheck::sign_flip_branchless<flipcheck::binary64>",
                             "flipcheck::format_key<flipcheck::binary64>", "flipcheck::signed_key<flipcheck::binary64>",
                             "flipcheck::sign_flip<flipcheck::binary32>", "flipcheck::signed_key<flipcheck::binary32>"}) {
        const fp::proof p = prove(catalogue, type);
        EXPECT_TRUE(p.passed()) << type;
        EXPECT_EQ(p.width, std::string(type).find("binary64") != std::string::npos ? 64u : 32u);
    }
}

// On binary64 no sweep can say which key is the smallest; the native code must fail the law at the
// key given, and (a check of minimality) the key below must not fail it.
template <class M>
void refuted_natively(const char* type) {
    using S = typename M::format::storage;
    const fp::proof p = prove(catalogue, type);
    int refuted = 0;
    for (std::size_t l = 1; l <= std::size_t(fc::mapping_law_count); ++l) {
        if (p.laws[l].result != fp::outcome::refuted) continue;
        ++refuted;
        const std::uint64_t k = *p.laws[l].key;
        EXPECT_TRUE(fc::mapping_laws<M>::failures(S(k)) >> (l - 1) & 1) << type << " " << p.laws[l].law;
        if (k > 0) {
            EXPECT_FALSE(fc::mapping_laws<M>::failures(S(k - 1)) >> (l - 1) & 1) << type << " " << p.laws[l].law;
        }
        EXPECT_FALSE(p.laws[l].counterexample.empty());
    }
    EXPECT_GT(refuted, 0) << type;
}

TEST(prove, refutes_the_binary64_mutants_where_the_native_code_fails) {
    refuted_natively<fc::mutants::sign_bit_only<fc::binary64>>("flipcheck::mutants::sign_bit_only<flipcheck::binary64>");
    refuted_natively<fc::mutants::wrong_at_neg_denorm_min<fc::binary64>>("flipcheck::mutants::wrong_at_neg_denorm_min<flipcheck::binary64>");
    refuted_natively<fc::mutants::zeros_swapped<fc::binary64>>("flipcheck::mutants::zeros_swapped<flipcheck::binary64>");
    refuted_natively<fc::mutants::wrong_inverse_branch<fc::binary64>>("flipcheck::mutants::wrong_inverse_branch<flipcheck::binary64>");
}

// ---- quantizers (quantizer_proof.cpp) ----------------------------------------------------------

const std::string quantizers = std::string(FLIPCHECK_SOURCE) + "/prove/tests/quantizers.hpp";

// check/quantizers.hpp's walk over every input of a 16-bit format: each law's first failing rank
// (magnitude, then sign), or none.
template <class X>
std::vector<std::optional<std::uint64_t>> swept_quantizer() {
    using F = typename X::format;
    using E = typename X::element;
    using S = typename F::storage;
    namespace qc = fc::quantize_check;
    qc::findings<S, fc::code_t<E>> f;
    const auto slow = [](S x) { return fc::oracle::quantize<E>(X::declared, double(F::to_value(x))); };
    qc::walk<F, E>(f, qc::element_values<E>().data(), [](S x) { return X::quantize(x); }, slow, 0, S(F::sign_mask - 1));
    std::vector<std::optional<std::uint64_t>> first(4);
    for (int l = 0; l < 4; ++l)
        if (f.first[l].rank != ~std::uint64_t(0)) first[std::size_t(l)] = f.first[l].rank;
    return first;
}
std::uint64_t rank_of(std::uint64_t x, unsigned width) {
    const std::uint64_t sign = std::uint64_t(1) << (width - 1);
    return (x & ~sign) * 2 + ((x & sign) ? 1 : 0);
}

#define FLIPCHECK_QUANTIZER(...) known{#__VA_ARGS__, [] { return swept_quantizer<__VA_ARGS__>(); }}

// On every input of bfloat16 and binary16 the prover's verdict for each law, and the rank of its
// smallest failing input, equal the walk's.
void quantizers_agree(const std::vector<known>& cases, int least_refuted, int least_proved) {
    int refuted = 0, proved = 0;
    for (const known& c : cases) {
        const fp::proof p = prove(quantizers, c.type);
        const auto sweep = c.sweep();
        ASSERT_EQ(p.laws.size(), 5u) << c.type;
        EXPECT_EQ(p.laws[0].result, fp::outcome::proved) << c.type;
        for (int l = 0; l < 4; ++l) {
            const fp::law_verdict& v = p.laws[std::size_t(l) + 1];
            EXPECT_EQ(v.law, fc::to_string(fc::quantize_check::laws[l]));
            if (sweep[std::size_t(l)]) {
                ++refuted;
                ASSERT_EQ(v.result, fp::outcome::refuted) << c.type << " " << v.law;
                EXPECT_TRUE(v.smallest) << c.type << " " << v.law;
                EXPECT_EQ(rank_of(*v.key, p.width), sweep[std::size_t(l)]) << c.type << " " << v.law << " at " << v.where;
            } else {
                ++proved;
                EXPECT_EQ(v.result, fp::outcome::proved) << c.type << " " << v.law << " " << v.where;
            }
        }
    }
    EXPECT_GE(refuted, least_refuted);  // the outcome exercised, or the comparison proves nothing
    EXPECT_GE(proved, least_proved);
}

// Built-ins of each rounding direction and saturation, and every way of finding a code and its
// value (Z3's rounding; thresholds for float4_e2m1fn's one mantissa bit; a 16-bit element's value
// through the FloatingPoint theory).
TEST(prove, quantizers_agree_with_the_sweep_on_every_16_bit_input) {
    quantizers_agree({
        FLIPCHECK_QUANTIZER(flipcheck::quantizer<flipcheck::bfloat16, flipcheck::float8_e4m3fn, flipcheck::quantize_policy{}>),
        FLIPCHECK_QUANTIZER(prove_fixture::on_16_bits<flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e5m2, flipcheck::quantize_policy{flipcheck::rounding::up, flipcheck::saturation::infinity}>, flipcheck::binary16>),
        FLIPCHECK_QUANTIZER(prove_fixture::on_16_bits<flipcheck::quantizer<flipcheck::binary32, flipcheck::float4_e2m1fn, flipcheck::quantize_policy{flipcheck::rounding::toward_zero, flipcheck::saturation::finite}>, flipcheck::bfloat16>),
        FLIPCHECK_QUANTIZER(prove_fixture::on_16_bits<flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e4m3fnuz, flipcheck::quantize_policy{flipcheck::rounding::nearest_even, flipcheck::saturation::nan}>, flipcheck::bfloat16>),
        FLIPCHECK_QUANTIZER(flipcheck::quantizer<flipcheck::bfloat16, flipcheck::binary16, flipcheck::quantize_policy{flipcheck::rounding::toward_zero, flipcheck::saturation::infinity}>),
    }, 0, 20);
}

// Mutants: the same laws refuted at the walk's first inputs (ties away from zero, of the zoo: the
// special and rounding laws; -0 above +0: order and special). The zoo's truncation is refuted the
// same way in about 40 s (bench/RESULTS.md), left out of the suite for its time.
TEST(prove, quantizer_mutants_are_refuted_where_the_sweep_first_fails) {
    quantizers_agree({
        FLIPCHECK_QUANTIZER(prove_fixture::on_16_bits<flipcheck::mutants::quantize_ties_away<flipcheck::float8_e4m3fn>, flipcheck::bfloat16>),
        FLIPCHECK_QUANTIZER(prove_fixture::minus_zero_above_plus_zero<flipcheck::float8_e5m2>),
    }, 4, 4);
}

// Beyond 16 bits: the built-in binary32 quantizer and a binary64 quantizer (through the command)
// proved over all 2^32 and 2^64 inputs.
TEST(prove, proves_binary32_and_binary64_quantizers) {
    const fp::proof built_in = prove(quantizers, "flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e4m3fn, flipcheck::quantize_policy{}>");
    EXPECT_TRUE(built_in.passed());
    EXPECT_EQ(built_in.kind, "quantizer to float8_e4m3fn, nearest_even, finite");
    const auto wide = run_flipcheck("prove --source " + quantizers + " --subject 'prove_fixture::binary64_quantizer<flipcheck::float8_e4m3fn>'");
    EXPECT_EQ(wide.exit_code, 0) << wide.output;
    EXPECT_NE(wide.output.find("(binary64 quantizer to float8_e4m3fn, nearest_even, finite, compiled by"), std::string::npos) << wide.output;
    EXPECT_NE(wide.output.find("every input (2^64), by Z3"), std::string::npos) << wide.output;
    EXPECT_NE(wide.output.find("verdict: PASS: 5 laws proved over every input"), std::string::npos) << wide.output;
}

// binary64 to float8 through a float first: double rounding, which no sweep reaches (the prover
// finds it over 2^64 inputs; a counterexample the native code fails, shown smallest or not).
TEST(prove, finds_the_double_rounding_of_a_binary64_quantizer_through_float) {
    const fp::compiled_subject m({quantizers, "prove_fixture::binary64_through_float<flipcheck::float8_e4m3fn>", {}});
    fp::proof_options o;
    o.timeout_ms = 5000;  // the first answer takes about 1.5 s; the bisection after it is what a time-out cuts short
    const fp::proof p = fp::prove_subject(m, "binary64_through_float", o);
    ASSERT_EQ(p.laws[4].law, "quantize_rounding");
    ASSERT_EQ(p.laws[4].result, fp::outcome::refuted);
    const double x = std::bit_cast<double>(*p.laws[4].key);
    const auto got = prove_fixture::binary64_through_float<fc::float8_e4m3fn>::quantize(*p.laws[4].key);
    EXPECT_NE(got, fc::oracle::quantize<fc::float8_e4m3fn>({}, x)) << p.laws[4].where;
    EXPECT_EQ(got, (fc::quantize_bits<fc::float8_e4m3fn, fc::quantize_policy{}>(float(x))));  // the binary32 value's code
    EXPECT_EQ(prove_fixture::binary64_quantizer<fc::float8_e4m3fn>::quantize(*p.laws[4].key), fc::oracle::quantize<fc::float8_e4m3fn>({}, x));
}

// The two statements of IEEE 754's totalOrder checked against each other: flipcheck's C++ oracle
// (oracle.hpp's total_less on the codes' values, as the sweep's laws run it), compiled by clang and
// read through the translator, equals ieee_terms.hpp's (Z3's FloatingPoint theory and the payload
// rule) on every pair of codes of each format, 2^128 for binary64.
TEST(prove, the_oracle_s_total_order_equals_the_smt_statement_on_every_pair_of_codes) {
    const fp::compiled_file oracle(std::string(FLIPCHECK_SOURCE) + "/prove/tests/oracle_order.cpp", {});
    auto agree = [&]<class F>(unsigned significand, unsigned exponent) {
        z3::context c;
        const fp::ieee_terms t(c, F::width, significand, exponent);
        const z3::expr a = c.bv_const("a", F::width), b = c.bv_const("b", F::width);
        const fp::function_term less = fp::term_of(c, oracle.function("oracle_less_" + std::string(F::name)), {a, b});
        z3::solver s(c);
        s.add(!less.defined || ((less.value == c.bv_val(1, 1)) != t.total_less(a, b)));
        EXPECT_EQ(s.check(), z3::unsat) << F::name;
    };
    agree.template operator()<fc::binary16>(11, 5);
    agree.template operator()<fc::bfloat16>(8, 8);
    agree.template operator()<fc::binary32>(24, 8);
    agree.template operator()<fc::binary64>(53, 11);
}

// The prover refuses the subject, naming what it does not read and where.
void expect_refused(const std::string& subject, const std::string& what, const std::string& where) {
    try {
        prove(unreadable, subject);
        ADD_FAILURE() << subject << " was not refused";
    } catch (const fp::refusal& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
}

// A call out of the file, a loop, float arithmetic compiled to change its bits after the IR
// (fast-math's reassociation) and a table in memory: refused by name and line, never proved.
TEST(prove, refuses_code_it_does_not_read_by_name_and_line) {
    expect_refused("calls_opaque", "a call to opaque(unsigned int)", "unreadable_mappings.cpp:15");
    expect_refused("loops", "a loop that clang did not unroll at ", "unreadable_mappings.cpp:");
    expect_refused("reassociated", "fast-math flags", "unreadable_mappings.cpp:64");
    expect_refused("table_key", "memory other than a local variable of a number type", "unreadable_mappings.cpp:55");
    EXPECT_THROW(prove(unreadable, "byte_format"), fc::input_error);
    EXPECT_THROW(prove(unreadable, "no_such_type"), fc::input_error);
    EXPECT_THROW(prove(unreadable + ".missing", "loops"), fc::input_error);
}

TEST(prove, undefined_behaviour_is_a_failure_not_a_proof) {
    const fp::proof p = prove(unreadable, "shifts_too_far");
    EXPECT_FALSE(p.passed());
    ASSERT_EQ(p.laws[0].result, fp::outcome::refuted);
    EXPECT_EQ(p.laws[0].key, 0x80000000u);  // the smallest input whose shift count reaches 32
    EXPECT_NE(p.laws[0].counterexample.find("encode(0x80000000) has undefined behaviour"), std::string::npos) << p.laws[0].counterexample;
    for (std::size_t l = 1; l < p.laws.size(); ++l) EXPECT_EQ(p.laws[l].result, fp::outcome::unknown);
}

// `flipcheck prove`, which runs flipcheck-prove from beside the flipcheck binary.

TEST(prove, the_command_says_proved_fail_or_why_not) {
    const auto pass = run_flipcheck("prove --source " + catalogue + " --subject 'flipcheck::sign_flip<flipcheck::binary64>'");
    EXPECT_EQ(pass.exit_code, 0) << pass.output;
    EXPECT_NE(pass.output.find("every key (2^64) and every pair of codes (2^128), by Z3"), std::string::npos) << pass.output;
    EXPECT_NE(pass.output.find("verdict: PASS: 10 laws proved over every key"), std::string::npos) << pass.output;
    const auto fail = run_flipcheck("prove --source " + catalogue + " --subject 'flipcheck::mutants::zeros_swapped<flipcheck::binary64>'");
    EXPECT_EQ(fail.exit_code, 1) << fail.output;
    EXPECT_NE(fail.output.find("zero_placement: FAIL at key 0x8000000000000000"), std::string::npos) << fail.output;
    EXPECT_NE(fail.output.find("confirmed by running the compiled code"), std::string::npos) << fail.output;
    const auto refused = run_flipcheck("prove --source " + unreadable + " --subject calls_opaque");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_NE(refused.output.find("cannot prove calls_opaque: a call to opaque"), std::string::npos) << refused.output;
    EXPECT_EQ(run_flipcheck("prove --source " + unreadable + " --subject byte_format").exit_code, 2);
    EXPECT_EQ(run_flipcheck("prove --subject x").exit_code, 2);
    EXPECT_EQ(run_flipcheck("prove --source " + unreadable + " --subject loops --timeout 0").exit_code, 2);
    EXPECT_EQ(run_flipcheck("prove --source " + unreadable + " --subject 'int[' ").exit_code, 2);
}

// Several subjects of one file, compiled once: a mapping the solver finds equal to one proved
// before it is proved by that equality, in milliseconds; a mapping that differs at one key is not,
// and is refuted on its own (an equality that held too easily would pass it).
TEST(prove, several_subjects_one_compile_and_equal_mappings_proved_by_their_equality) {
    const std::string json = (std::filesystem::temp_directory_path() / "flipcheck_prove_several.json").string();
    const auto r = run_flipcheck("prove --source " + catalogue + " --subject 'flipcheck::sign_flip<flipcheck::binary64>'" +
                                 " --subject 'flipcheck::mutants::zeros_swapped<flipcheck::binary64>'" +
                                 " --subject 'flipcheck::signed_key<flipcheck::binary64>' --json " + json);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("verdict: PASS: 10 laws proved over every key"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("zero_placement: FAIL at key 0x8000000000000000"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("verdict: PASS: 10 laws proved (equal to flipcheck::sign_flip<flipcheck::binary64>)"), std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("(equal to flipcheck::mutants"), std::string::npos) << r.output;
    const std::string doc = flipcheck::test::read_file(json);
    for (const char* words : {"\"verdict\": \"fail\"", "\"domain\": \"proved\"", "\"equal_to\": \"flipcheck::sign_flip<flipcheck::binary64>\"",
                              "\"input\": \"0x8000000000000000\"", "\"result\": \"refuted\""})
        EXPECT_NE(doc.find(words), std::string::npos) << words << "\n" << doc;
    std::filesystem::remove(json);
    // A report is written only into a plain file: never renamed over a FIFO (or a device: with
    // the guard broken once, this test's rename made the machine's /dev/null a plain file, which is
    // why it names a FIFO of its own) or a folder.
    const std::string fifo = (std::filesystem::temp_directory_path() / "flipcheck_prove_test_fifo").string();
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& not_a_file : {fifo, std::filesystem::temp_directory_path().string()}) {
        const auto refused_path = run_flipcheck("prove --source " + catalogue + " --subject 'flipcheck::sign_flip<flipcheck::binary16>' --json " + not_a_file);
        EXPECT_EQ(refused_path.exit_code, 2) << refused_path.output;
        EXPECT_NE(refused_path.output.find("is not a plain file"), std::string::npos) << refused_path.output;
    }
    EXPECT_TRUE(std::filesystem::is_fifo(fifo));
    std::filesystem::remove(fifo);
    // A run that cannot prove writes why.
    const auto refused = run_flipcheck("prove --source /nonexistent.hpp --subject x --json " + json);
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_NE(flipcheck::test::read_file(json).find("\"error\": \"--source /nonexistent.hpp is not a readable file\""), std::string::npos);
    std::filesystem::remove(json);
}

// The compile cache (compile_cache.hpp) keys on the preprocessed text: the same file again is a hit
// (one entry, the same verdict), an edit to it a miss whose proof is of the new code.
TEST(prove, the_compile_cache_gives_the_new_code_s_verdict_after_an_edit) {
    const auto dir = std::filesystem::temp_directory_path() / "flipcheck_prove_cache_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "cache");
    const std::string file = (dir / "key.hpp").string();
    auto write = [&](const char* sign) {
        std::ofstream(file) << "#include \"flipcheck/format.hpp\"\nstruct my_key {\n  using format = flipcheck::binary64;\n"
                            << "  static unsigned long encode(unsigned long b) { return b >> 63 ? ~b : b | " << sign << "; }\n"
                            << "  static unsigned long decode(unsigned long k) { return k >> 63 ? k & ~" << sign << " : ~k; }\n};\n";
    };
    const std::string env = "FLIPCHECK_PROVE_CACHE=" + (dir / "cache").string();
    auto entries = [&] { return std::distance(std::filesystem::directory_iterator(dir / "cache"), std::filesystem::directory_iterator()); };
    write("(1ul << 63)");
    const auto first = flipcheck::test::run_flipcheck_env(env, "prove --source " + file + " --subject my_key");
    EXPECT_EQ(first.exit_code, 0) << first.output;
    EXPECT_EQ(entries(), 1);
    const auto again = flipcheck::test::run_flipcheck_env(env, "prove --source " + file + " --subject my_key");
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(entries(), 1);
    write("(1ul << 62)");  // the wrong bit: every law the edit breaks must be seen
    const auto edited = flipcheck::test::run_flipcheck_env(env, "prove --source " + file + " --subject my_key");
    EXPECT_EQ(edited.exit_code, 1) << edited.output;
    EXPECT_EQ(entries(), 2);
    std::filesystem::remove_all(dir);
}

// The prover's kill table is the sweep's (issue 54, item 4): every mapping mutant of the registry
// on every format it has (binary16 to binary64), every key mutant and every MX scale mutant on each
// of its elements, compiled once, each refuted
// under the law the registry says kills it in the sweep (`flipcheck mutants`), with a
// counterexample confirmed by running it. A new mutant in the registry is in this table with no
// edit here.
TEST(prove, refutes_every_zoo_mapping_key_and_scale_mutant_under_the_law_that_kills_it_in_the_sweep) {
    struct row {
        std::string subject, name, law;
    };
    std::vector<row> zoo;
    std::size_t i = 0;
    fc::registry::for_each<prove_zoo::mapping_mutants>([&]<class I>() {
        zoo.push_back({"prove_zoo::mapping_mutant<" + std::to_string(i++) + ">",
                       std::string(I::entry::name) + "<" + std::string(I::format::name) + ">", std::string(to_string(I::entry::killed_by))});
    });
    i = 0;
    fc::registry::for_each<prove_zoo::key_mutants>([&]<class I>() {
        zoo.push_back({"prove_zoo::key_mutant<" + std::to_string(i++) + ">",
                       std::string(I::entry::name) + "<" + std::string(I::format::name) + ">", std::string(to_string(I::entry::killed_by))});
    });
    i = 0;
    fc::registry::for_each<prove_zoo::scaling_mutants>([&]<class I>() {
        if constexpr (fc::mx_scale_subject<typename I::type>)
            zoo.push_back({"prove_zoo::scaling_mutant<" + std::to_string(i) + ">",
                           std::string(I::entry::name) + "<" + std::string(I::format::name) + ">", std::string(to_string(I::entry::killed_by))});
        ++i;
    });
    ASSERT_GE(zoo.size(), 35u);
    std::string args = "prove --source " + std::string(FLIPCHECK_SOURCE) + "/prove/tests/zoo.hpp --timeout 60";
    for (const auto& z : zoo) args += " --subject '" + z.subject + "'";
    const std::string json = (std::filesystem::temp_directory_path() / "flipcheck_prove_zoo.json").string();
    const auto r = run_flipcheck(args + " --json " + json);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const nlohmann::json doc = nlohmann::json::parse(flipcheck::test::read_file(json));
    ASSERT_EQ(doc["subjects"].size(), zoo.size()) << doc.dump(1);
    for (std::size_t k = 0; k < zoo.size(); ++k) {
        const nlohmann::json& s = doc["subjects"][k];
        EXPECT_EQ(s["verdict"], "fail") << zoo[k].name;
        bool killed = false;
        for (const auto& l : s["laws"])
            killed = killed || (l["law"] == zoo[k].law && l["result"] == "refuted" && !l["counterexample"].get<std::string>().empty());
        EXPECT_TRUE(killed) << zoo[k].name << " is not refuted under " << zoo[k].law << ":\n" << s.dump(1);
        std::printf("%-40s %-18s %6.2f s\n", zoo[k].name.c_str(), zoo[k].law.c_str(), s["seconds"].get<double>());  // the table, for bench/RESULTS.md
    }
    std::filesystem::remove(json);
}

// MX scales (scale_proof.hpp) from their compiled code, over every non-negative binary32 amax: the
// built-ins of every recipe on every MX element proved (the sweep holds each to the C++ oracle on
// every amax elsewhere, so the SMT statement of the recipes agrees with the oracle wherever they
// answer), and RCEIL by the reciprocal too; a refutation at the amax the sweep (check/scales.hpp,
// every amax, every core) fails first, confirmed natively: the zoo's NaN-blind exponent field and
// an RCEIL that rounds a power of two up.
TEST(prove, proves_the_mx_scales_and_refutes_at_the_sweep_s_first_failing_amax) {
    const std::string source = "prove --source " + std::string(FLIPCHECK_SOURCE) + "/prove/tests/scales.hpp";
    std::string args = source;
    std::size_t built_ins = 0;
    fc::registry::for_each<fc::registry::mx_elements>([&]<class E>() {
        const std::string e = "<flipcheck::" + std::string(E::type::name) + ">";
        args += " --subject 'flipcheck::mx_scale_from_bits" + e + "' --subject 'flipcheck::mx_scale_rceil" + e + "'";
        built_ins += 2;
    });
    args += " --subject 'flipcheck::mx_scale_rceil_eps<flipcheck::float8_e4m3fn>' --subject 'prove_fixture::rceil_by_reciprocal<flipcheck::float4_e2m1fn>'";
    ++built_ins;
    const auto proved = run_flipcheck(args);
    EXPECT_EQ(proved.exit_code, 0) << proved.output;
    std::size_t passes = 0;
    for (auto at = proved.output.find("verdict: PASS: 2 laws proved over every non-negative amax"); at != std::string::npos;
         at = proved.output.find("verdict: PASS: 2 laws proved over every non-negative amax", at + 1))
        ++passes;
    EXPECT_EQ(passes, built_ins + 1) << proved.output;

    auto first_failing = [](auto scale) {  // the sweep's answer: check/scales.hpp over every amax
        using X = decltype(scale);
        const fc::scaling_report r = fc::check_mx_scale_of<typename X::element>([](std::uint32_t a) { return std::uint8_t(X::scale(a)); }, {},
                                                                                fc::declared_recipe<X>(), true);
        return r.passed() ? std::string("none") : fc::hex(fc::parse_case<fc::binary32>(r.replay).first.front(), 32);
    };
    // The sweep's first failing amax of the NaN-blind mutant is the first NaN, 0x7f800001 (below it
    // every amax is finite or +inf, where the exponent field is right): 2^31 amaxes to walk, which
    // the suite leaves to the kill table above; the always-up RCEIL fails far below.
    const std::string always_up = first_failing(prove_fixture::rceil_always_up<fc::float4_e2m1fn>{});
    ASSERT_NE(always_up, "none");  // the fixture is wrong somewhere, or it proves nothing
    const auto refuted = run_flipcheck(source + " --subject 'flipcheck::registry::e8m0_from_exponent_field<flipcheck::float8_e4m3fn>'" +
                                       " --subject 'prove_fixture::rceil_always_up<flipcheck::float4_e2m1fn>'");
    EXPECT_EQ(refuted.exit_code, 1) << refuted.output;
    EXPECT_NE(refuted.output.find("scale_agreement: FAIL at amax 0x7f800001 "), std::string::npos) << refuted.output;
    EXPECT_NE(refuted.output.find("scale_agreement: FAIL at amax " + always_up + " "), std::string::npos) << always_up << "\n" << refuted.output;
    EXPECT_NE(refuted.output.find("the smallest, confirmed by running the compiled code"), std::string::npos) << refuted.output;
}

// A plug-in's own source (examples/plugin.cpp, as `flipcheck check --plugin` builds it), whose
// RCEIL scale and quantizer keep frexp's exponent in a local (alloca, store, load; frexp writes it):
// proved from the file the user wrote.
TEST(prove, reads_a_plug_in_s_source_with_locals_and_frexp) {
    const auto scale = run_flipcheck("prove --source " + std::string(FLIPCHECK_SOURCE) + "/examples/plugin.cpp --subject my::rceil_scale_e4m3");
    EXPECT_EQ(scale.exit_code, 0) << scale.output;
    EXPECT_NE(scale.output.find("verdict: PASS: 2 laws proved over every non-negative amax"), std::string::npos) << scale.output;
    const auto quantizer = run_flipcheck("prove --source " + std::string(FLIPCHECK_SOURCE) + "/examples/plugin.cpp --subject my::to_e4m3");
    EXPECT_EQ(quantizer.exit_code, 0) << quantizer.output;
    EXPECT_NE(quantizer.output.find("verdict: PASS: 5 laws proved over every input"), std::string::npos) << quantizer.output;
}

}  // namespace
