// Shrinking must hand back the simplest failing input, not whatever random pattern failed first:
// deliberately broken subjects are checked with RapidCheck programmatically (quietly: nothing
// joins the reproduce line at exit) and the shrunk counterexample is asserted exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <span>
#include <vector>

#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/reducer.hpp"
#include "testing.hpp"

namespace fc = flipcheck;
using F = fc::binary32;
using S = F::storage;
using fc::reduce_op;
using zeros_swapped = fc::mutants::zeros_swapped<F>;  // right everywhere except -0 and +0 trade keys

namespace {

constexpr fc::policy ieee{fc::nan_policy::total_order, fc::zero_policy::ordered, fc::tie_policy::lowest_index};

bool max_min_agree(std::span<const S> xs) {
    using R = fc::keyed_reducer<zeros_swapped>;
    for (auto op : {reduce_op::max, reduce_op::min})
        if (fc::reducer_laws<F>::agreement(ieee, op, xs, R::sequential(ieee, op, xs))) return false;
    return true;
}

// Runs `property` (which records its input in *last whenever it fails) and returns the input of
// the last failure: after shrinking, the shrunk counterexample (every later candidate passed).
template <class T, class Property>
std::optional<T> counterexample_of(Property property, T* last, std::uint64_t seed, bool shrink) {
    const auto result = fc::props::run_quietly(property, seed, 100, shrink);
    if (!result.template is<rc::detail::FailureResult>()) return std::nullopt;
    return *last;
}

}  // namespace

// The mapping law properties over zeros_swapped fail only at the zeros (and at the raw key
// 0x7fffffff, a NaN): the shrunk pattern must be a signed zero.
TEST(shrinking, mapping_law_counterexample_is_a_signed_zero) {
    for (auto law : {fc::law_id::successor_order, fc::law_id::zero_placement}) {
        S last = 0x12345678u;
        auto property = [&, law] {
            const S b = *fc::gen::bits<F>();
            const S k = zeros_swapped::encode(b);
            for (S at : {k, S(k - 1), b})
                if (!fc::mapping_laws<zeros_swapped>::holds(law, at)) {
                    last = b;
                    RC_FAIL("law fails");
                }
        };
        const auto shrunk = counterexample_of<S>(property, &last, 1, true);
        ASSERT_TRUE(shrunk) << fc::to_string(law) << " did not fail on zeros_swapped";
        EXPECT_TRUE(*shrunk == 0x00000000u || *shrunk == 0x80000000u) << fc::gen::show<F>(*shrunk);
    }
}

// Here every input fails (max/min over {b, -0, +0} picks the wrong zero whatever b is), so the
// first failure is a random pattern and only the shrinker can turn it into +0. The seed is
// chosen so that the unshrunk counterexample is not a zero, which proves the shrinker moved it.
TEST(shrinking, random_failure_shrinks_to_plus_zero) {
    S last = 0;
    auto property = [&] {
        const S b = *fc::gen::bits<F>();
        const std::vector<S> a{b, 0x80000000u, 0x00000000u}, c{0x00000000u, b, 0x80000000u};
        if (!max_min_agree(a) || !max_min_agree(c)) {
            last = b;
            RC_FAIL("wrong zero");
        }
    };
    std::uint64_t seed = 1;
    for (; seed < 50; ++seed) {
        const auto raw = counterexample_of<S>(property, &last, seed, false);
        ASSERT_TRUE(raw) << "the broken reducer passed";
        if (*raw != 0 && *raw != 0x80000000u) break;
    }
    ASSERT_LT(seed, 50u) << "no seed drew a non-zero first counterexample";
    const S raw = last;
    const auto shrunk = counterexample_of<S>(property, &last, seed, true);
    ASSERT_TRUE(shrunk);
    std::cout << "seed " << seed << ": first failure " << fc::gen::show<F>(raw) << ", shrunk to " << fc::gen::show<F>(*shrunk) << "\n";
    EXPECT_EQ(*shrunk, 0x00000000u) << "shrunk to " << fc::gen::show<F>(*shrunk) << ", not to +0";
}

// An array counterexample loses every element it does not need: exactly the two zeros remain.
TEST(shrinking, array_counterexample_is_the_two_zeros) {
    std::vector<S> last;
    auto property = [&] {
        const std::vector<S> xs = *fc::gen::arrays<F>();
        if (!max_min_agree(xs)) {
            last = xs;
            RC_FAIL("wrong zero");
        }
    };
    const auto raw = counterexample_of<std::vector<S>>(property, &last, 1, false);
    const auto shrunk = counterexample_of<std::vector<S>>(property, &last, 1, true);
    ASSERT_TRUE(raw && shrunk) << "the broken reducer passed";
    std::cout << "first failure " << fc::gen::show<F>(*raw, 6) << "\nshrunk to " << fc::gen::show<F>(*shrunk) << "\n";
    ASSERT_EQ(shrunk->size(), 2u) << fc::gen::show<F>(*shrunk);
    EXPECT_TRUE(((*shrunk)[0] | (*shrunk)[1]) == 0x80000000u && (*shrunk)[0] != (*shrunk)[1]) << fc::gen::show<F>(*shrunk);
}

// A failure that needs a NaN shrinks to the canonical quiet NaN; one that needs a negative
// number of magnitude at least 1 shrinks to exactly -1 (fewer mantissa bits, then the smallest
// exponent that still fails, and the sign kept because +1 passes).
TEST(shrinking, nan_shrinks_to_canonical_quiet_nan_and_numbers_to_simple_ones) {
    S last = 0;
    auto needs_nan = [&] {
        const S b = *fc::gen::bits<F>();
        if (F::is_nan_bits(b)) {
            last = b;
            RC_FAIL("a NaN");
        }
    };
    auto shrunk = counterexample_of<S>(needs_nan, &last, 1, true);
    ASSERT_TRUE(shrunk);
    EXPECT_EQ(*shrunk, F::quiet_nan) << fc::gen::show<F>(*shrunk);

    auto needs_big_negative = [&] {
        const S b = *fc::gen::bits<F>();
        const float v = F::to_value(b);
        if (v <= -1.0f) {
            last = b;
            RC_FAIL("a negative number of magnitude >= 1");
        }
    };
    shrunk = counterexample_of<S>(needs_big_negative, &last, 1, true);
    ASSERT_TRUE(shrunk);
    EXPECT_EQ(*shrunk, 0xbf800000u) << fc::gen::show<F>(*shrunk);
}

// The plugin's two halves both catch a wrong mapping, and its counterexamples name the zeros.
TEST(plugin, catches_zeros_swapped) {
    using M = fc::mutants::zeros_swapped<fc::binary16>;
    const fc::sweep_report r = fc::check_mapping<M>();
    EXPECT_FALSE(r.passed());
    ASSERT_FALSE(r.counterexamples.empty());
    EXPECT_NE(fc::describe<M>(r.counterexamples.front()).find("0x0000 (0 zero)"), std::string::npos)
        << fc::describe<M>(r.counterexamples.front());
    const auto result = fc::props::run_quietly(fc::props::law_property<M>(fc::law_id::zero_placement));
    EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}
