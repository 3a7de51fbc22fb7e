// The byte formats' atomic strategies on real GPU atomics (flipcheck/gpu/exhaustive.cuh): every
// array of one, two and three codes of every low-precision format, in both launch shapes, for
// every strategy of registry::byte_reducers (keys in a 32-bit word, or a byte updated in place by
// a CAS on its containing word). A wrong strategy must fail; the format-aware key computes the
// same keys on the device as on the host.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flipcheck/gpu/detail/registry_types.hpp"
#include "flipcheck/gpu/exhaustive.cuh"
#include "flipcheck/catalog/registry.hpp"
#include "require_device.hpp"

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;

namespace {

template <class F>
__global__ void keys_kernel(std::uint8_t* keys, std::uint8_t* back) {
    const unsigned b = threadIdx.x;
    keys[b] = fc::key_mapping<F>::encode(std::uint8_t(b));
    back[b] = fc::key_mapping<F>::decode(keys[b]);
}

}  // namespace

// format_key<e4m3fnuz> with no with_nan_at: a propagating max keeps the NaN at the bottom.
// (Outside the anonymous namespace: nvcc warns of its unused name there.)
namespace test_subjects {
struct stuck_key {
    using format = fc::float8_e4m3fnuz;
    using storage = std::uint8_t;
    static constexpr std::string_view name = "stuck_key";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return fc::format_key<format>::encode(b); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return fc::format_key<format>::decode(k); }
};
}  // namespace test_subjects

TEST(GpuExhaustive, every_byte_strategy_passes_every_array_up_to_three_codes_in_both_shapes) {
    FLIPCHECK_REQUIRE_DEVICE();
    int checked = 0;
    fc::registry::for_each<fc::registry::byte_reducers>([&]<class E>() {
        fc::registry::for_each<typename E::formats>([&]<class FE>() {
            using F = gpu::canonical_t<typename FE::type>;
            auto one = [&]<class A>() {
                for (int length : {1, 2, 3})
                    for (auto shape : {gpu::exhaustive_shape::sequential, gpu::exhaustive_shape::contended}) {
                        const gpu::exhaustive_report r = gpu::check_every_array<A>(length, shape);
                        EXPECT_TRUE(r.passed()) << E::name << " " << F::name << " " << fc::to_string(A::op) << " length "
                                                << length << (shape == gpu::exhaustive_shape::sequential ? " sequential" : " contended")
                                                << ": " << r.failures << " of " << r.arrays << " wrong, first #" << r.first;
                        ++checked;
                    }
            };
            one.template operator()<gpu::canonical_t<typename E::template on<F, fc::reduce_op::max>>>();
            one.template operator()<gpu::canonical_t<typename E::template on<F, fc::reduce_op::min>>>();
        });
    });
    EXPECT_EQ(checked, int(fc::registry::byte_reducers::size) * 8 * 2 * 3 * 2);
}

TEST(GpuExhaustive, wrong_strategies_fail_on_the_device) {
    FLIPCHECK_REQUIRE_DEVICE();
    using e8m0_seed000 = fc::atomic::mapped<fc::sign_flip<fc::float8_e8m0fnu>, fc::nan_policy::total_order, fc::reduce_op::max>;
    using stuck = fc::atomic::widened<fc::atomic::mapped<test_subjects::stuck_key, fc::nan_policy::propagate, fc::reduce_op::max>>;
    for (auto shape : {gpu::exhaustive_shape::sequential, gpu::exhaustive_shape::contended}) {
        const auto a = gpu::check_every_array<e8m0_seed000>(2, shape);
        EXPECT_GT(a.failures, 0u);
        const auto b = gpu::check_every_array<stuck>(2, shape);
        EXPECT_EQ(b.failures, 2u * 255u);  // the NaN beside any number, either order
        EXPECT_EQ(b.first, 0x80u);          // [0x00, 0x80]: +0 and the NaN
    }
}

TEST(GpuExhaustive, format_key_is_the_same_on_the_device) {
    FLIPCHECK_REQUIRE_DEVICE();
    fc::registry::for_each<fc::registry::low_precision_formats>([&]<class FE>() {
        using F = gpu::canonical_t<typename FE::type>;
        gpu::device_buffer<std::uint8_t> keys(256), back(256);
        keys_kernel<F><<<1, 256>>>(keys.get(), back.get());
        gpu::check(cudaGetLastError(), "keys_kernel launch");
        gpu::check(cudaDeviceSynchronize(), "keys_kernel");
        const auto k = keys.download(), d = back.download();
        for (unsigned b = 0; b < 256; ++b) {
            ASSERT_EQ(k[b], fc::key_mapping<F>::encode(std::uint8_t(b))) << F::name << " code " << b;
            ASSERT_EQ(d[b], fc::key_mapping<F>::decode(k[b])) << F::name << " code " << b;
        }
    });
}
