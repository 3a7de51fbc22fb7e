// exhaustive.hpp: the byte formats' reducers on every array of up to three codes. The memoized
// oracle must be the oracle; every correct byte reducer must pass; a wrong one must fail with the
// smallest array as its counterexample.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "flipcheck/catalog/byte_reducers.hpp"

namespace fc = flipcheck;
using fc::reduce_op;

namespace {

// byte_oracle's fold against oracle.hpp's on every array of `length` codes, every policy and op.
template <class F>
void expect_table_is_the_oracle(int length) {
    using S = typename F::storage;
    constexpr unsigned n = fc::code_count<F>;
    for (reduce_op op : {reduce_op::max, reduce_op::min})
        for (const fc::policy& p : fc::policies_for<F>(true)) {
            const fc::byte_oracle<F> o(p, op);
            const std::uint64_t total = length == 2 ? n * n : std::uint64_t(n) * n * n;
            for (std::uint64_t t = 0; t < total; ++t) {
                const S xs3[3] = {S(t % n), S(t / n % n), S(t / n / n)};
                const std::span<const S> xs(xs3, std::size_t(length));
                ASSERT_EQ(o.expect(xs).value, fc::reducer_laws<F>::expect(p, op, xs).value) << F::name << " " << t;
                ASSERT_EQ(o.expect_arg(xs).index, fc::reducer_laws<F>::expect_arg(p, op, xs).index) << F::name << " " << t;
                ASSERT_EQ(o.expect(xs).in_domain, fc::reducer_laws<F>::expect(p, op, xs).in_domain);
            }
        }
}

std::string failures_of(const std::vector<fc::exhaustive_row>& rows) {
    std::string s;
    for (const auto& r : rows)
        if (!r.passed())
            s += r.subject + " " + r.format + " " + r.op + " " + r.policy + ": " + std::to_string(r.failures) + " of " +
                 std::to_string(r.arrays) + "; first: " + r.counterexample + "\n";
    return s;
}

template <class F>
std::uint64_t arrays_in(const std::vector<fc::exhaustive_row>& rows) {
    std::uint64_t n = 0;
    for (const auto& r : rows) n += r.arrays;
    return n;
}

// format_key without its with_nan_at: a fold cannot move the one NaN to the winning end.
struct stuck {
    using format = fc::float8_e4m3fnuz;
    using storage = std::uint8_t;
    static constexpr std::string_view name = "stuck";
    static constexpr storage encode(storage b) noexcept { return fc::format_key<format>::encode(b); }
    static constexpr storage decode(storage k) noexcept { return fc::format_key<format>::decode(k); }
};

}  // namespace

TEST(exhaustive, the_memoized_step_is_the_oracles_fold) {
    expect_table_is_the_oracle<fc::float8_e4m3fn>(2);
    expect_table_is_the_oracle<fc::float8_e4m3fnuz>(2);
    expect_table_is_the_oracle<fc::float8_e8m0fnu>(2);
    expect_table_is_the_oracle<fc::float4_e2m1fn>(3);
    expect_table_is_the_oracle<fc::float6_e3m2fn>(3);
}

TEST(exhaustive, policies_follow_the_format) {
    EXPECT_EQ(fc::policies_for<fc::float8_e5m2>(false).size(), 8u);        // 4 NaN x 2 zero
    EXPECT_EQ(fc::policies_for<fc::float8_e4m3fnuz>(true).size(), 12u);    // 4 NaN x 1 zero x 3 ties
    EXPECT_EQ(fc::policies_for<fc::float4_e2m1fn>(false).size(), 2u);      // no NaN: 1 x 2 zero
    EXPECT_EQ(fc::policies_for<fc::float8_e8m0fnu>(false).size(), 4u);     // no -0
}

TEST(exhaustive, every_byte_reducer_passes_every_empty_single_and_pair) {
    fc::registry::for_each<fc::registry::low_precision_formats>([]<class E>() {
        using F = typename E::type;
        for (int length : {0, 1, 2}) {
            const auto rows = fc::check_byte_reducers<F>(length);
            EXPECT_EQ(failures_of(rows), "") << F::name << " length " << length;
            if (length == 2) {
                EXPECT_EQ(arrays_in<F>(rows), rows.size() * std::uint64_t(fc::code_count<F>) * fc::code_count<F>);
            }
        }
    });
}

TEST(exhaustive, every_byte_reducer_passes_every_triple_in_every_order) {
#if FLIPCHECK_EVERY_TRIPLE
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t arrays = 0;
    fc::registry::for_each<fc::registry::low_precision_formats>([&]<class E>() {
        using F = typename E::type;
        const auto rows = fc::check_byte_reducers<F>(3);
        EXPECT_EQ(failures_of(rows), "") << F::name;
        arrays += arrays_in<F>(rows);
    });
    std::printf("every triple: %llu (array, subject, policy, op) checks in %.1f s\n", static_cast<unsigned long long>(arrays),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
#else
    GTEST_SKIP() << "every triple runs in the release suite (this build has the sanitizers); the pairs run here";
#endif
}

// The check can fail: seed 000's key on fnuz and on e8m0, and a propagating max that keeps the
// one NaN where totalOrder puts it (at the bottom: it loses).
TEST(exhaustive, wrong_byte_reducers_fail_on_their_smallest_array) {
    using fnuz = fc::float8_e4m3fnuz;
    {
        using R = fc::atomic::mapped<fc::sign_flip<fnuz>, fc::nan_policy::total_order, reduce_op::max>;
        const fc::byte_oracle<fnuz> o(R::declared, reduce_op::max);
        constexpr std::size_t identity[3] = {0, 1, 2};
        const auto f = fc::check_every_array<fnuz>(o, 2, [&](std::span<const std::uint8_t> xs) {
            return fc::atomic::replay<R>(xs, std::span<const std::size_t>(identity, xs.size()));
        });
        EXPECT_GT(f.failures, 0u);
        ASSERT_TRUE(f.first.has_value());
        // The smallest array: the NaN, which the key puts above every negative, against -denorm_min.
        EXPECT_EQ(f.input, (std::vector<std::uint8_t>{0x80, 0x81}));
    }
    {
        // format_key itself (no with_nan_at: the fold cannot move the NaN) under propagate.
        using R = fc::atomic::mapped<stuck, fc::nan_policy::propagate, reduce_op::max>;
        const fc::byte_oracle<fnuz> o(R::declared, reduce_op::max);
        constexpr std::size_t identity[3] = {0, 1, 2};
        const auto f = fc::check_every_array<fnuz>(o, 2, [&](std::span<const std::uint8_t> xs) {
            return fc::atomic::replay<R>(xs, std::span<const std::size_t>(identity, xs.size()));
        });
        EXPECT_EQ(f.failures, 2u * 255u);  // the NaN beside any number, either order
    }
    {
        using R = fc::atomic::mapped<fc::sign_flip<fc::float8_e8m0fnu>, fc::nan_policy::total_order, reduce_op::max>;
        const fc::byte_oracle<fc::float8_e8m0fnu> o(R::declared, reduce_op::max);
        const auto f = fc::check_every_array<fc::float8_e8m0fnu>(o, 2, [](std::span<const std::uint8_t> xs) {
            constexpr std::size_t identity[3] = {0, 1, 2};
            return fc::atomic::replay<R>(xs, std::span<const std::size_t>(identity, xs.size()));
        });
        EXPECT_GT(f.failures, 0u);
    }
}
