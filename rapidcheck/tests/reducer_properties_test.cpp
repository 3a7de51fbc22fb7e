// The CPU reducers of reducer.hpp against the oracle, on gen::arrays<F>(): every fold shape
// (sequential, pairwise tree, random permutation, simulated atomics with a random schedule) and
// both arg reducers, for max and min, under each NaN policy (one test each), both zero policies and,
// for arg reducers, every tie policy. The seed and thread count of the random folds are drawn
// too, so a failure shrinks and replays with them. Mutant mappings must make them fail.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/reducer.hpp"
#include "testing.hpp"
#include "registry_types.hpp"

namespace fc = flipcheck;
using fc::nan_policy;
using fc::reduce_op;

namespace {

template <fc::format F>
std::string show_result(std::optional<std::uint64_t> v, bool index) {
    if (!v) return "none";
    return index ? std::to_string(*v) : fc::gen::show<F>(typename F::storage(*v));
}

template <fc::format F>
std::string explain(const char* reducer, fc::policy p, reduce_op op, const fc::counterexample& c,
                    const std::vector<typename F::storage>& xs) {
    const bool index = c.law == fc::law_id::arg_reducer_agreement;
    return std::string(reducer) + " " + std::string(fc::to_string(op)) + " under " + fc::to_string(p, index) + ": expected " + show_result<F>(c.expected_empty ? std::nullopt : std::optional(c.expected), index) + ", got " +
           show_result<F>(c.actual_empty ? std::nullopt : std::optional(c.actual), index) + " on " + fc::gen::show<F>(xs);
}

// One property: every reducer agrees with the oracle on one drawn array, under NaN policy P.
template <fc::mapping M, nan_policy P>
auto reducers_agree() {
    return [] {
        using F = typename M::format;
        using S = typename F::storage;
        using R = fc::keyed_reducer<M>;
        using laws = fc::reducer_laws<F>;
        const std::vector<S> xs = *fc::gen::arrays<F>();
        const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
        const unsigned threads = *rc::gen::inRange(1u, 300u);
        const std::span<const S> s(xs);
        for (auto zero : {fc::zero_policy::ordered, fc::zero_policy::equal}) {
            for (auto op : {reduce_op::max, reduce_op::min}) {
                fc::policy p{P, zero, fc::tie_policy::lowest_index};
                auto value = [&](const char* name, std::optional<S> got) {
                    if (auto c = laws::agreement(p, op, s, got)) RC_FAIL(explain<F>(name, p, op, *c, xs));
                };
                value("sequential", R::sequential(p, op, s));
                value("pairwise_tree", R::pairwise_tree(p, op, s));
                value("permuted", R::permuted(p, op, s, seed));
                value("simulated_atomic", R::simulated_atomic(p, op, s, seed, threads));
                for (auto ties : {fc::tie_policy::lowest_index, fc::tie_policy::highest_index, fc::tie_policy::any}) {
                    p.ties = ties;
                    auto index = [&](const char* name, std::optional<std::size_t> got) {
                        if (auto c = laws::arg_agreement(p, op, s, got)) RC_FAIL(explain<F>(name, p, op, *c, xs));
                    };
                    index("arg_sequential", R::arg_sequential(p, op, s));
                    index("arg_simulated_atomic", R::arg_simulated_atomic(p, op, s, seed, threads));
                }
            }
        }
    };
}

template <class M>
class Reducers : public ::testing::Test {};
// The keyed folds over every registered built-in mapping on every format.
TYPED_TEST_SUITE(Reducers, fc::props::mapping_types<fc::registry::mappings>, fc::props::mapping_name);

}  // namespace

TYPED_TEST(Reducers, total_order) { rc::detail::checkGTest(reducers_agree<TypeParam, nan_policy::total_order>()); }
TYPED_TEST(Reducers, propagate) { rc::detail::checkGTest(reducers_agree<TypeParam, nan_policy::propagate>()); }
TYPED_TEST(Reducers, ignore) { rc::detail::checkGTest(reducers_agree<TypeParam, nan_policy::ignore>()); }
TYPED_TEST(Reducers, undefined) { rc::detail::checkGTest(reducers_agree<TypeParam, nan_policy::undefined>()); }

// The same properties must fail when the reducers sit on a wrong mapping.
template <class M, nan_policy P>
void expect_fails() {
    const auto result = fc::props::run_quietly(reducers_agree<M, P>());
    EXPECT_TRUE(result.template is<rc::detail::FailureResult>())
        << "reducers over mutant " << M::name << " (" << M::format::name << ") passed under " << fc::to_string(P);
}

TEST(ReducersCatch, mutant_mappings) {
    namespace fm = fc::mutants;
    expect_fails<fm::sign_bit_only<fc::binary32>, nan_policy::total_order>();  // negatives reversed
    expect_fails<fm::sign_bit_only<fc::binary64>, nan_policy::ignore>();
    expect_fails<fm::zeros_swapped<fc::binary16>, nan_policy::propagate>();  // -0 above +0
    expect_fails<fm::zeros_swapped<fc::bfloat16>, nan_policy::total_order>();
    expect_fails<fm::signed_key_as_unsigned<fc::binary32>, nan_policy::propagate>();
}

// ---- the atomic reducers of the registry (atomic.hpp strategies, P3008's fetch_*) ---------------
// One property per (reducer, format, operation): the reducer replayed one atomic step at a time
// on a CPU word, in an order RapidCheck draws (a permutation of the indices, which shrinks too),
// agrees with the oracle under the policy it declares.
template <class R>
auto atomic_reducer_agrees() {
    return [] {
        using F = typename R::format;
        using S = typename F::storage;
        const std::vector<S> xs = *fc::gen::arrays<F>();
        std::vector<std::size_t> order(xs.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
        fc::detail::splitmix64 rng{seed};
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
        const auto got = fc::atomic::replay<R>(std::span<const S>(xs), std::span<const std::size_t>(order));
        std::optional<fc::counterexample> c;
        if constexpr (requires { &R::index; })  // an arg reducer (binary64's bits are a size_t too)
            c = fc::reducer_laws<F>::arg_agreement(R::declared, R::op, xs, got);
        else
            c = fc::reducer_laws<F>::agreement(R::declared, R::op, xs, got);
        if (c) RC_FAIL(explain<F>(R::name.data(), R::declared, R::op, *c, xs));
    };
}

// Calls f.template operator()<R>() for every (format, operation) instance of a reducer entry.
template <class E, class Fn>
void for_each_instance(Fn&& f) {
    fc::registry::for_each<typename E::formats>([&]<class FE>() {
        f.template operator()<typename E::template on<typename FE::type, reduce_op::max>>();
        f.template operator()<typename E::template on<typename FE::type, reduce_op::min>>();
    });
}

template <class E>
class AtomicReducers : public ::testing::Test {};
template <class... E>
::testing::Types<E...> entry_types(fc::registry::list<E...>*);
using atomic_reducers = decltype(entry_types(static_cast<fc::registry::reducers*>(nullptr)));
using atomic_mutants = decltype(entry_types(static_cast<fc::registry::reducer_mutants*>(nullptr)));
struct entry_name {
    template <class E>
    static std::string GetName(int) { return std::string(E::name); }
};
TYPED_TEST_SUITE(AtomicReducers, atomic_reducers, entry_name);

TYPED_TEST(AtomicReducers, agree_with_the_oracle_in_any_order) {
    for_each_instance<TypeParam>([]<class R>() {
        SCOPED_TRACE(std::string(R::format::name) + " " + std::string(fc::to_string(R::op)));
        rc::detail::checkGTest(atomic_reducer_agrees<R>());
    });
}

// The same property must fail on every registered reducer mutant, on at least one of its
// (format, operation) instances.
template <class E>
class AtomicReducerMutants : public ::testing::Test {};
TYPED_TEST_SUITE(AtomicReducerMutants, atomic_mutants, entry_name);
TYPED_TEST(AtomicReducerMutants, are_caught) {
    bool caught = false;
    for_each_instance<TypeParam>([&]<class R>() {
        caught = caught || fc::props::run_quietly(atomic_reducer_agrees<R>()).template is<rc::detail::FailureResult>();
    });
    EXPECT_TRUE(caught) << "the atomic reducer property passed on every instance of mutant " << TypeParam::name;
}
