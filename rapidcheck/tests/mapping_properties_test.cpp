// Every mapping law x every registered mapping x every format it exists on, as RapidCheck properties over
// gen::bits<F>(); and, so that none of them passes vacuously, each law's property run against a
// mutant that breaks it must fail.
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/check/mappings.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "testing.hpp"
#include "registry_types.hpp"

namespace fc = flipcheck;
using fc::law_id;

template <class M>
class MappingLaws : public ::testing::Test {};

using builtin_mappings = fc::props::mapping_types<fc::registry::mappings>;
// Test names read MappingLaws/binary32_sign_flip.successor_order.
TYPED_TEST_SUITE(MappingLaws, builtin_mappings, fc::props::mapping_name);

#define FLIPCHECK_LAW_PROPERTY(law) \
    TYPED_TEST(MappingLaws, law) { fc::props::check_law<TypeParam>(law_id::law); }
FLIPCHECK_LAW_PROPERTY(round_trip_key)
FLIPCHECK_LAW_PROPERTY(round_trip_bits)
FLIPCHECK_LAW_PROPERTY(successor_order)
FLIPCHECK_LAW_PROPERTY(zero_placement)
FLIPCHECK_LAW_PROPERTY(nan_total_order)
FLIPCHECK_LAW_PROPERTY(nan_propagate)
FLIPCHECK_LAW_PROPERTY(nan_ignore)

// The same properties must fail on a mapping that breaks the law, in every format.
template <class M>
void expect_property_fails(law_id l) {
    const auto result = fc::props::run_quietly(fc::props::law_property<M>(l));
    ASSERT_TRUE(result.template is<rc::detail::FailureResult>())
        << "the " << fc::to_string(l) << " property passed on mutant " << M::name << " over " << M::format::name;
}

template <class F>
class MappingLawsCatch : public ::testing::Test {};
TYPED_TEST_SUITE(MappingLawsCatch, fc::props::format_types, fc::props::format_name);

TYPED_TEST(MappingLawsCatch, mutants) {
    using F = TypeParam;
    namespace fm = fc::mutants;
    expect_property_fails<fm::no_invert_negatives<F>>(law_id::round_trip_key);  // not a bijection
    expect_property_fails<fm::no_invert_negatives<F>>(law_id::round_trip_bits);
    expect_property_fails<fm::sign_bit_only<F>>(law_id::successor_order);  // negatives run backwards
    expect_property_fails<fm::zeros_swapped<F>>(law_id::zero_placement);
    expect_property_fails<fm::sign_bit_only<F>>(law_id::nan_total_order);  // -NaN keys land among numbers
    expect_property_fails<fm::sign_bit_only<F>>(law_id::nan_propagate);
    expect_property_fails<fm::sign_bit_only<F>>(law_id::nan_ignore);
    expect_property_fails<fm::zeros_swapped<F>>(law_id::successor_order);  // -0 and +0 out of order
}

// Every registered mapping mutant breaks the law its registry line says is expected to kill it,
// on every format it exists on (the sweep, with only that law, finds a counterexample).
template <class M>
class MutantsBreakTheirLaw : public ::testing::Test {};
using mapping_mutants = fc::props::mapping_types<fc::registry::mapping_mutants>;
TYPED_TEST_SUITE(MutantsBreakTheirLaw, mapping_mutants, fc::props::mapping_name);
TYPED_TEST(MutantsBreakTheirLaw, expected_law) {
    using M = TypeParam;
    fc::law_id expected{};
    fc::registry::for_each<fc::registry::mapping_mutants>([&]<class E>() {
        if (E::name == M::name) expected = E::killed_by;
    });
    fc::sweep_options o;
    o.laws = fc::law_bit(expected);
    o.limit = 1;
    const fc::sweep_report r = fc::sweep_or_sample<M>(o);
    ASSERT_FALSE(r.passed()) << M::name << " over " << M::format::name << " does not break " << fc::to_string(expected)
                             << ", the law its registry line names";
    EXPECT_EQ(r.counterexamples.at(0).law, expected);
}
