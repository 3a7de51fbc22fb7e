// The permitted-set oracle must accept every latitude P3008R6 gives and nothing more: flipcheck's
// own operations conform, and an operation that breaks one rule is caught on the pair that shows it.
#include "flipcheck/audit/p3008.hpp"

#include <gtest/gtest.h>

#include "flipcheck/atomic.hpp"

namespace fc = flipcheck;
namespace fa = flipcheck::audit;
using fc::binary32;
using fc::p3008::kind;  // the earlier name of p3008::operation

template <kind K>
static std::vector<fa::fetch_result> own(const std::vector<fa::fetch_pair>& pairs) {
    std::vector<fa::fetch_result> out;
    for (const auto& [old, v] : pairs) {
        fc::atomic::sequential_word<std::uint32_t> w{std::uint32_t(old)};
        const auto r = fc::p3008::fetch<binary32, K>::apply(w, std::uint32_t(v));
        out.push_back({r, w.value});
    }
    return out;
}

TEST(audit_p3008, flipcheck_own_operations_conform) {
    const auto pairs = fa::p3008_pairs<binary32>(2000);
    for (kind k : fc::p3008::all_operations) {
        std::vector<fa::fetch_result> got;
        switch (k) {
            case kind::max: got = own<kind::max>(pairs); break;
            case kind::min: got = own<kind::min>(pairs); break;
            case kind::fmaximum: got = own<kind::fmaximum>(pairs); break;
            case kind::fminimum: got = own<kind::fminimum>(pairs); break;
            case kind::fmaximum_num: got = own<kind::fmaximum_num>(pairs); break;
            case kind::fminimum_num: got = own<kind::fminimum_num>(pairs); break;
        }
        const auto v = fa::judge_p3008<binary32>(k, pairs, got, 2000);
        EXPECT_FALSE(v.violation) << to_string(k);
        EXPECT_EQ(v.telling.size(), 3u);
    }
}

// Wrong on purpose: fmaximum that skips a NaN (maximumNumber's rule), fetch_max that stores a third
// value, and an operation that returns the new value instead of the old.
TEST(audit_p3008, each_broken_rule_is_caught) {
    const auto pairs = fa::p3008_pairs<binary32>(500);
    auto ignore_nan = own<kind::fmaximum_num>(pairs);
    auto v = fa::judge_p3008<binary32>(kind::fmaximum, pairs, ignore_nan, 500);
    ASSERT_TRUE(v.violation);
    EXPECT_EQ(v.violation->permitted, "a quiet NaN");

    auto third = own<kind::max>(pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (binary32::is_nan_bits(std::uint32_t(pairs[i].second)) && !binary32::is_nan_bits(std::uint32_t(pairs[i].first))) third[i].stored = binary32::one + 7;
    v = fa::judge_p3008<binary32>(kind::max, pairs, third, 500);
    ASSERT_TRUE(v.violation);
    EXPECT_EQ(v.violation->permitted, "either operand or any NaN");

    auto new_value = own<kind::min>(pairs);
    for (auto& r : new_value) r.returned = r.stored;
    v = fa::judge_p3008<binary32>(kind::min, pairs, new_value, 500);
    ASSERT_TRUE(v.violation);
    EXPECT_EQ(v.violation->permitted, "the old value returned exactly");

    auto ordered_zero = own<kind::fmaximum>(pairs);  // -0 stored for max(-0, +0): IEEE maximum says +0
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i] == fa::fetch_pair{binary32::sign_mask, 0}) ordered_zero[i].stored = binary32::sign_mask;
    v = fa::judge_p3008<binary32>(kind::fmaximum, pairs, ordered_zero, 500);
    ASSERT_TRUE(v.violation);
    EXPECT_EQ(v.violation->permitted, "+0");
}
