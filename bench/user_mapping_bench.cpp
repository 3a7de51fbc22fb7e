// The CPU sweep of users' mappings against the built-in branchless one, in the same run: all 2^32
// binary32 keys each, the same threads. The user mappings below are written the way a user might
// write them (branches, float compares, lookup tables, a special-cased key), not the way the
// vectorizer likes; all are correct, so every sweep must pass. One more, wrong at exactly one key
// near the end of the key space, is timed with first_failing_chunk: how soon a wrong mapping is
// reported. Prints the median of --repeats runs of each and its ratio to the built-in.
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "flipcheck/check/sweep.hpp"
#include "bench_options.hpp"

namespace fc = flipcheck;

namespace {

using u32 = std::uint32_t;

// (1a) Branches on the sign bit, as in a textbook radix-sort key.
struct branchy_sign {
    using format = fc::binary32;
    static constexpr std::string_view name = "branchy_sign";
    static u32 encode(u32 b) {
        if (b & 0x80000000u) return ~b;
        else return b | 0x80000000u;
    }
    static u32 decode(u32 k) {
        if (k & 0x80000000u) return k & 0x7fffffffu;
        else return ~k;
    }
};

// (1b) Compares as float, with short-circuit ||: -0 and the negative NaNs need their own tests
// because neither is < 0.0f.
struct branchy_float {
    using format = fc::binary32;
    static constexpr std::string_view name = "branchy_float";
    static u32 encode(u32 b) {
        const float f = std::bit_cast<float>(b);
        if (f < 0.0f || b == 0x80000000u || (std::isnan(f) && b > 0x80000000u)) return ~b;
        else return b | 0x80000000u;
    }
    static u32 decode(u32 k) {
        if (std::int32_t(k) < 0) return k ^ 0x80000000u;
        return ~k;
    }
};

// (1c) Signed compare and arithmetic instead of bit operations, early returns.
struct branchy_arith {
    using format = fc::binary32;
    static constexpr std::string_view name = "branchy_arith";
    static u32 encode(u32 b) {
        if (std::bit_cast<std::int32_t>(b) >= 0) return b + 0x80000000u;
        return 0xffffffffu - b;
    }
    static u32 decode(u32 k) {
        if (k >= 0x80000000u) return k - 0x80000000u;
        return 0xffffffffu - k;
    }
};

// (2a) A 256-entry table of XOR masks indexed by the top byte (sign and 7 exponent bits).
constexpr std::array<u32, 256> xor_masks(bool for_decode) {
    std::array<u32, 256> t{};
    for (u32 i = 0; i < 256; ++i) {
        const bool top = i & 0x80u;  // encode: a negative value; decode: a positive value's key
        t[i] = top != for_decode ? 0xffffffffu : 0x80000000u;
    }
    return t;
}
constexpr std::array<u32, 256> enc_mask256 = xor_masks(false), dec_mask256 = xor_masks(true);

struct table256 {
    using format = fc::binary32;
    static constexpr std::string_view name = "table256";
    static u32 encode(u32 b) { return b ^ enc_mask256[b >> 24]; }
    static u32 decode(u32 k) { return k ^ dec_mask256[k >> 24]; }
};

// (2b) A 65536-entry table maps the high 16 bits; the low 16 are kept or inverted by whether
// the key's high half says positive.
constexpr std::array<std::uint16_t, 65536> high_halves(bool for_decode) {
    std::array<std::uint16_t, 65536> t{};
    for (u32 h = 0; h < 65536; ++h) {
        const bool top = h & 0x8000u;
        if (!for_decode) t[h] = std::uint16_t(top ? ~h : h | 0x8000u);
        else t[h] = std::uint16_t(top ? h & 0x7fffu : ~h);
    }
    return t;
}
constexpr std::array<std::uint16_t, 65536> enc_hi = high_halves(false), dec_hi = high_halves(true);

struct table64k {
    using format = fc::binary32;
    static constexpr std::string_view name = "table64k";
    static u32 encode(u32 b) {
        const u32 hi = enc_hi[b >> 16];
        return (hi << 16) | ((b & 0xffffu) ^ (hi & 0x8000u ? 0u : 0xffffu));
    }
    static u32 decode(u32 k) {
        const u32 hi = dec_hi[k >> 16];
        return (hi << 16) | ((k & 0xffffu) ^ (k & 0x80000000u ? 0u : 0xffffu));
    }
};

// (3) Branchless, but the canonical quiet NaN is special-cased (to the key it would get anyway).
struct special_nan {
    using format = fc::binary32;
    static constexpr std::string_view name = "special_nan";
    static u32 encode(u32 b) {
        if (b == 0x7fc00000u) return 0xffc00000u;
        return b ^ (u32(-std::int32_t(b >> 31)) | 0x80000000u);
    }
    static u32 decode(u32 k) {
        if (k == 0xffc00000u) return 0x7fc00000u;
        return k ^ (((k >> 31) - 1u) | 0x80000000u);
    }
};

// (3') Special-cased, and wrong: the keys of the NaNs 0x7ff00000 and 0x7ff00001 are swapped.
// Still a bijection (both round trips hold), so the only failing key is 0xfff00000, whose
// successor's value precedes its own: successor_order, at one key near the end.
struct special_wrong {
    using format = fc::binary32;
    static constexpr std::string_view name = "special_wrong";
    static u32 encode(u32 b) {
        if (b == 0x7ff00000u) return 0xfff00001u;
        if (b == 0x7ff00001u) return 0xfff00000u;
        return b ^ (u32(-std::int32_t(b >> 31)) | 0x80000000u);
    }
    static u32 decode(u32 k) {
        if (k == 0xfff00000u) return 0x7ff00001u;
        if (k == 0xfff00001u) return 0x7ff00000u;
        return k ^ (((k >> 31) - 1u) | 0x80000000u);
    }
};
constexpr u32 wrong_key = 0xfff00000u;

using baseline = fc::sign_flip_branchless<fc::binary32>;

static_assert(fc::mapping<branchy_sign> && fc::mapping<branchy_float> && fc::mapping<branchy_arith> &&
              fc::mapping<table256> && fc::mapping<table64k> && fc::mapping<special_nan> &&
              fc::mapping<special_wrong>);


struct row {
    explicit row(std::string n) : name(std::move(n)) {}
    std::string name;
    std::vector<double> seconds;
    bool ok = true;
};

// Times one full sweep (wall clock around the call, thread start-up included).
template <fc::mapping M>
void time_sweep(row& r, unsigned threads) {
    fc::sweep_options o;
    o.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const fc::sweep_report rep = fc::sweep<M>(o);
    r.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!rep.passed()) {
        r.ok = false;
        std::fprintf(stderr, "%s: sweep did not pass (%llu failing keys)\n", r.name.c_str(),
                     (unsigned long long)rep.failing_keys);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bench_options opt = read_bench_options(argc, argv, "user_mapping_bench [--repeats N] [--threads T]", 5, true);
    const int repeats = opt.repeats;
    const unsigned threads = opt.threads;

    std::vector<row> rows;
    for (const char* n : {"sign_flip_branchless (built-in)", "branchy_sign", "branchy_float", "branchy_arith",
                          "table256", "table64k", "special_nan"})
        rows.emplace_back(n);
    std::vector<double> wrong_s;
    bool caught = true;
    std::uint64_t found_key = 0;
    std::string found_law;
    for (int r = 0; r < repeats; ++r) {  // interleaved, so drift hits all alike
        time_sweep<baseline>(rows[0], threads);
        time_sweep<branchy_sign>(rows[1], threads);
        time_sweep<branchy_float>(rows[2], threads);
        time_sweep<branchy_arith>(rows[3], threads);
        time_sweep<table256>(rows[4], threads);
        time_sweep<table64k>(rows[5], threads);
        time_sweep<special_nan>(rows[6], threads);

        fc::sweep_options o;
        o.threads = threads;
        o.first_failing_chunk = true;
        const auto t0 = std::chrono::steady_clock::now();
        const fc::sweep_report rep = fc::sweep<special_wrong>(o);
        wrong_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        const bool this_ok = rep.failing_keys == 1 && rep.counterexamples.size() == 1 &&
                             rep.counterexamples[0].key == wrong_key &&
                             rep.counterexamples[0].law == fc::law_id::successor_order;
        if (!this_ok)
            std::fprintf(stderr, "special_wrong: expected exactly key 0x%08x (successor_order), got %llu failing keys\n",
                         unsigned(wrong_key), (unsigned long long)rep.failing_keys);
        caught = caught && this_ok;
        if (!rep.counterexamples.empty()) {
            found_key = rep.counterexamples[0].key;
            found_law = std::string(fc::to_string(rep.counterexamples[0].law));
        }
    }

    const double base = median(rows[0].seconds), keys = 4294967296.0;
    std::printf("binary32 user mappings, all 2^32 keys, %u threads, median of %d runs\n", threads, repeats);
    std::printf("%-34s %10s %10s %8s %6s\n", "mapping", "seconds", "keys/s", "ratio", "sweep");
    bool all_ok = true;
    for (const row& r : rows) {
        const double s = median(r.seconds);
        std::printf("%-34s %10.3f %8.2f G %7.2fx %6s\n", r.name.c_str(), s, keys / s / 1e9, s / base,
                    r.ok ? "pass" : "FAIL");
        all_ok = all_ok && r.ok;
    }
    const double w = median(wrong_s);
    std::printf("%-34s %10.3f %10s %7.2fx %6s  (first_failing_chunk; key 0x%08llx, %s)\n", "special_wrong (one bad key)", w,
                "", w / base, caught ? "caught" : "MISSED", (unsigned long long)found_key, found_law.c_str());
    return all_ok && caught ? 0 : 1;
}
