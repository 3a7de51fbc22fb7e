// The plug-in path on the GPU (flipcheck/gpu/check.cuh, sweep_launch.cuh): every atomic strategy
// of the registry passes check/reducers.hpp's stages on real atomics in every launch shape, every atomic
// mutant of the zoo fails in every shape, and a mapping outside the registry sweeps on the device
// with the report the CPU gives.
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/gpu/check.cuh"
#include "flipcheck/gpu/detail/registry_types.hpp"
#include "flipcheck/gpu/sweep_launch.cuh"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/mappings.hpp"
#include "require_device.hpp"

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;

namespace {

fc::check_options quick() {
    fc::check_options o;
    o.random_cases = 500;
    o.reorderings = 50;
    o.large_cases = 5;
    o.large_length = std::size_t(1) << 16;
    return o;
}

// Calls f.template operator()<R>() for every (format, operation) of an entry whose type is an
// atomic strategy (P3008's fetch_* have no init(): the object holds the first element).
template <class E, class Fn>
void for_each_strategy(Fn&& f) {
    fc::registry::for_each<typename E::formats>([&]<class FE>() {
        using F = gpu::canonical_t<typename FE::type>;
        using Max = gpu::canonical_t<typename E::template on<F, fc::reduce_op::max>>;
        using Min = gpu::canonical_t<typename E::template on<F, fc::reduce_op::min>>;
        if constexpr (fc::atomic::atomic_strategy<Max> || fc::atomic::arg_atomic_strategy<Max>) {
            f.template operator()<Max>();
            f.template operator()<Min>();
        }
    });
}

}  // namespace

// One enum for a reduction's form (form.hpp); the keyed kernels' earlier names still compile.
static_assert(gpu::value_form::warp_aggregated == gpu::atomic_form::warp && gpu::value_form::full_grid == gpu::atomic_form::grid);

TEST(GpuCheck, every_registry_strategy_passes_in_every_launch_shape) {
    FLIPCHECK_REQUIRE_DEVICE();
    int checked = 0;
    fc::registry::for_each<fc::registry::reducers>([&]<class E>() {
        for_each_strategy<E>([&]<class R>() {
            for (auto form : gpu::atomic_forms) {
                const fc::check_report r = fc::check(gpu::subject_of<R>(form), quick());
                EXPECT_TRUE(r.passed()) << r.text();
                ++checked;
            }
        });
    });
    EXPECT_GE(checked, 100);
}

TEST(GpuCheck, every_atomic_mutant_fails_in_every_launch_shape) {
    FLIPCHECK_REQUIRE_DEVICE();
    fc::registry::for_each<fc::registry::reducer_mutants>([&]<class E>() {
        for (auto form : gpu::atomic_forms) {
            bool caught = false;
            for_each_strategy<E>([&]<class R>() { caught = caught || !fc::check(gpu::subject_of<R>(form), quick()).passed(); });
            EXPECT_TRUE(caught) << E::name << " passed in the " << gpu::to_string(form) << " shape";
        }
    });
}

TEST(GpuCheck, a_failure_shrinks_and_names_the_shape) {
    FLIPCHECK_REQUIRE_DEVICE();
    using R = fc::atomic::signbit_dispatch<fc::binary32, fc::reduce_op::max, true>;  // seed 004's `>= 0`
    const fc::check_report r = fc::check(gpu::subject_of<R>(gpu::atomic_form::block_shared));
    ASSERT_FALSE(r.passed());
    EXPECT_EQ(r.subject, "seed004_ge0 (gpu block_shared)");
    EXPECT_EQ(r.failure->input, (std::vector<std::uint64_t>{0x80000000u})) << r.text();
}

// A user's mapping: in no list of flipcheck's; this translation unit instantiates the launcher.
struct users_key {
    using format = fc::binary32;
    static constexpr std::string_view name = "users_key";
    FLIPCHECK_HD static constexpr std::uint32_t encode(std::uint32_t b) noexcept {
        return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    }
    FLIPCHECK_HD static constexpr std::uint32_t decode(std::uint32_t k) noexcept {
        return (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    }
};
// And one wrong at a single key near the end of the key space.
struct users_key_wrong_at_one {
    using format = fc::binary32;
    static constexpr std::string_view name = "users_key_wrong_at_one";
    static constexpr std::uint32_t bad = 0xfff00000u;
    FLIPCHECK_HD static constexpr std::uint32_t swap(std::uint32_t k) noexcept { return k == bad ? bad - 1 : k == bad - 1 ? bad : k; }
    FLIPCHECK_HD static constexpr std::uint32_t encode(std::uint32_t b) noexcept { return swap(users_key::encode(b)); }
    FLIPCHECK_HD static constexpr std::uint32_t decode(std::uint32_t k) noexcept { return users_key::decode(swap(k)); }
};

TEST(GpuCheck, a_users_mapping_sweeps_on_the_device_as_on_the_cpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    const fc::sweep_report r = gpu::sweep<users_key>({});
    EXPECT_TRUE(r.passed());
    EXPECT_EQ(r.keys_checked, std::uint64_t(1) << 32);
    fc::sweep_options o;
    o.limit = 4;
    EXPECT_TRUE(gpu::cross_check<users_key_wrong_at_one>(o).empty());
    const fc::sweep_report w = gpu::sweep<users_key_wrong_at_one>(o);
    ASSERT_FALSE(w.passed());
    EXPECT_EQ(w.counterexamples.front().key, users_key_wrong_at_one::bad - 1) << fc::mapping_text<users_key_wrong_at_one>(w);
}
