// Broken plug-in libraries for plugin_check_test.cpp, one per BAD_PLUGIN value: 1-3 must be
// refused with exit code 2 and a message that says why; 4-11 are subjects that misbehave while
// checked (throw, crash, exit, hang, answer garbage), each that subject's failure: exit code 1;
// 12 is one subject of every kind, each misbehaving as FLIPCHECK_TEST_MISBEHAVE says, so that the
// test can try every (kind, behaviour) with one library; 13 is a table no export makes, refused too;
// 14 is a library built for plug-in ABI v1 (its table by hand, as that export wrote it), which
// still loads: its atomic strategy is replayed in whole updates only; 15 declares a policy its
// kind or formats cannot take, refused; 16 misbehaves while it is opened (its constructor or its
// entry point, as FLIPCHECK_TEST_OPEN says) or lies in its answers (FLIPCHECK_TEST_LIE: a sweep
// that claims more than it covered, a status the ABI lacks, a byte with junk above it), each
// lie wrapped around a right subject of the examples.
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <stdexcept>

#include "flipcheck/plugin/export.hpp"

#if BAD_PLUGIN == 1  // no entry point at all
extern "C" int not_a_flipcheck_plugin() { return 1; }
#elif BAD_PLUGIN == 2  // built for another ABI version
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v1* flipcheck_plugin(void) {
    static const flipcheck_plugin_v1 p{99, 0, nullptr};
    return &p;
}
#elif BAD_PLUGIN == 3  // two subjects with one name
struct a {
    using format = flipcheck::binary16;
    static constexpr std::string_view name = "twin";
    static constexpr std::uint16_t encode(std::uint16_t b) { return b; }
    static constexpr std::uint16_t decode(std::uint16_t k) { return k; }
};
struct b : a {};
FLIPCHECK_EXPORT_SUBJECTS(a, b);
#elif BAD_PLUGIN == 4  // a subject whose code throws
struct thrower {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "thrower";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.size() > 1) throw std::runtime_error("my kernel launch failed: out of memory");
        return xs.empty() ? std::nullopt : std::optional(xs[0]);
    }
};
FLIPCHECK_EXPORT_SUBJECTS(thrower);
#elif BAD_PLUGIN >= 5 && BAD_PLUGIN <= 7  // a reducer that crashes (5), exits (6) or hangs (7) on arrays of 3+
struct misbehaving {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = BAD_PLUGIN == 5 ? "crasher" : BAD_PLUGIN == 6 ? "exiter" : "hanger";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.size() >= 3) {
#if BAD_PLUGIN == 5
            std::raise(SIGSEGV);
#elif BAD_PLUGIN == 6
            std::exit(0);  // the classic way to read as a pass
#else
            static std::atomic<unsigned> spin{0};  // a side effect each turn: a loop without one is UB
            for (;;) spin.fetch_add(1, std::memory_order_relaxed);
#endif
        }
        std::optional<std::uint32_t> best;  // a right max on shorter arrays (no NaN policy needed: binary32 keys)
        for (std::uint32_t x : xs) {
            const auto key = [](std::uint32_t b) { return b >> 31 ? ~b : b | 0x80000000u; };
            if (!best || key(x) > key(*best)) best = x;
        }
        return best;
    }
};
FLIPCHECK_EXPORT_SUBJECTS(misbehaving);
#elif BAD_PLUGIN == 8  // a mapping that crashes on one key only: 1.0f
struct crashing_map {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "crashing_map";
    static std::uint32_t encode(std::uint32_t b) {
        if (b == 0x3f800000u) std::raise(SIGSEGV);
        return b >> 31 ? ~b : b | 0x80000000u;
    }
    static std::uint32_t decode(std::uint32_t k) { return k >> 31 ? k & 0x7fffffffu : ~k; }
};
FLIPCHECK_EXPORT_SUBJECTS(crashing_map);
#elif BAD_PLUGIN == 9  // a mapping whose sweep answers garbage: law 999, an unterminated domain
extern "C" {
static std::uint64_t same(std::uint64_t b) { return b; }
static int garbage_sweep(const flipcheck_sweep_request_v1*, flipcheck_sweep_result_v1* r, char*, size_t) {
    r->keys_checked = 10;
    r->failing_keys = 1;
    r->counterexample_count = 1;
    std::memcpy(r->domain, "exhaustive", 11);
    r->counterexamples[0].law = 999;
    return 0;
}
__attribute__((visibility("default"))) const flipcheck_plugin_v1* flipcheck_plugin(void) {
    static const flipcheck_subject_v1 s{"garbage", flipcheck_kind_mapping, 0x03, 0, 0, 0, 0, same, same, garbage_sweep, nullptr};
    static const flipcheck_plugin_v1 p{1, 1, &s};  // a v1 table: v1's struct
    return &p;
}
}
#elif BAD_PLUGIN == 10  // an atomic strategy that calls exit(0) once the word has seen a NaN
struct exiting_atomic {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "exiting_atomic";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{flipcheck::nan_policy::undefined, flipcheck::zero_policy::ordered,
                                                flipcheck::tie_policy::any};
    static constexpr std::uint32_t init() noexcept { return 0xff800000u; }
    template <class Word>
    static void update(Word& w, std::uint32_t bits) noexcept {
        if ((bits & 0x7fffffffu) > 0x7f800000u) std::exit(0);
        if (bits & 0x80000000u) w.fetch_min(bits);
        else w.fetch_max_signed(bits);
    }
    static std::uint32_t result(std::uint32_t word) noexcept { return word; }
};
FLIPCHECK_EXPORT_SUBJECTS(exiting_atomic);
#elif BAD_PLUGIN == 11  // an amax that crashes on an infinity
struct crashing_amax {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "crashing_amax";
    static constexpr flipcheck::nan_policy declared = flipcheck::nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        std::uint32_t best = 0;
        for (std::uint32_t x : xs) {
            if ((x & 0x7fffffffu) == 0x7f800000u) std::raise(SIGSEGV);
            best = (x & 0x7fffffffu) > best ? (x & 0x7fffffffu) : best;
        }
        return best;
    }
};
FLIPCHECK_EXPORT_SUBJECTS(crashing_amax);
#elif BAD_PLUGIN == 12  // every kind, misbehaving on its trigger as FLIPCHECK_TEST_MISBEHAVE says
namespace bad {
// The trigger: a mapping's key 1.0f, a reducer's or atomic's array of 3 or more.
[[gnu::noinline]] inline void misbehave() {
    static const std::string_view how = [] {
        const char* e = std::getenv("FLIPCHECK_TEST_MISBEHAVE");
        return std::string_view(e ? e : "");
    }();
    if (how == "throw") throw std::runtime_error("the subject's own error");
    if (how == "crash") std::raise(SIGSEGV);
    if (how == "exit") std::exit(0);
    if (how == "hang") {
        static std::atomic<unsigned> spin{0};
        for (;;) spin.fetch_add(1, std::memory_order_relaxed);
    }
}
bool garbage() {
    const char* e = std::getenv("FLIPCHECK_TEST_MISBEHAVE");
    return e && std::string_view(e) == "garbage";
}
std::uint32_t key(std::uint32_t b) { return b >> 31 ? ~b : b | 0x80000000u; }
using flipcheck::policy, flipcheck::nan_policy, flipcheck::zero_policy, flipcheck::tie_policy, flipcheck::reduce_op;
constexpr policy undefined_nan{nan_policy::undefined, zero_policy::ordered, tie_policy::lowest_index};

struct map {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "map";
    static std::uint32_t encode(std::uint32_t b) {
        if (b == 0x3f800000u) misbehave();
        return key(b);
    }
    static std::uint32_t decode(std::uint32_t k) { return k >> 31 ? k & 0x7fffffffu : ~k; }
};
struct value {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "value";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared = undefined_nan;
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.size() >= 3) misbehave();
        if (xs.empty()) return std::nullopt;
        if (garbage()) return 0x7f812345u;  // in no array flipcheck makes
        std::uint32_t best = xs[0];
        for (std::uint32_t x : xs) best = key(x) > key(best) ? x : best;
        return best;
    }
};
struct index {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "index";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared = undefined_nan;
    static std::optional<std::size_t> arg_reduce(std::span<const std::uint32_t> xs) {
        if (xs.size() >= 3) misbehave();
        if (xs.empty()) return std::nullopt;
        if (garbage()) return xs.size() + 5;  // past the end of the array
        std::size_t best = 0;
        for (std::size_t i = 1; i < xs.size(); ++i) best = key(xs[i]) > key(xs[best]) ? i : best;
        return best;
    }
};
// The atomics count their updates: the third misbehaves.
inline thread_local unsigned updates = 0;
struct atomic {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "atomic";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared{nan_policy::undefined, zero_policy::ordered, tie_policy::any};
    static std::uint32_t init() noexcept {
        updates = 0;
        return 0;
    }
    template <class Word>
    static void update(Word& w, std::uint32_t bits) {
        if (++updates >= 3) misbehave();
        w.fetch_max(key(bits));
    }
    static std::uint32_t result(std::uint32_t word) noexcept { return garbage() ? 0x7f812345u : decode_key(word); }
    static std::uint32_t decode_key(std::uint32_t k) noexcept { return k >> 31 ? k & 0x7fffffffu : ~k; }
};
struct arg_atomic {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "arg_atomic";
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared = undefined_nan;
    static std::uint64_t init() noexcept {
        updates = 0;
        return 0;
    }
    template <class Word>
    static void update(Word& w, std::uint32_t bits, std::uint32_t i) {
        if (++updates >= 3) misbehave();
        w.fetch_max(std::uint64_t(key(bits)) << 32 | std::uint32_t(~i));
    }
    static std::uint32_t index(std::uint64_t word) noexcept { return garbage() ? 0x7fffffffu : ~std::uint32_t(word); }
};
struct absmax {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "amax";
    static constexpr nan_policy declared = nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) {
        if (xs.size() >= 3) misbehave();
        if (garbage()) return 0xdeadbeefu;  // a negative NaN: no |x| is that
        std::uint32_t best = 0;
        for (std::uint32_t x : xs) best = (x & 0x7fffffffu) > best ? (x & 0x7fffffffu) : best;
        return best;
    }
};
// The one-call-per-input kinds misbehave on the input 1.0f; garbage is one answer for every input.
struct quant : flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e4m3fn, flipcheck::quantize_policy{}> {
    static constexpr std::string_view name = "quant";
    static std::uint8_t quantize(std::uint32_t x) {
        if (x == 0x3f800000u) misbehave();
        return garbage() ? 0x38 : flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e4m3fn, flipcheck::quantize_policy{}>::quantize(x);
    }
};
struct sql : flipcheck::sql_key<flipcheck::binary32> {
    static constexpr std::string_view name = "sql";
    static std::uint32_t key(std::uint32_t x) {
        if (x == 0x3f800000u) misbehave();
        return garbage() ? 7 : flipcheck::sql_key<flipcheck::binary32>::key(x);
    }
};
struct rceil : flipcheck::mx_scale_rceil<flipcheck::float8_e4m3fn> {
    static constexpr std::string_view name = "rceil";
    static std::uint8_t scale(std::uint32_t amax) {
        if (amax == 0x3f800000u) misbehave();
        return garbage() ? 0x7f : flipcheck::mx_scale_rceil<flipcheck::float8_e4m3fn>::scale(amax);
    }
};
}  // namespace bad
FLIPCHECK_EXPORT_SUBJECTS(bad::map, bad::value, bad::index, bad::atomic, bad::arg_atomic, bad::absmax, bad::quant, bad::sql, bad::rceil);
#elif BAD_PLUGIN == 13  // a decoder over binary16, which no decoder is (a table by hand: export.hpp cannot make it)
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v1* flipcheck_plugin(void) {
    static const flipcheck_subject_v1 s = [] {
        flipcheck_subject_v1 d{};
        d.name = "half_decoder";
        d.kind = flipcheck_kind_decode;
        d.format_id = 0x01;
        d.run = +[](const void*, std::size_t, const std::size_t*, std::uint64_t* out, char*, std::size_t) {
            *out = 0;
            return 1;
        };
        return d;
    }();
    static const flipcheck_plugin_v1 p{1, 1, &s};  // a v1 table: v1's struct
    return &p;
}
#elif BAD_PLUGIN == 14  // ABI v1: the examples' lost-update CAS loop, as a v1 export wrote its table
#include "../../examples/known_wrong.hpp"
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v1* flipcheck_plugin(void) {
    static const flipcheck_subject_v1 s = [] {
        const flipcheck_subject_v2 n = flipcheck::plugin::subject<wrong::cas_max_stale>();
        return flipcheck_subject_v1{n.name, n.kind, n.format_id, n.op, n.nan, n.zero, n.ties, nullptr, nullptr, nullptr, n.run};
    }();
    static const flipcheck_plugin_v1 p{1, 1, &s};
    return &p;
}
#elif BAD_PLUGIN == 15  // a many-to-one subject declaring what it cannot (FLIPCHECK_TEST_POLICY picks which; a table by hand)
struct odd : flipcheck::quantizer<flipcheck::binary32, flipcheck::float8_e4m3fn, flipcheck::quantize_policy{}> {
    static constexpr std::string_view name = "odd";
};
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v2* flipcheck_plugin(void) {
    static const flipcheck_subject_v2 s = [] {
        flipcheck_subject_v2 d = flipcheck::plugin::subject<odd>();
        const char* e = std::getenv("FLIPCHECK_TEST_POLICY");
        const std::string_view which = e ? e : "";
        if (which == "inf") d.policy = 1u << 8;  // saturation=infinity: e4m3fn has no infinity
        if (which == "from_byte") d.format_id = 0x05 | 0x05 << 8;  // a quantizer from e4m3fn
        if (which == "to_e8m0") d.format_id = 0x03 | 0x09 << 8;  // to e8m0, which is a scale, no element
        if (which == "recipe") d.kind = flipcheck_kind_mx_scale, d.format_id = 0x05, d.policy = 7;
        if (which == "key_bytes") d.kind = flipcheck_kind_canonical_key, d.format_id = 0x03, d.policy = 1 | 9u << 8;
        if (which == "reducer") d.kind = flipcheck_kind_reducer, d.format_id = 0x03, d.policy = 1;
        if (which == "scaled_op") d.kind = flipcheck_kind_scaled_quantizer, d.policy = 2u << 16;  // op 2: neither * nor /
        return d;
    }();
    static const flipcheck_plugin_v2 p{2, 1, &s};
    return &p;
}
#elif BAD_PLUGIN == 16
#include <unistd.h>

#include <cstdio>
#include <string>

#include "../../examples/my_code.hpp"
namespace {
std::string_view env(const char* name) {
    const char* e = std::getenv(name);
    return e ? e : "";
}
void misbehave_at(std::string_view when) {
    const std::string_view how = env("FLIPCHECK_TEST_OPEN");
    if (how == std::string(when) + "_exit") std::exit(0);
    if (how == std::string(when) + "_crash") std::raise(SIGSEGV);
    if (how == std::string(when) + "_hang")
        for (;;) ::pause();
}
__attribute__((constructor)) void on_open() { misbehave_at("constructor"); }

// The right subjects' functions, wrapped by the lies below.
flipcheck_subject_v2 right_map, right_value, right_pair;
int lying_sweep(const flipcheck_sweep_request_v1* q, flipcheck_sweep_result_v1* r, char* e, std::size_t n) {
    // A slow library that prints while it works (cli/tests/progress_test.sh): honest, then.
    if (const std::string_view slow = env("FLIPCHECK_TEST_SLOW"); !slow.empty()) {
        ::sleep(unsigned(std::stoul(std::string(slow))));
        std::printf("a line the library printed, then its sweep\n");
        std::fflush(stdout);
    }
    const int status = right_map.sweep(q, r, e, n);
    if (env("FLIPCHECK_TEST_LIE") == "sweep_one_key") r->range_end = r->range_begin + 1, r->keys_checked = 1;
    if (env("FLIPCHECK_TEST_LIE") == "sweep_part") r->range_end = 65536, r->keys_checked = 65536;
    if (env("FLIPCHECK_TEST_LIE") == "sweep_short") r->keys_checked = 65536;  // the range asked, 65,536 keys of it, no early stop
    return status;
}
int run_5(const void* xs, std::size_t count, const std::size_t* order, std::uint64_t* out, char* e, std::size_t n) {
    const int status = right_value.run(xs, count, order, out, e, n);
    return status == 1 ? 5 : status;
}
int pair_junk(const void* xs, std::size_t count, const std::size_t* order, std::uint64_t* out, char* e, std::size_t n) {
    const int status = right_pair.run(xs, count, order, out, e, n);
    *out |= 0xab00;  // the right byte, and junk in bits 8-15
    return status;
}
}  // namespace
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v2* flipcheck_plugin(void) {
    misbehave_at("entry");
    static const flipcheck_subject_v2 subjects[] = {
        [] {
            right_map = flipcheck::plugin::subject<my::float_key>();
            flipcheck_subject_v2 d = right_map;
            d.name = "lying_map";
            d.sweep = &lying_sweep;
            return d;
        }(),
        [] {
            right_value = flipcheck::plugin::subject<my::max_propagate>();
            flipcheck_subject_v2 d = right_value;
            d.name = "status_5";
            d.run = &run_5;
            return d;
        }(),
        [] {
            right_pair = flipcheck::plugin::subject<my::fp4x2_max>();
            flipcheck_subject_v2 d = right_pair;
            d.name = "pair_junk";
            d.run = &pair_junk;
            return d;
        }(),
    };
    static const flipcheck_plugin_v2 p{2, 3, subjects};
    return &p;
}
#endif
