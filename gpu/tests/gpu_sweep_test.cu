// The GPU sweep against its contract: every built-in passes every key, and on broken mappings the
// GPU report equals the CPU driver's field by field. Needs a CUDA device; without one those tests
// report SKIPPED (and ctest shows them as skipped). GpuFilter runs on the host and needs none.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/gpu/sweep.cuh"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/sweep.hpp"
#include "require_device.hpp"
#include "flipcheck/gpu/sweep.hpp"

namespace {

namespace fc = flipcheck;
namespace gpu = flipcheck::gpu;
namespace mut = flipcheck::mutants;
using fc::bfloat16;
using fc::binary16;
using fc::binary32;
using fc::binary64;

// The CPU stops at the end of a chunk; on one thread it stops exactly where the GPU does.
fc::sweep_options one_thread() {
    fc::sweep_options o;
    o.threads = 1;
    return o;
}

std::string lines(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& l : v) s += "\n  " + l;
    return s;
}

template <class M>
std::string subject() {
    return std::string(M::name) + " on " + std::string(M::format::name);
}

// The kernel's filter must be sound: wherever it passes, every law holds (failures() is 0). Its
// code is FLIPCHECK_HD, so this runs on the host: every key of the 16-bit formats, and for binary32
// a stride through the keys plus each edge value's pattern, key and neighbours.
template <class M>
void expect_filter_sound() {
    using F = typename M::format;
    using S = typename F::storage;
    SCOPED_TRACE(subject<M>());
    auto check = [](S k) {
        if (k == F::all_ones) return true;  // the launcher checks the last key exactly
        if (!flipcheck::gpu::dev::fast_filter<M>::ok(k)) return true;
        const fc::law_set f = fc::mapping_laws<M>::failures(k);
        EXPECT_EQ(f, 0u) << "the filter passes key " << std::uint64_t(k) << " where laws fail";
        return f == 0;
    };
    std::uint64_t flagged = 0;
    if constexpr (F::width == 16) {
        for (std::uint64_t k = 0; k <= F::all_ones; ++k) {
            if (!check(S(k))) return;
            flagged += !flipcheck::gpu::dev::fast_filter<M>::ok(S(k));
        }
        EXPECT_GT(flagged, 0u);  // every format has NaN keys, which the filter flags
    } else {
        for (std::uint64_t k = 0; k <= F::all_ones; k += 65521)
            if (!check(S(k))) return;
        for (S e : fc::edge_values<F>())
            for (S k : {e, M::encode(e)})
                for (S d : {S(0), S(1), S(2), S(-1), S(-2)})
                    if (!check(S(k + d))) return;
    }
}

// Not a bijection: 1.0 and its successor share a key, so only round_trip_bits fails at 1.0's
// pattern read as a key (a key where rt_key, order and zero placement all hold).
template <class F>
struct collapsed_one {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "collapsed_one";
    using good = fc::sign_flip_branchless<F>;
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        return good::encode(b == storage(F::one + 1) ? F::one : b);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return good::decode(k); }
};

template <template <class> class Map>
void expect_filter_sound_for_small_formats() {
    expect_filter_sound<Map<binary16>>();
    expect_filter_sound<Map<bfloat16>>();
    expect_filter_sound<Map<binary32>>();
}

TEST(GpuFilter, SoundForEverySubject) {
    expect_filter_sound_for_small_formats<fc::sign_flip>();
    expect_filter_sound_for_small_formats<fc::sign_flip_branchless>();
    expect_filter_sound_for_small_formats<fc::signed_key>();
    expect_filter_sound_for_small_formats<mut::sign_bit_only>();
    expect_filter_sound_for_small_formats<mut::no_invert_negatives>();
    expect_filter_sound_for_small_formats<mut::wrong_inverse_branch>();
    expect_filter_sound_for_small_formats<mut::zeros_swapped>();
    expect_filter_sound_for_small_formats<mut::wrong_at_neg_denorm_min>();
    expect_filter_sound_for_small_formats<mut::signed_key_as_unsigned>();
    expect_filter_sound<mut::swapped_pi<binary32>>();
    expect_filter_sound_for_small_formats<collapsed_one>();
}

// The random part of binary64's sample (sweep.cuh's stratified_keys), on the host: each run of 4
// neighbouring keys lies in its own stratum, so the keys ascend, and the runs' offsets inside the
// strata spread evenly, for strata from 8 keys to 2^63 and whatever the seed.
TEST(GpuSampledKeys, OneRunInEachStratumSpreadEvenly) {
    constexpr int run = gpu::dev::stratified_keys::unroll;
    for (const int shift : {3, 8, 30, 32, 33, 40, 63}) {
        for (const std::uint64_t seed : {std::uint64_t(0), std::uint64_t(0x5eed), ~std::uint64_t(0)}) {
            SCOPED_TRACE("shift " + std::to_string(shift) + ", seed " + std::to_string(seed));
            // 2^16 strata at each end of the space (all of them where there are fewer)
            const std::uint64_t strata = std::min<std::uint64_t>(1 << 16, (std::uint64_t(1) << (64 - shift)) / 2);
            const std::uint64_t firsts[] = {0, (std::uint64_t(1) << (64 - shift)) - strata};
            double sum = 0;
            std::uint64_t high = 0, n = 0, previous = 0;
            for (const std::uint64_t first : firsts) {
                const gpu::dev::stratified_keys src{seed, first * run, shift};
                for (std::uint64_t i = 0; i < strata * run; ++i) {
                    const std::uint64_t k = src.key(i), offset = k & ((std::uint64_t(1) << shift) - 1);
                    ASSERT_EQ(k >> shift, first + i / run) << "key " << k << " is outside its stratum";
                    if (n > 0 || i > 0) ASSERT_GT(k, previous);
                    if (i % run) ASSERT_EQ(k, previous + 1) << "a run's keys are neighbours";
                    previous = k;
                    if (i % run) continue;
                    ASSERT_EQ(offset % run, 0u) << "a run starts at a multiple of its length";
                    ++n;
                    sum += double(offset) / double(std::uint64_t(1) << shift);
                    high += offset >> (shift - 1);
                }
            }
            if (shift < 8 || n < 10000) continue;  // too few offsets, or too few bits each, to judge a spread
            EXPECT_NEAR(sum / double(n), 0.5, 0.01);             // uniform offsets average a half
            EXPECT_NEAR(double(high) / double(n), 0.5, 0.01);    // and have their top bit half the time
        }
    }
}

// The device visits the random runs through the kernel's cursor and the host names them through
// key(i): a mutant that fails at half of all keys makes the two meet at every failing key (the
// launcher re-checks each on the host, and the census, through key(i), must add up to the fast
// pass's counts), and the counts equal the host's own over the same keys.
TEST(GpuSweep, Binary64RandomRunsAreTheKeysTheHostNames) {
    FLIPCHECK_REQUIRE_DEVICE();
    using M = mut::sign_bit_only<binary64>;
    gpu::sampled_params p;
    p.sample.randoms = 8;  // a short list: the random keys are this test's subject (and it runs under compute-sanitizer)
    p.random_keys = std::uint64_t(1) << 20;
    fc::sweep_options o = one_thread();
    o.all = true;
    const fc::sweep_report g = gpu::sampled_sweep<M>(o, p), cpu = fc::sampled_sweep<M>(o, p.sample);
    std::uint64_t failing = cpu.failing_keys;
    auto by_law = cpu.failures_by_law;
    const int shift = 64 - std::countr_zero(p.random_keys / gpu::dev::stratified_keys::unroll);
    const gpu::dev::stratified_keys src{p.sample.seed, 0, shift};
    for (std::uint64_t i = 0; i < p.random_keys; ++i) {
        const fc::law_set f = fc::mapping_laws<M>::failures(src.key(i));
        failing += f != 0;
        for (int l = 0; l < fc::mapping_law_count; ++l) by_law[l] += (f >> l) & 1u;
    }
    EXPECT_EQ(g.keys_checked, cpu.keys_checked + p.random_keys);
    EXPECT_GT(failing, p.random_keys / 4);
    EXPECT_EQ(g.failing_keys, failing);
    EXPECT_EQ(g.failures_by_law, by_law);
    // Shards cut the random keys in whole runs (2^18 runs in three shards here): together they
    // check every key once.
    std::uint64_t shard_keys = 0, shard_failing = 0;
    for (std::uint32_t i = 0; i < 3; ++i) {
        o.part = {i, 3};
        const fc::sweep_report part = gpu::sampled_sweep<M>(o, p);
        shard_keys += part.keys_checked;
        shard_failing += part.failing_keys;
    }
    EXPECT_EQ(shard_keys, g.keys_checked);
    EXPECT_EQ(shard_failing, g.failing_keys);
}

template <class M>
void expect_every_key_passes() {
    SCOPED_TRACE(subject<M>());
    const fc::sweep_report r = gpu::sweep<M>({});
    EXPECT_EQ(r.backend, "gpu");
    EXPECT_EQ(r.domain, "exhaustive");
    EXPECT_EQ(r.keys_checked, std::uint64_t(1) << M::format::width);
    EXPECT_EQ(r.failing_keys, 0u);
    EXPECT_TRUE(r.counterexamples.empty()) << "first failure at key " << r.counterexamples[0].key;
    EXPECT_TRUE(r.passed());
    EXPECT_GT(r.seconds, 0.0);
}

template <class M>
void expect_agreement(const fc::sweep_options& o = {}) {
    SCOPED_TRACE(subject<M>());
    const std::vector<std::string> diffs = gpu::cross_check<M>(o);
    EXPECT_TRUE(diffs.empty()) << "GPU and CPU reports differ:" << lines(diffs);
}

// Exact equality with one CPU thread: the same stop point too, not only the same findings.
template <class M>
void expect_same_as_one_cpu_thread(fc::sweep_options o, const char* what) {
    SCOPED_TRACE(subject<M>() + ", " + what);
    o.threads = 1;
    const fc::sweep_report g = gpu::sweep<M>(o), c = fc::sweep<M>(o);
    const std::vector<std::string> diffs = gpu::compare_reports(g, c);
    EXPECT_TRUE(diffs.empty()) << "GPU and CPU reports differ:" << lines(diffs);
}

template <template <class> class Map, class F>
void expect_builtin_passes_and_agrees() {
    expect_every_key_passes<Map<F>>();
    expect_agreement<Map<F>>();
}

TEST(GpuSweep, BuiltinsPassEveryBinary16AndBfloat16KeyAndMatchCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_builtin_passes_and_agrees<fc::sign_flip, binary16>();
    expect_builtin_passes_and_agrees<fc::sign_flip_branchless, binary16>();
    expect_builtin_passes_and_agrees<fc::signed_key, binary16>();
    expect_builtin_passes_and_agrees<fc::sign_flip, bfloat16>();
    expect_builtin_passes_and_agrees<fc::sign_flip_branchless, bfloat16>();
    expect_builtin_passes_and_agrees<fc::signed_key, bfloat16>();
}

TEST(GpuSweep, BuiltinsPassEveryBinary32Key) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_every_key_passes<fc::sign_flip<binary32>>();
    expect_every_key_passes<fc::sign_flip_branchless<binary32>>();
    expect_every_key_passes<fc::signed_key<binary32>>();
}

template <class M>
void expect_sampled_passes() {
    SCOPED_TRACE(subject<M>());
    gpu::sweep_timing t;
    const fc::sweep_report r = gpu::sweep<M>({}, &t);
    EXPECT_EQ(r.domain, "sampled");
    EXPECT_GE(r.keys_checked, gpu::sampled_params{}.random_keys);
    EXPECT_EQ(r.keys_checked, r.range.size());
    EXPECT_TRUE(r.passed()) << r.failing_keys << " failing keys";
    EXPECT_GT(t.wall_seconds, 0.0);
}

TEST(GpuSweep, BuiltinsPassBinary64SampledAndRandomKeys) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_sampled_passes<fc::sign_flip<binary64>>();
    expect_sampled_passes<fc::sign_flip_branchless<binary64>>();
    expect_sampled_passes<fc::signed_key<binary64>>();
}

TEST(GpuSweep, BuiltinsPassBinary64KeyRanges) {
    FLIPCHECK_REQUIRE_DEVICE();
    const std::uint64_t mid = std::uint64_t(1) << 63, w = std::uint64_t(1) << 31;
    // The bottom (negative NaNs), the step from negatives to positives, and the top (+NaNs).
    const fc::key_range ranges[] = {{0, 2 * w}, {mid - w, mid + w}, {~std::uint64_t(0) - 2 * w, ~std::uint64_t(0)}};
    for (const fc::key_range r : ranges) {
        fc::sweep_options o;
        o.range = r;
        EXPECT_TRUE(gpu::sweep<fc::sign_flip<binary64>>(o).passed());
        EXPECT_TRUE(gpu::sweep<fc::sign_flip_branchless<binary64>>(o).passed());
        EXPECT_TRUE(gpu::sweep<fc::signed_key<binary64>>(o).passed());
    }
    fc::sweep_options o;  // 2^34 keys: 64 launches of launch_keys
    o.range = fc::key_range{mid - 8 * w, mid + 8 * w};
    const fc::sweep_report r = gpu::sweep<fc::sign_flip_branchless<binary64>>(o);
    EXPECT_TRUE(r.passed());
    EXPECT_EQ(r.keys_checked, 16 * w);
}

TEST(GpuSweep, Binary64FailuresInALaterLaunchMatchCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    // 2^33 + 2^21 keys: 33 launches; the zeros (the failures) fall in the middle one.
    const std::uint64_t mid = std::uint64_t(1) << 63, w = (std::uint64_t(1) << 32) + (std::uint64_t(1) << 20);
    fc::sweep_options o;
    o.range = fc::key_range{mid - w, mid + w};
    o.limit = 1;
    expect_agreement<mut::zeros_swapped<binary64>>(o);
    o.all = true;
    expect_agreement<mut::zeros_swapped<binary64>>(o);
}

TEST(GpuSweep, Binary64SampledMatchesCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_agreement<fc::sign_flip<binary64>>();
    expect_agreement<fc::sign_flip_branchless<binary64>>();
    expect_agreement<fc::signed_key<binary64>>();
    expect_agreement<mut::zeros_swapped<binary64>>();  // few failures: the explained-failures path
    expect_agreement<mut::sign_bit_only<binary64>>();  // many: the census path, stopping at a chunk's end
    fc::sweep_options o;
    o.part = {2, 5};
    o.limit = 3;
    expect_agreement<mut::sign_bit_only<binary64>>(o);
}

TEST(GpuSweep, Binary64SampledRandomKeysKeepTheListsFindings) {
    FLIPCHECK_REQUIRE_DEVICE();
    using M = mut::zeros_swapped<binary64>;
    const fc::sweep_report cpu = fc::sampled_sweep<M>(one_thread()), g = gpu::sweep<M>({});
    EXPECT_FALSE(g.passed());
    EXPECT_EQ(g.failing_keys, cpu.failing_keys);
    EXPECT_EQ(g.failures_by_law, cpu.failures_by_law);
    EXPECT_EQ(g.counterexamples, cpu.counterexamples);
    EXPECT_EQ(g.keys_checked, cpu.keys_checked + gpu::sampled_params{}.random_keys);
}

TEST(GpuMutants, Binary32MutantsMatchCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    EXPECT_FALSE(gpu::sweep<mut::sign_bit_only<binary32>>({}).passed());
    EXPECT_FALSE(gpu::sweep<mut::zeros_swapped<binary32>>({}).passed());
    EXPECT_FALSE(gpu::sweep<mut::wrong_at_neg_denorm_min<binary32>>({}).passed());
    expect_agreement<mut::sign_bit_only<binary32>>();
    expect_agreement<mut::zeros_swapped<binary32>>();
    expect_agreement<mut::wrong_at_neg_denorm_min<binary32>>();
    expect_same_as_one_cpu_thread<mut::sign_bit_only<binary32>>({}, "default options");
}

TEST(GpuMutants, SignBitOnlyAllKeysMatchesCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    fc::sweep_options o;
    o.all = true;  // 2^31 failing keys: every tile through the census
    expect_agreement<mut::sign_bit_only<binary32>>(o);
}

template <class M>
void expect_options_agree() {
    const fc::key_range zeros{0x7fff0000u, 0x80010000u};
    fc::sweep_options o;
    o.range = zeros;
    expect_same_as_one_cpu_thread<M>(o, "keys around the zeros");
    o.limit = 1;
    expect_same_as_one_cpu_thread<M>(o, "limit 1");
    o.limit = 2;
    expect_same_as_one_cpu_thread<M>(o, "limit 2");
    o.limit = 0;
    expect_same_as_one_cpu_thread<M>(o, "limit 0");
    o.all = true;
    expect_same_as_one_cpu_thread<M>(o, "limit 0, all");
    o.limit = 5;
    expect_same_as_one_cpu_thread<M>(o, "limit 5, all");
    o = {};
    o.range = zeros;
    o.laws = fc::law_bit(fc::law_id::successor_order) | fc::law_bit(fc::law_id::nan_ignore);
    expect_same_as_one_cpu_thread<M>(o, "two laws");
    o = {};
    o.range = fc::key_range{5, 5};  // nothing to check: refused on both, never a pass of 0 keys
    EXPECT_THROW(gpu::sweep<M>(o), fc::input_error);
    EXPECT_THROW(fc::sweep<M>(o), fc::input_error);
    o = {};
    o.range = fc::key_range{0x7f000000u, 0x81000000u};  // 8 chunks of 2^22 keys
    o.part = {1, 3};
    expect_same_as_one_cpu_thread<M>(o, "shard 1/3");
    o.part = {};
    o.limit = 1;
    expect_same_as_one_cpu_thread<M>(o, "stop after a later chunk, limit 1");
    o.limit = 2;
    expect_same_as_one_cpu_thread<M>(o, "stop after a later chunk, limit 2");
    o = {};
    o.range = fc::key_range{0x7ffff000u, 0x80400000u};
    expect_same_as_one_cpu_thread<M>(o, "a chunk and a bit");
}

TEST(GpuMutants, LimitsRangesShardsAndLawsMatchOneCpuThread) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_options_agree<mut::sign_bit_only<binary32>>();
    expect_options_agree<mut::zeros_swapped<binary32>>();
    expect_options_agree<mut::wrong_at_neg_denorm_min<binary32>>();
}

template <template <class> class Map>
void expect_small_formats_agree() {
    expect_agreement<Map<binary16>>();
    expect_agreement<Map<bfloat16>>();
    fc::sweep_options o;
    o.all = true;
    expect_agreement<Map<binary16>>(o);
    expect_agreement<Map<bfloat16>>(o);
}

TEST(GpuMutants, EveryMutantOnBinary16AndBfloat16MatchesCpu) {
    FLIPCHECK_REQUIRE_DEVICE();
    expect_small_formats_agree<mut::sign_bit_only>();
    expect_small_formats_agree<mut::no_invert_negatives>();
    expect_small_formats_agree<mut::wrong_inverse_branch>();
    expect_small_formats_agree<mut::zeros_swapped>();
    expect_small_formats_agree<mut::wrong_at_neg_denorm_min>();
    expect_small_formats_agree<mut::signed_key_as_unsigned>();
}

TEST(GpuMutants, WrongAtPiIsFoundOnlyByTheExhaustiveSweep) {
    FLIPCHECK_REQUIRE_DEVICE();
    using M = mut::swapped_pi<binary32>;
    const fc::sweep_report r = gpu::sweep<M>({});
    ASSERT_FALSE(r.counterexamples.empty());
    EXPECT_EQ(r.counterexamples[0].law, fc::law_id::successor_order);
    expect_agreement<M>();
}

TEST(GpuSweep, InputErrorsInterruptAndProgress) {
    FLIPCHECK_REQUIRE_DEVICE();
    using M = fc::sign_flip_branchless<binary32>;
    fc::sweep_options o;
    o.checkpoint = "gpu.ckpt";
    EXPECT_THROW(gpu::sweep<M>(o), fc::input_error);
    o = {};
    o.part = {1, 1};
    EXPECT_THROW(gpu::sweep<M>(o), fc::input_error);
    o = {};
    o.range = fc::key_range{0, std::uint64_t(1) << 33};
    EXPECT_THROW(gpu::sweep<M>(o), fc::input_error);
    gpu::sampled_params p;
    p.random_keys = 3;
    EXPECT_THROW(gpu::sampled_sweep<fc::sign_flip<binary64>>({}, p), fc::input_error);
    p.random_keys = 4;  // one stratum: too few for runs of 4
    EXPECT_THROW(gpu::sampled_sweep<fc::sign_flip<binary64>>({}, p), fc::input_error);

    std::atomic<bool> stop{true};
    o = {};
    o.stop = &stop;
    fc::sweep_report r = gpu::sweep<M>(o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.keys_checked, 0u);
    EXPECT_FALSE(r.passed());

    o = {};
    std::uint64_t last = 0;
    o.progress = [&](const fc::sweep_progress& p) { last = p.keys_done; };
    r = gpu::sweep<M>(o);
    EXPECT_EQ(last, r.keys_checked);
}

}  // namespace
