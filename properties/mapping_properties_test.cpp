// Every mapping law x every built-in mapping x every format, as RapidCheck properties over
// gen::bits<F>(); and, so that none of them passes vacuously, each law's property run against a
// mutant that breaks it must fail.
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/mapping.hpp"
#include "flipcheck/mutants.hpp"
#include "plugin.hpp"

namespace fc = flipcheck;
using fc::law_id;

template <class M>
class MappingLaws : public ::testing::Test {};

#define FLIPCHECK_ALL_FORMATS(Mapping) Mapping<fc::binary16>, Mapping<fc::bfloat16>, Mapping<fc::binary32>, Mapping<fc::binary64>
using builtin_mappings = ::testing::Types<FLIPCHECK_ALL_FORMATS(fc::sign_flip), FLIPCHECK_ALL_FORMATS(fc::sign_flip_branchless),
                                          FLIPCHECK_ALL_FORMATS(fc::signed_key)>;

// Test names read MappingLaws/binary32_sign_flip.successor_order.
struct mapping_name {
    template <class M>
    static std::string GetName(int) {
        return std::string(M::format::name) + "_" + std::string(M::name);
    }
};
TYPED_TEST_SUITE(MappingLaws, builtin_mappings, mapping_name);

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
using all_formats = ::testing::Types<fc::binary16, fc::bfloat16, fc::binary32, fc::binary64>;
struct format_name {
    template <class F>
    static std::string GetName(int) { return std::string(F::name); }
};
TYPED_TEST_SUITE(MappingLawsCatch, all_formats, format_name);

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
