// flipcheck-prove against what flipcheck already knows: on the 16-bit formats, where the sweep can
// enumerate every key, the prover's verdict and smallest failing key for each law equal the sweep's
// (flipcheck's C++ laws and oracle, run here on every key) for the built-in mappings and the
// mutants; on binary64 it proves the built-ins and refutes the mutants at keys the native code
// fails; code it cannot read is refused by name and line; undefined behaviour is a failure.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiled_subject.hpp"
#include "flipcheck/catalog/key_mutants.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/mapping.hpp"
#include "ir_terms.hpp"
#include "prove_subject.hpp"
#include "run_command.hpp"

namespace {

namespace fc = flipcheck;
namespace fp = flipcheck::prove;

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
    // A key that widens through a float conversion is refused by name (fpext), not guessed.
    try {
        prove(keys, "flipcheck::sql_key_widened<>");
        FAIL() << "fpext was not refused";
    } catch (const fp::refusal& e) {
        EXPECT_NE(std::string(e.what()).find("(fpext)"), std::string::npos) << e.what();
    }
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

TEST(prove, refuses_code_it_does_not_read_by_name_and_line) {
    try {
        prove(unreadable, "calls_opaque");
        FAIL() << "a call to an unknown function was not refused";
    } catch (const fp::refusal& e) {
        EXPECT_NE(std::string(e.what()).find("a call to opaque(unsigned int)"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("unreadable_mappings.cpp:14"), std::string::npos) << e.what();
    }
    try {
        prove(unreadable, "loops");
        FAIL() << "a loop was not refused";
    } catch (const fp::refusal& e) {
        EXPECT_NE(std::string(e.what()).find("a loop that clang did not unroll at "), std::string::npos) << e.what();
    }
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
using flipcheck::test::run_flipcheck;

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

}  // namespace
