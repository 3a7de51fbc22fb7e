// check/reducers.hpp, the plug-in path for a user's reducer, atomic strategy or mapping: every subject of
// the registry passes it, every mutant of the zoo fails it (so each stage can fail), failures
// shrink to small cases, and a case's text reads back exactly.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/catalog/registry.hpp"

namespace fc = flipcheck;
using fc::reduce_op;

namespace {

// Small enough for the sanitizer build; the defaults run in the RapidCheck macros' tests.
fc::check_options quick() {
    fc::check_options o;
    o.random_cases = 300;
    o.reorderings = 50;
    o.large_cases = 4;
    o.large_length = 4096;
    return o;
}

// A registry reducer through the public subject type. P3008's fetch_* have no init() (the
// object holds the first element), so they are not atomic strategies: they are replayed directly.
template <class R>
fc::reducer_subject<typename R::format> subject(std::string_view name) {
    if constexpr (fc::atomic::atomic_strategy<R> || fc::atomic::arg_atomic_strategy<R>) {
        return fc::subject_of<R>(name);
    } else {
        using S = typename R::format::storage;
        fc::reducer_subject<typename R::format> s;
        s.name = std::string(name);
        s.op = R::op;
        s.declared = R::declared;
        s.interleaved = true;
        s.run = [](std::span<const S> xs, std::span<const std::size_t> order) -> std::optional<std::uint64_t> {
            const auto r = fc::atomic::replay<R>(xs, order);
            if (!r) return std::nullopt;
            return std::uint64_t(*r);
        };
        return s;
    }
}

template <class E, class Fn>
void for_each_instance(Fn&& f) {
    fc::registry::for_each<typename E::formats>([&]<class FE>() {
        f.template operator()<typename E::template on<typename FE::type, reduce_op::max>>();
        f.template operator()<typename E::template on<typename FE::type, reduce_op::min>>();
    });
}

}  // namespace

TEST(Check, every_registry_reducer_passes) {
    fc::registry::for_each<fc::registry::reducers>([]<class E>() {
        for_each_instance<E>([]<class R>() {
            const auto s = subject<R>(E::name);
            const fc::check_report r = fc::check(s, quick());
            EXPECT_TRUE(r.passed()) << r.text();
            EXPECT_EQ(r.stages.size(), s.run_steps ? 5u : 4u) << r.text();  // an atomic strategy's steps too
        });
    });
}

TEST(Check, every_reducer_mutant_fails) {
    fc::registry::for_each<fc::registry::reducer_mutants>([]<class E>() {
        bool caught = false;
        std::string last;
        for_each_instance<E>([&]<class R>() {
            const fc::check_report r = fc::check(subject<R>(E::name), quick());
            caught = caught || !r.passed();
            if (!r.passed()) last = r.text();
        });
        EXPECT_TRUE(caught) << E::name << " passed on every instance";
        // The battery alone catches it: the seed does not matter.
        EXPECT_NE(last.find("edge_battery"), std::string::npos) << last;
    });
}

TEST(Check, every_array_mutant_fails) {
    fc::registry::for_each<fc::registry::array_mutants>([]<class E>() {
        fc::check_options o = quick();
        if constexpr (requires { E::type::large_input; }) o.large_length = E::type::large_input;
        const fc::check_report r = fc::check(fc::subject_of<typename E::type>(E::name), o);
        EXPECT_FALSE(r.passed()) << E::name << ": " << r.text();
    });
}

TEST(Check, every_mapping_mutant_fails_and_every_mapping_passes) {
    // On the 16-bit formats: exhaustive in milliseconds, even under the sanitizers.
    auto sixteen = []<class I>(bool expect_pass) {
        using M = typename I::type;
        if constexpr (M::format::width == 16) {
            const fc::sweep_report r = fc::check_mapping<M>();
            EXPECT_EQ(r.passed(), expect_pass) << fc::mapping_text<M>(r);
            if (!r.passed()) {
                const auto& c = r.counterexamples.front();
                EXPECT_FALSE(fc::check_mapping_key<M>(typename M::format::storage(c.key)).passed());
            }
        }
    };
    fc::registry::for_each<fc::registry::instances<fc::registry::mapping_mutants>>([&]<class I>() { sixteen.template operator()<I>(false); });
    fc::registry::for_each<fc::registry::instances<fc::registry::mappings>>([&]<class I>() { sixteen.template operator()<I>(true); });
}

// A mapping wrong at one key near the end: first_failing_chunk stops after the chunks up to it.
struct wrong_at_one_key {
    using format = fc::binary16;
    static constexpr std::string_view name = "wrong_at_one_key";
    static constexpr std::uint16_t bad = 0xfff0;
    static constexpr std::uint16_t encode(std::uint16_t b) noexcept {
        const std::uint16_t k = fc::key_mapping<fc::binary16>::encode(b);
        return k == bad ? std::uint16_t(bad - 1) : k == bad - 1 ? bad : k;  // two keys swapped
    }
    static constexpr std::uint16_t decode(std::uint16_t k) noexcept {
        return fc::key_mapping<fc::binary16>::decode(k == bad ? std::uint16_t(bad - 1) : k == bad - 1 ? bad : k);
    }
};

TEST(Check, mapping_wrong_at_one_key_is_reported_with_a_replay_line) {
    const fc::sweep_report r = fc::check_mapping<wrong_at_one_key>();
    ASSERT_FALSE(r.passed());
    const std::string text = fc::mapping_text<wrong_at_one_key>(r);
    EXPECT_NE(text.find("successor_order"), std::string::npos) << text;
    EXPECT_NE(text.find("replay: key 0xffef"), std::string::npos) << text;
    const fc::sweep_report all = fc::check_mapping<wrong_at_one_key>(true);
    EXPECT_EQ(all.keys_checked, 65536u);
    EXPECT_GE(all.failing_keys, r.failing_keys);
}

// A user's reducer with the classic bug: `>` keeps the first of -0 and +0.
struct first_of_zeros {
    using format = fc::binary32;
    static constexpr std::string_view name = "first_of_zeros";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::ignore, fc::zero_policy::ordered, fc::tie_policy::any};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint32_t best = xs[0];
        for (std::uint32_t x : xs)
            if (std::bit_cast<float>(x) > std::bit_cast<float>(best) || std::bit_cast<float>(best) != std::bit_cast<float>(best)) best = x;
        return best;
    }
};

TEST(Check, a_failure_is_shrunk_and_replays) {
    const fc::check_report r = fc::check_reducer<first_of_zeros>();
    ASSERT_FALSE(r.passed());
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->stage, fc::check_stage::edge_battery);
    EXPECT_EQ(r.failure->input, (std::vector<std::uint64_t>{0x80000000u, 0x00000000u})) << r.text();
    EXPECT_EQ(r.failure->replay, "binary32: 0x80000000,0x00000000");
    const auto [xs, order] = fc::parse_case<fc::binary32>(r.failure->replay);
    const fc::check_report again = fc::check_case(fc::subject_of<first_of_zeros>(), xs, order);
    EXPECT_FALSE(again.passed()) << again.text();
    EXPECT_EQ(again.failure->input, r.failure->input);
    // Without the battery, the random arrays find it and shrinking brings it down to two zeros.
    fc::check_options o;
    o.stages = {fc::check_stage::random_arrays};
    const fc::check_report random = fc::check_reducer<first_of_zeros>(o);
    ASSERT_FALSE(random.passed());
    EXPECT_LE(random.failure->input.size(), 2u) << random.text();
}

TEST(Check, interleavings_are_reported_and_replayed) {
    using R = fc::atomic::signbit_dispatch<fc::binary32, reduce_op::max, true>;  // seed 004's `>= 0` mutant
    fc::check_options o;
    o.stages = {fc::check_stage::random_arrays};
    const fc::check_report r = fc::check_atomic<R>(o);
    ASSERT_FALSE(r.passed());
    const auto [xs, order] = fc::parse_case<fc::binary32>(r.failure->replay);
    EXPECT_FALSE(fc::check_case(fc::subject_of<R>(), xs, order).passed());
}

// ---- interleaved_steps: atomic steps, not whole updates ----------------------------------------

namespace {
constexpr std::uint32_t key_of(std::uint32_t b) { return b >> 31 ? ~b : b | 0x80000000u; }
constexpr std::uint32_t bits_of(std::uint32_t k) { return k >> 31 ? k & 0x7fffffffu : ~k; }

// A compare-and-swap max on keys. Stale decides whether to go on from the value read before the
// loop, so an update that lands between its load and its CAS is overwritten (a lost update);
// Spin never refreshes what it compares against, so once another thread moves the word it retries
// for ever. Replaying whole updates, both are right: each runs alone from load to CAS.
enum class cas_bug { none, stale, spin };
template <cas_bug Bug>
struct cas_max {
    using format = fc::binary32;
    static constexpr std::string_view name = "cas_max";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::undefined, fc::zero_policy::ordered, fc::tie_policy::any};
    static constexpr std::uint32_t init() noexcept { return 0; }
    template <class Word>
    static void update(Word& w, std::uint32_t bits) noexcept {
        const std::uint32_t key = key_of(bits), first = w.load();
        std::uint32_t seen = first;
        while (key > (Bug == cas_bug::stale ? first : seen)) {
            const std::uint32_t old = w.cas(seen, key);
            if (old == seen) break;
            if (Bug != cas_bug::spin) seen = old;
        }
    }
    static std::uint32_t result(std::uint32_t word) noexcept { return bits_of(word); }
};

// bfloat16 max with its keys in a 32-bit word (a GPU has no 16-bit atomic max): right, and was
// once refused on the CPU, which ran it on a 16-bit word.
struct bf16_max_on_32_bits {
    using format = fc::bfloat16;
    static constexpr std::string_view name = "bf16_max_on_32_bits";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::undefined, fc::zero_policy::ordered, fc::tie_policy::any};
    static constexpr std::uint32_t init() noexcept { return 0; }
    template <class Word>
    static void update(Word& w, std::uint16_t bits) noexcept {
        w.fetch_max(key_of(std::uint32_t(bits) << 16));
    }
    static std::uint16_t result(std::uint32_t word) noexcept { return std::uint16_t(bits_of(word) >> 16); }
};
}  // namespace

TEST(Check, a_cas_loop_that_loses_an_update_fails_only_in_interleaved_steps_and_replays) {
    fc::check_options o = quick();
    const fc::check_report r = fc::check_atomic<cas_max<cas_bug::stale>>(o);
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_EQ(r.failure->stage, fc::check_stage::interleaved_steps) << r.text();
    EXPECT_EQ(r.failure->input.size(), 2u) << r.text();  // two threads are enough
    EXPECT_NE(r.failure->replay.find(" steps "), std::string::npos) << r.text();
    EXPECT_NE(r.text().find("in the atomic steps"), std::string::npos) << r.text();
    const auto [xs, order] = fc::parse_case<fc::binary32>(r.failure->replay);
    ASSERT_TRUE(fc::is_step_schedule(order));
    const fc::check_report again = fc::check_case(fc::subject_of<cas_max<cas_bug::stale>>(), xs, order);
    EXPECT_FALSE(again.passed()) << again.text();
    EXPECT_EQ(again.failure->replay, r.failure->replay);
    // The right loop passes every stage, interleaved_steps included.
    const fc::check_report right = fc::check_atomic<cas_max<cas_bug::none>>(o);
    EXPECT_TRUE(right.passed()) << right.text();
    EXPECT_EQ(right.stages.size(), 5u) << right.text();
}

TEST(Check, a_cas_loop_that_retries_for_ever_is_a_livelock) {
    fc::check_options o = quick();
    o.stages = {fc::check_stage::interleaved_steps};
    const fc::check_report r = fc::check_atomic<cas_max<cas_bug::spin>>(o);
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_NE(r.failure->explanation.find("did not finish within 4096 atomic steps"), std::string::npos) << r.text();
}

TEST(Check, a_strategy_runs_on_the_word_its_init_returns) {
    const fc::check_report r = fc::check_atomic<bf16_max_on_32_bits>(quick());
    EXPECT_TRUE(r.passed()) << r.text();
}

TEST(Check, a_step_schedule_reads_back_and_bad_ones_are_refused) {
    using F = fc::binary32;
    const auto [xs, order] = fc::parse_case<F>("binary32: 0x1, 0x2 steps 0,1,1,0");
    EXPECT_EQ(order, (std::vector<std::size_t>{fc::step_schedule, 0, 1, 1, 0}));
    EXPECT_EQ(fc::format_case<F>(xs, order), "binary32: 0x00000001,0x00000002 steps 0,1,1,0");
    EXPECT_THROW(fc::parse_case<F>("0x1 0x2 steps"), fc::input_error);
    // A thread the run does not have (a lane strategy's neighbours are threads too) is refused as it replays.
    EXPECT_THROW(fc::check_case(fc::subject_of<cas_max<cas_bug::none>>(), std::vector<std::uint32_t>{1, 2},
                                std::vector<std::size_t>{fc::step_schedule, 2}),
                 fc::input_error);
    // A thread that is not waiting at a step (it has finished) is refused as the replay runs.
    EXPECT_THROW(fc::check_case(fc::subject_of<cas_max<cas_bug::none>>(), std::vector<std::uint32_t>{1, 2},
                                std::vector<std::size_t>{fc::step_schedule, 0, 0, 0, 0}),
                 fc::input_error);
}

// ---- lane strategies: a bfloat16 in half of a shared 32-bit word ---------------------------------

namespace {
// bfloat16 max as a CAS loop on the aligned 32-bit word, replacing only this element's half; the
// other half is a neighbour's. Each bug is one a reviewer has seen:
//   wrong_shift     the half taken from a big-endian reading of the address (the CAS works on the
//                   neighbour's half; tilelang's class of bug: the wrong half of the bits);
//   clobber         the new word is the key alone: the neighbour's half is zeroed;
//   stale_neighbour the new word keeps the neighbour's half as read before the loop: a neighbour's
//                   update that lands between that read and the CAS is lost (steps only);
//   unshifted_mask  the mask that keeps the neighbour is not shifted: right at offset 0 only.
enum class lane_bug { none, wrong_shift, clobber, stale_neighbour, unshifted_mask };
template <lane_bug Bug>
struct bf16_max_lane {
    using format = fc::bfloat16;
    using shared_word = std::uint32_t;
    static constexpr std::string_view name = "bf16_max_lane";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::undefined, fc::zero_policy::ordered, fc::tie_policy::any};
    static constexpr std::uint16_t init() noexcept { return 0; }
    template <class Word>
    static void update(Word& w, unsigned offset, std::uint16_t bits) noexcept {
        const unsigned shift = Bug == lane_bug::wrong_shift ? (offset & 2 ? 0 : 16) : (offset & 2) * 8;
        const std::uint32_t keep = Bug == lane_bug::unshifted_mask ? ~0xffffu : ~(0xffffu << shift);
        const std::uint32_t key = key_of(std::uint32_t(bits) << 16) >> 16;
        const std::uint32_t first = w.load();
        std::uint32_t seen = first;
        while (key > (seen >> shift & 0xffffu)) {
            const std::uint32_t others = Bug == lane_bug::clobber           ? 0
                                         : Bug == lane_bug::stale_neighbour ? first & keep
                                                                            : seen & keep;
            const std::uint32_t old = w.cas(seen, others | key << shift);
            if (old == seen) break;
            seen = old;
        }
    }
    static std::uint16_t result(std::uint16_t lane) noexcept { return std::uint16_t(bits_of(std::uint32_t(lane) << 16) >> 16); }
};
static_assert(fc::atomic::lane_atomic_strategy<bf16_max_lane<lane_bug::none>>);
static_assert(!fc::atomic::atomic_strategy<bf16_max_lane<lane_bug::none>> && !fc::atomic::arg_atomic_strategy<bf16_max_lane<lane_bug::none>>);

template <lane_bug Bug>
fc::check_report check_lane() {
    return fc::check_atomic<bf16_max_lane<Bug>>(quick());
}
void expect_replays(const fc::check_report& r, const fc::reducer_subject<fc::bfloat16>& subject) {
    const auto [xs, order] = fc::parse_case<fc::bfloat16>(r.failure->replay);
    const fc::check_report again = fc::check_case(subject, xs, order);
    EXPECT_FALSE(again.passed()) << again.text();
    if (!again.passed()) {
        EXPECT_EQ(again.failure->explanation, r.failure->explanation);
    }
}
}  // namespace

TEST(Check, a_right_lane_strategy_passes_every_stage_at_every_offset) {
    const fc::check_report r = check_lane<lane_bug::none>();
    EXPECT_TRUE(r.passed()) << r.text();
    EXPECT_EQ(r.stages.size(), 5u) << r.text();
    // Each case ran at both offsets, with a neighbour each time.
    std::vector<std::uint16_t> xs{0x3f80, 0xbf80};
    const std::vector<std::size_t> order{1, 0};
    const auto lanes = fc::atomic::replay_lanes<bf16_max_lane<lane_bug::none>>(std::span<const std::uint16_t>(xs), order);
    ASSERT_EQ(lanes.size(), 4u);
    EXPECT_EQ(lanes[0].answer, 0x3f80u);
    EXPECT_EQ(lanes[1].offset, 2u);
    EXPECT_EQ(lanes[1].answer, std::uint64_t(fc::bfloat16::one));  // the neighbour's own update
    EXPECT_EQ(lanes[2].own_offset, 2u);
    EXPECT_EQ(lanes[3].answer, 0x3f80u);
}

TEST(Check, a_lane_strategy_on_the_wrong_half_fails_with_its_lane) {
    const fc::check_report r = check_lane<lane_bug::wrong_shift>();
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_EQ(r.failure->stage, fc::check_stage::edge_battery) << r.text();
    EXPECT_NE(r.failure->explanation.find("byte offset 0 of their 32-bit word"), std::string::npos) << r.text();
    expect_replays(r, fc::subject_of<bf16_max_lane<lane_bug::wrong_shift>>());
}

TEST(Check, a_lane_strategy_that_zeroes_its_neighbour_fails_lane_isolation) {
    const fc::check_report r = check_lane<lane_bug::clobber>();
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_EQ(r.failure->law.law, fc::law_id::lane_isolation) << r.text();
    EXPECT_NE(r.failure->explanation.find("the neighbour at byte offset"), std::string::npos) << r.text();
    expect_replays(r, fc::subject_of<bf16_max_lane<lane_bug::clobber>>());
}

TEST(Check, a_lane_strategy_wrong_at_one_offset_only_fails_there) {
    const fc::check_report r = check_lane<lane_bug::unshifted_mask>();
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_NE(r.failure->explanation.find("at byte offset 2"), std::string::npos) << r.text();
    expect_replays(r, fc::subject_of<bf16_max_lane<lane_bug::unshifted_mask>>());
}

TEST(Check, a_lane_strategy_that_loses_its_neighbours_update_fails_only_in_steps_and_replays) {
    const fc::check_report r = check_lane<lane_bug::stale_neighbour>();
    ASSERT_FALSE(r.passed()) << r.text();
    EXPECT_EQ(r.failure->stage, fc::check_stage::interleaved_steps) << r.text();
    ASSERT_TRUE(fc::is_step_schedule(r.failure->order)) << r.text();
    // The neighbour's thread (numbered after the array's) takes a step between a load and a CAS: the
    // stale write loses either its update or the array's.
    EXPECT_NE(std::find(r.failure->order.begin() + 1, r.failure->order.end(), r.failure->input.size()), r.failure->order.end())
        << r.text();
    EXPECT_NE(r.text().find("the neighbours' threads"), std::string::npos) << r.text();
    expect_replays(r, fc::subject_of<bf16_max_lane<lane_bug::stale_neighbour>>());
}

TEST(Check, parse_case_rejects_bad_text) {
    using F = fc::binary16;
    EXPECT_EQ(fc::parse_case<F>("0x8000, 0 1").first, (std::vector<std::uint16_t>{0x8000, 0, 1}));
    EXPECT_EQ(fc::parse_case<F>("binary16: 0x1 0x2 order 1,0").second, (std::vector<std::size_t>{1, 0}));
    EXPECT_TRUE(fc::parse_case<F>("binary16:").first.empty());            // the empty array, as format_case writes it
    EXPECT_THROW(fc::parse_case<F>(""), fc::input_error);                 // an empty file is no case
    EXPECT_THROW(fc::parse_case<F>(" \n"), fc::input_error);
    EXPECT_EQ(fc::parse_case<F>("010").first, (std::vector<std::uint16_t>{10}));  // decimal, never octal
    EXPECT_THROW(fc::parse_case<F>("binary32: 0x1"), fc::input_error);      // another format
    EXPECT_THROW(fc::parse_case<F>("0x10000"), fc::input_error);            // wider than 16 bits
    EXPECT_THROW(fc::parse_case<F>("0x1 zz"), fc::input_error);             // not a number
    EXPECT_THROW(fc::parse_case<F>("0x1 0x2 order 0"), fc::input_error);    // not a permutation
    EXPECT_THROW(fc::parse_case<F>("0x1 0x2 order 0,0"), fc::input_error);
    EXPECT_THROW(fc::parse_case<F>("-1"), fc::input_error);
}

// Each stage can fail on its own: a reducer wrong only on long arrays passes the battery and the
// random arrays' short ones but not large_arrays.
struct wrong_beyond_4096 {
    using format = fc::binary32;
    static constexpr std::string_view name = "wrong_beyond_4096";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr fc::policy declared{fc::nan_policy::total_order, fc::zero_policy::ordered, fc::tie_policy::any};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        std::vector<std::uint32_t> head(xs.begin(), xs.begin() + std::ptrdiff_t(std::min<std::size_t>(xs.size(), 4096)));
        using R = fc::atomic::mapped<fc::key_mapping<fc::binary32>, fc::nan_policy::total_order, reduce_op::max>;
        std::vector<std::size_t> order(head.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        return fc::atomic::replay<R>(std::span<const std::uint32_t>(head), order);  // only the first 4096
    }
};

TEST(Check, large_arrays_catch_what_short_ones_miss) {
    fc::check_options o = quick();
    o.large_length = std::size_t(1) << 16;
    o.large_cases = 5;
    const fc::check_report r = fc::check_reducer<wrong_beyond_4096>(o);
    ASSERT_FALSE(r.passed());
    EXPECT_EQ(r.failure->stage, fc::check_stage::large_arrays) << r.text();
    EXPECT_LT(r.failure->input.size(), r.failure->original_length) << "shrinking removed nothing";
}
