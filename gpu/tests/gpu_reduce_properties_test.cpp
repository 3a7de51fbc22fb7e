// RapidCheck properties of the GPU reducers (flipcheck/gpu/reduce.hpp): batches of arrays from the
// property generators go through each reducer in one launch, and every answer is judged by the
// oracle under the policy the reducer declares. A case is one array through one reducer under
// one policy; each test prints how many it checked per second. Also: order independence (the
// same multiset in another order, or another launch shape, gives the same bits), the known-wrong
// seeds shown wrong with a shrunk counterexample, and P3008's operations on every pair of 16-bit
// values. Without a device every test says SKIPPED (the GpuReduceApi tests need none).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/gpu/reduce.hpp"
#include "flipcheck/gpu/yamr.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/rapidcheck/generators.hpp"
#include "p3008_check.hpp"
#include "require_device.hpp"

namespace flipcheck::gpu {
// How RapidCheck prints a drawn launch shape in a counterexample (found by ADL).
inline void showValue(const launch_shape& s, std::ostream& os) { os << s.blocks << " blocks x " << s.threads << " threads"; }
}  // namespace flipcheck::gpu

namespace {

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;
using fc::reduce_op;

#define REQUIRE_DEVICE() FLIPCHECK_REQUIRE_DEVICE()

template <class F>
using arrays_t = std::vector<std::vector<typename F::storage>>;


// Cases checked and time spent, for the rate each test prints; and how many cases broke a law,
// which is what "shown wrong" must rest on.
struct rate {
    std::uint64_t cases = 0, violations = 0;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~rate() {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("[ rate     ] %llu GPU property cases in %.2f s: %.0f cases/s\n", static_cast<unsigned long long>(cases), s,
                    s > 0 ? double(cases) / s : 0.0);
    }
};

std::string describe(fc::policy p) { return fc::to_string(p); }

template <fc::format F>
std::string show_answer(std::optional<std::uint64_t> v, bool index) {
    if (!v) return "none";
    return index ? std::to_string(*v) : fc::gen::show<F>(typename F::storage(*v));
}

// Judge every array's answer; the first wrong one fails the property with the array and shape.
// (Whether answers are indices is spelled out: binary64's storage is std::size_t.)
template <fc::format F, bool Index, class Answer>
void judge(std::string_view subject, fc::policy p, reduce_op op, const arrays_t<F>& arrays, const std::vector<Answer>& got,
           gpu::launch_shape shape, rate& r) {
    constexpr bool index = Index;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        std::optional<fc::counterexample> c;
        if constexpr (index) c = fc::reducer_laws<F>::arg_agreement(p, op, arrays[i], got[i]);
        else c = fc::reducer_laws<F>::agreement(p, op, arrays[i], got[i]);
        if (c) ++r.violations;
        if (c)
            RC_FAIL(std::string(subject) + " " + std::string(fc::to_string(op)) + " on " + std::string(F::name) + " under " +
                    describe(p) + " with " + std::to_string(shape.blocks) + "x" + std::to_string(shape.threads) +
                    ": expected " + show_answer<F>(c->expected_empty ? std::nullopt : std::optional(c->expected), index) +
                    ", got " + show_answer<F>(c->actual_empty ? std::nullopt : std::optional(c->actual), index) + " on " +
                    fc::gen::show<F>(arrays[i]));
    }
    r.cases += arrays.size();
}

rc::Gen<gpu::launch_shape> shapes() {
    return rc::gen::apply([](unsigned blocks, unsigned threads) { return gpu::launch_shape{blocks, threads}; },
                          rc::gen::inRange(1u, 9u), rc::gen::element(32u, 64u, 256u, 1024u));
}

// Every GPU value reducer of format F but the mutants (the GPU's kernels and the registry's
// reducers), max and min, every policy the reducer can be asked for, on one batch.
template <fc::format F>
void value_subjects_agree(rate& r) {
    const auto arrays = *rc::gen::container<arrays_t<F>>(fc::gen::arrays<F>());
    const auto shape = *shapes();
    for (const gpu::value_reducer red : gpu::value_reducer::all()) {
        if (red.mutant() || !red.supports<F>()) continue;
        for (auto op : {reduce_op::max, reduce_op::min}) {
            if (!red.supports<F>(op)) continue;
            for (const fc::policy& p : red.policies_to_check(op))
                judge<F, false>(red.name(), p, op, arrays, gpu::reduce<F>(red, p, op, arrays, shape), shape, r);
        }
    }
}

template <fc::format F>
void arg_subjects_agree(rate& r) {
    const auto arrays = *rc::gen::container<arrays_t<F>>(fc::gen::arrays<F>());
    const auto shape = *shapes();
    for (const gpu::arg_reducer red : gpu::arg_reducer::all()) {
        if (red.mutant()) continue;
        for (auto op : {reduce_op::max, reduce_op::min}) {
            if (!red.supports<F>(op)) continue;
            for (const fc::policy& p : red.policies_to_check(op))
                judge<F, true>(red.name(), p, op, arrays, gpu::arg_reduce<F>(red, p, op, arrays, shape), shape, r);
        }
    }
}

// The GPU's own kernels that honour the policy they are asked for (the keyed kernels of
// reduce.cuh), as handles.
template <class Kernels, bool Arg>
std::vector<gpu::reducer<Arg>> keyed_kernels() {
    std::vector<gpu::reducer<Arg>> out;
    fc::registry::for_each<Kernels>([&]<class E>() {
        if (E::declared.as_requested) out.push_back(*gpu::reducer<Arg>::with_id(E::id));
    });
    return out;
}

template <class F>
class GpuReduce : public ::testing::Test {};
using formats = ::testing::Types<fc::binary16, fc::bfloat16, fc::binary32, fc::binary64>;
TYPED_TEST_SUITE(GpuReduce, formats);

TYPED_TEST(GpuReduce, value_subjects_agree_with_the_oracle) {
    REQUIRE_DEVICE();
    rate r;
    EXPECT_TRUE(rc::check("value subjects agree", [&] { value_subjects_agree<TypeParam>(r); }));
}

TYPED_TEST(GpuReduce, arg_subjects_agree_with_the_oracle) {
    REQUIRE_DEVICE();
    rate r;
    EXPECT_TRUE(rc::check("arg subjects agree", [&] { arg_subjects_agree<TypeParam>(r); }));
}

// Order independence: the keyed value kernels give identical bits (not merely equivalent answers)
// for any order of the same multiset and any launch shape; the keyed arg kernels give the same
// index for any launch shape. P3008's CAS loops are exempt: which NaN fetch_fmaximum keeps depends
// on the order, as IEEE allows.
TYPED_TEST(GpuReduce, same_bits_for_any_order_and_launch_shape) {
    REQUIRE_DEVICE();
    using F = TypeParam;
    rate r;
    EXPECT_TRUE(rc::check("order independence", [&] {
        auto arrays = *rc::gen::container<arrays_t<F>>(fc::gen::arrays<F>());
        const auto a = *shapes(), b = *shapes();
        auto permuted = arrays;
        std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
        for (auto& xs : permuted) std::shuffle(xs.begin(), xs.end(), rng);
        const auto op = *rc::gen::element(reduce_op::max, reduce_op::min);
        const fc::policy p = *rc::gen::elementOf(gpu::arg_reducer("two_level").policies_to_check(op));  // every policy
        for (const gpu::value_reducer s : keyed_kernels<gpu::value_kernels, false>()) {
            const auto x = gpu::reduce<F>(s, p, op, arrays, a), y = gpu::reduce<F>(s, p, op, permuted, b);
            for (std::size_t i = 0; i < arrays.size(); ++i)
                if (x[i] != y[i]) RC_FAIL(std::string(s.name()) + " differs between orders/shapes on " + fc::gen::show<F>(arrays[i]));
            r.cases += 2 * arrays.size();
        }
        for (const gpu::arg_reducer s : keyed_kernels<gpu::arg_kernels, true>()) {
            if (!s.supports<F>(op)) continue;
            const auto x = gpu::arg_reduce<F>(s, p, op, arrays, a), y = gpu::arg_reduce<F>(s, p, op, arrays, b);
            for (std::size_t i = 0; i < arrays.size(); ++i)
                if (x[i] != y[i]) RC_FAIL(std::string(s.name()) + " differs between launch shapes on " + fc::gen::show<F>(arrays[i]));
            r.cases += 2 * arrays.size();
        }
    }));
}

// P3008's six operations on the device, every (old, operand) pair of the 16-bit formats and edge
// plus random pairs of the others: the stored value as the oracle says, the old value returned.
// FLIPCHECK_P3008_PAIR_LIMIT=N checks only the first N pairs (for the sanitizers' runs).
TYPED_TEST(GpuReduce, p3008_operations_on_pairs) {
    REQUIRE_DEVICE();
    using F = TypeParam;
    const char* env = std::getenv("FLIPCHECK_P3008_PAIR_LIMIT");
    const std::uint64_t limit = env ? std::strtoull(env, nullptr, 10) : 0;
    for (auto k : fc::p3008::all_operations) {
        const auto c = gpu::p3008_pairs<F>(k, k, limit);
        std::printf("[ p3008    ] %s %s: %llu pairs, %llu wrong\n", std::string(F::name).c_str(),
                    std::string(fc::p3008::to_string(k)).c_str(), static_cast<unsigned long long>(c.pairs),
                    static_cast<unsigned long long>(c.failures));
        EXPECT_EQ(c.failures, 0u) << fc::p3008::to_string(k) << " first wrong on old=" << fc::gen::show<F>(typename F::storage(c.old))
                                  << " operand=" << fc::gen::show<F>(typename F::storage(c.operand));
        EXPECT_GT(c.pairs, 0u);
    }
    // The judge can fail: fetch_fmaximum_num is not fetch_fmaximum (a NaN operand loses there).
    const auto wrong = gpu::p3008_pairs<F>(fc::p3008::operation::fmaximum_num, fc::p3008::operation::fmaximum, limit);
    std::printf("[ p3008    ] %s fetch_fmaximum_num judged as fetch_fmaximum: %llu wrong (must be > 0), first on old=%s operand=%s\n",
                std::string(F::name).c_str(), static_cast<unsigned long long>(wrong.failures),
                fc::gen::show<F>(typename F::storage(wrong.old)).c_str(), fc::gen::show<F>(typename F::storage(wrong.operand)).c_str());
    EXPECT_GT(wrong.failures, 0u);
}

TEST(GpuReduceP3008, typed_wrappers_on_every_type) {
    REQUIRE_DEVICE();
    EXPECT_TRUE(gpu::p3008_typed_wrappers_work());
}

// ---- the seeds' known-wrong reducers: each must be shown wrong, with a shrunk counterexample ----

// RapidCheck counts any exception as a failed case, and a property that gives up on RC_PRE fails
// too; neither shows the subject wrong. So a subject is shown wrong only if rc::check fails, at
// least one case broke a law (counted in r.violations before its RC_FAIL), and no case hit a
// device error (a CUDA error fails the test instead).
template <class Prop>
void expect_shown_wrong(const char* what, rate& r, Prop prop) {
    std::printf("[ expected ] %s must be shown wrong; RapidCheck's counterexample follows\n", what);
    std::string device_failure;
    const bool passed = rc::check(what, [&] {
        try {
            prop();
        } catch (const fc::device_error& e) {
            device_failure = e.what();
            throw;
        }
    });
    EXPECT_TRUE(device_failure.empty()) << what << ": the device failed, so nothing was shown: " << device_failure;
    EXPECT_FALSE(passed) << what << " passed every case: the property no longer catches it";
    EXPECT_GT(r.violations, 0u) << what << ": RapidCheck failed, but no case broke a law (it gave up on RC_PRE, or a case threw)";
}

// The check above can fail: a device error, or a property that only discards, is not a kill.
void device_error_property() {
    rate r;
    expect_shown_wrong("a property whose device fails", r, [] { throw fc::device_error("CUDA error in a launch: out of memory"); });
}
void discarding_property() {
    rate r;
    expect_shown_wrong("a property that gives up", r, [] { RC_PRE(false); });
}
// The failures `f` reports, intercepted (GoogleTest's public gtest-spi.h) so they do not fail this test.
std::string failures_of(void (*f)()) {
    ::testing::TestPartResultArray results;
    {
        ::testing::ScopedFakeTestPartResultReporter intercept(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
        f();
    }
    std::string all;
    for (int i = 0; i < results.size(); ++i) all += std::string(results.GetTestPartResult(i).message()) + "\n";
    return all;
}
TEST(GpuReduceSeeds, only_a_law_violation_shows_a_subject_wrong) {
    EXPECT_NE(failures_of(device_error_property).find("the device failed"), std::string::npos);
    EXPECT_NE(failures_of(discarding_property).find("no case broke a law"), std::string::npos);
}

// One of the seeds' subjects on batches of binary32 arrays, under the policy it claims.
template <bool Index, class Run>
void seed_subject_is_wrong(const char* what, std::string_view name, reduce_op op, fc::policy p, Run run) {
    rate r;
    expect_shown_wrong(what, r, [&] {
        const auto arrays = *rc::gen::container<arrays_t<fc::binary32>>(fc::gen::arrays<fc::binary32>());
        judge<fc::binary32, Index>(name, p, op, arrays, run(p, arrays), {}, r);
    });
}

void seed002_is_wrong(const char* what, gpu::arg_reducer s) {
    seed_subject_is_wrong<true>(what, s.name(), reduce_op::max, s.declared(reduce_op::max),
                                [s](fc::policy p, const arrays_t<fc::binary32>& xs) {
                                    return gpu::arg_reduce<fc::binary32>(s, p, reduce_op::max, xs);
                                });
}

TEST(GpuReduceSeeds, seed002_walkthrough_is_wrong) {
    REQUIRE_DEVICE();
    seed002_is_wrong("seed 002 as written (lowest(), then FLT_MIN)", gpu::arg_reducer("seed002_walkthrough"));
}

TEST(GpuReduceSeeds, seed002_full_code_is_wrong) {
    REQUIRE_DEVICE();
    seed002_is_wrong("seed 002's full code (-lowest() = +FLT_MAX)", gpu::arg_reducer("seed002_full_code"));
}

TEST(GpuReduceSeeds, seed004_ge0_is_wrong) {
    REQUIRE_DEVICE();
    const gpu::value_reducer s("seed004_ge0");
    seed_subject_is_wrong<false>("seed 004's `val >= 0` predecessor (min)", "seed004_ge0", reduce_op::min,
                                 s.declared(reduce_op::min), [s](fc::policy p, const arrays_t<fc::binary32>& xs) {
                                     return gpu::reduce<fc::binary32>(s, p, reduce_op::min, xs);
                                 });
}

// Seed 003's YAMR as written and with volatile (one block of up to 1024 threads).
void yamr_is_wrong(bool volatile_shared) {
    REQUIRE_DEVICE();
    rate r;
    expect_shown_wrong(volatile_shared ? "seed 003's YAMR with volatile" : "seed 003's YAMR as written", r, [&] {
        auto xs = *fc::gen::arrays<fc::binary32>();
        RC_PRE(!xs.empty() && xs.size() <= 1024);
        ++r.cases;
        const fc::policy p{fc::nan_policy::undefined, fc::zero_policy::equal, fc::tie_policy::any};
        const auto c = fc::reducer_laws<fc::binary32>::agreement(p, reduce_op::max, xs, gpu::yamr(xs, volatile_shared));
        if (c) ++r.violations;
        if (c)
            RC_FAIL("YAMR: expected " + fc::gen::show<fc::binary32>(std::uint32_t(c->expected)) + ", got " +
                    fc::gen::show<fc::binary32>(std::uint32_t(c->actual)) + " on " + fc::gen::show<fc::binary32>(xs));
    });
}
TEST(GpuReduceSeeds, yamr_is_wrong) { yamr_is_wrong(false); }
TEST(GpuReduceSeeds, yamr_volatile_is_wrong) { yamr_is_wrong(true); }

// What each reducer is checked under: every NaN x zero policy for the keyed value kernels, the x
// ties too for the keyed arg kernels, the one it claims for the rest. Host code: no device needed.
TEST(GpuReduceApi, policies_to_check) {
    EXPECT_EQ(gpu::value_reducer("full_grid").policies_to_check(reduce_op::max).size(), 6u);
    EXPECT_EQ(gpu::arg_reducer("packed_atomic").policies_to_check(reduce_op::max).size(), 18u);
    const auto fmax = gpu::value_reducer("fetch_fmaximum").policies_to_check(reduce_op::min);
    ASSERT_EQ(fmax.size(), 1u);
    EXPECT_EQ(fmax[0], fc::p3008::declared(fc::p3008::operation::fminimum));
    EXPECT_EQ(gpu::arg_reducer("seed002_fixed").policies_to_check(reduce_op::max).size(), 1u);
}

// Bad requests get a clear error, not a launch.
TEST(GpuReduceApi, rejects_what_does_not_exist) {
    const arrays_t<fc::binary16> half{{0x3c00}};
    EXPECT_THROW(gpu::reduce<fc::binary16>(gpu::value_reducer("seed004_signbit"), {}, reduce_op::max, half), std::invalid_argument);
    EXPECT_THROW(gpu::arg_reduce<fc::binary64>(gpu::arg_reducer("seed002_walkthrough"), {}, reduce_op::max, {{0}}), std::invalid_argument);
    EXPECT_THROW(gpu::arg_reduce<fc::binary32>(gpu::arg_reducer("seed002_fixed"), {}, reduce_op::min, {{0}}), std::invalid_argument);
    EXPECT_THROW(gpu::reduce<fc::binary32>(gpu::value_reducer("full_grid"), {}, reduce_op::max, {{0}}, {1, 48}), std::invalid_argument);
    EXPECT_THROW(gpu::reduce<fc::binary32>(gpu::value_reducer("full_grid"), {}, reduce_op::max, {{0}}, {0, 32}), std::invalid_argument);
    EXPECT_THROW(gpu::value_reducer("no_such_reducer"), fc::input_error);
    EXPECT_THROW(gpu::arg_reducer("full_grid"), fc::input_error);  // a value reducer
    EXPECT_FALSE(gpu::value_reducer::with_id(0xff));
}

// Every reducer of the registry is a GPU reducer, found by its name and id, existing for the
// formats its entry lists and declaring what the registry's type declares; ids are unique.
template <class E>
void expect_registry_reducer_on_the_gpu() {
    SCOPED_TRACE(std::string(E::name));
    const auto r = gpu::reducer<E::arg>::find(E::name);
    ASSERT_TRUE(r);
    EXPECT_EQ(gpu::reducer<E::arg>::with_id(E::id), r);
    EXPECT_EQ(r->id(), E::id);
    EXPECT_EQ(r->mutant(), E::what == fc::registry::kind::value_mutant || E::what == fc::registry::kind::arg_mutant);
    EXPECT_EQ(r->info().origin, E::info.origin);
    fc::registry::for_each<fc::registry::formats>([&]<class FE>() {
        constexpr bool listed = fc::registry::contains<typename E::formats, FE>;
        EXPECT_EQ(r->template supports<typename FE::type>(), listed) << FE::name;
        EXPECT_EQ(r->supports(FE::id, reduce_op::min), listed) << FE::name;
        if constexpr (listed) {
            using Max = typename E::template on<typename FE::type, reduce_op::max>;
            using Min = typename E::template on<typename FE::type, reduce_op::min>;
            EXPECT_EQ(r->declared(reduce_op::max, {fc::nan_policy::ignore}), Max::declared);
            EXPECT_EQ(r->declared(reduce_op::min), Min::declared);
            EXPECT_EQ(r->policies_to_check(reduce_op::max), std::vector<fc::policy>{Max::declared});
        }
    });
}
TEST(GpuReduceApi, every_registry_reducer_is_a_gpu_reducer) {
    fc::registry::for_each<fc::registry::reducers>([]<class E>() { expect_registry_reducer_on_the_gpu<E>(); });
    fc::registry::for_each<fc::registry::reducer_mutants>([]<class E>() { expect_registry_reducer_on_the_gpu<E>(); });
    EXPECT_EQ(gpu::value_reducer::count + gpu::arg_reducer::count,
              gpu::value_kernels::size + gpu::arg_kernels::size + fc::registry::reducers::size + fc::registry::reducer_mutants::size);
    std::vector<int> ids;
    for (const auto r : gpu::value_reducer::all()) ids.push_back(r.id());
    for (const auto r : gpu::arg_reducer::all()) ids.push_back(r.id());
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
    EXPECT_EQ(gpu::value_reducer::all()[0], gpu::value_reducer("warp_aggregated"));
}

}  // namespace
