// Every mapping law of core/law.hpp, for every built-in mapping x format, on keys decoded from
// raw bytes. Byte 0 picks the subject; the rest are keys of its width (at most 16). Built with
// -DFLIPCHECK_FUZZ_PLANTED=1, binary32 sign_flip_branchless is replaced by a copy that mishandles
// -0 (ctest's fuzz_planted_bug_is_found shows the fuzzer finds it from the checked-in corpus).
//
// Speed (bench/RESULTS.md, "Fuzzing throughput: mapping_laws"): libFuzzer pays for every
// comparison an input executes under -fsanitize=fuzzer (a callback each) and for every coverage
// counter it sets (a feature to look up and count; hit-count buckets and rare features also feed
// its corpus scheduling). With core's law code instrumented, judging up to 16 keys and libFuzzer's
// bookkeeping of the judge's counters took about two thirds of each run (perf), and that feedback
// mostly said which IEEE class the judge saw. So:
//  - decoding and judging (check_keys, take_keys, judge) are not instrumented: the functions carry
//    FLIPCHECK_FUZZ_NO_COVERAGE and core's law, oracle and format code is on the coverage ignore
//    list (mapping_laws.ignorelist); ASan and UBSan still check all of it;
//  - the feedback is LLVMFuzzerTestOneInput's choice of subject and `probe`: the subject's own
//    encode/decode (its branches, and the constants it compares with, which libFuzzer feeds back
//    as mutations) on the first key of each IEEE class present, plus one edge per class present.
// The laws checked and the keys they are checked at are as before: every law at every key.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <type_traits>

#include "flipcheck/law.hpp"
#include "flipcheck/mutants.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;

namespace {

// At most 16 keys an input: more keys make each run slower without making the search better.
constexpr int max_keys = 16;
constexpr int class_count = 6;  // fc::fp_class

// A store the optimizer must keep, so that the probe's code (and its coverage) stays.
volatile std::uint64_t sink;

template <class M>
using storage_of = typename M::format::storage;

// Not instrumented: up to max_keys keys from the rest of the input.
template <class S>
[[gnu::noinline, gnu::flatten]] FLIPCHECK_FUZZ_NO_COVERAGE int take_keys(fc::fuzz::input& in, S (&keys)[max_keys]) {
    int n = 0;
    while (n < max_keys && in.left()) keys[n++] = in.bits<S>();
    return n;
}

struct verdict {
    unsigned present;  // bit c: firsts[c] holds the first key whose pattern is of IEEE class c
    int bad;           // the index of the first key at which a law fails, or -1
};

// Not instrumented: one pass over the keys. quick_ok is the sweeps' filter, proved sound in
// law.hpp (it passes a key other than the last only where every law holds); the keys it rejects
// (every NaN, for one) are judged by failures(), as every key was.
template <class M>
[[gnu::noinline, gnu::flatten]] FLIPCHECK_FUZZ_NO_COVERAGE verdict judge(const storage_of<M>* keys, int n,
                                                                       storage_of<M> (&firsts)[class_count]) {
    using L = fc::mapping_laws<M>;
    verdict v{0, -1};
    for (int i = n - 1; i >= 0; --i) {
        const storage_of<M> k = keys[i];
        const unsigned c = unsigned(M::format::classify(M::decode(k)).kind);
        firsts[c] = k;
        v.present |= 1u << c;
        if (!(k != L::last && L::quick_ok(k)) && L::failures(k)) v.bad = i;
    }
    return v;
}

// Instrumented (and never inlined into uninstrumented code): what libFuzzer learns from, per
// subject (one instantiation each): the subject's code on the key and one edge per IEEE class.
template <class M>
[[gnu::noinline]] void probe(storage_of<M> k, unsigned cls) {
    const storage_of<M> b = M::decode(k);
    sink = M::encode(b);
    sink = M::encode(k);
    switch (cls) {
        case 0: sink = 0; break;
        case 1: sink = 1; break;
        case 2: sink = 2; break;
        case 3: sink = 3; break;
        case 4: sink = 4; break;
        default: sink = 5; break;
    }
}

template <class M>
[[noreturn]] void report(storage_of<M> k) {
    const fc::law_set f = fc::mapping_laws<M>::failures(k);
    for (int l = 0; l < fc::mapping_law_count; ++l) {
        if (!(f & fc::law_bit(fc::law_id(l)))) continue;
        const fc::counterexample c = fc::mapping_laws<M>::explain(fc::law_id(l), k);
        std::fprintf(stderr,
                     "%s %.*s: law %.*s broken at key 0x%" PRIx64 " bits 0x%" PRIx64 " other 0x%" PRIx64
                     " expected 0x%" PRIx64 " actual 0x%" PRIx64 "\n",
                     std::string(M::format::name).c_str(), int(M::name.size()), M::name.data(),
                     int(fc::law_names[l].size()), fc::law_names[l].data(), c.key, c.bits, c.other, c.expected,
                     c.actual);
    }
    fc::fuzz::fail("mapping law broken");
}

// Not instrumented: decode, judge, then probe the first key of each class present.
template <class M>
[[gnu::noinline]] FLIPCHECK_FUZZ_NO_COVERAGE void check_keys(fc::fuzz::input& in) {
    storage_of<M> keys[max_keys], firsts[class_count];
    const int n = take_keys(in, keys);
    const verdict v = judge<M>(keys, n, firsts);
    for (unsigned present = v.present; present; present &= present - 1) {
        const unsigned c = unsigned(__builtin_ctz(present));
        probe<M>(firsts[c], c);
    }
    if (v.bad >= 0) report<M>(keys[v.bad]);
}

#if FLIPCHECK_FUZZ_PLANTED
template <class F>
using branchless = std::conditional_t<std::is_same_v<F, fc::binary32>, fc::mutants::zeros_swapped<F>, fc::sign_flip_branchless<F>>;
#else
template <class F>
using branchless = fc::sign_flip_branchless<F>;
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fc::fuzz::input in(data, size);
    switch (in.byte() % 12) {  // 4 formats x 3 mappings
        case 0: check_keys<fc::sign_flip<fc::binary16>>(in); break;
        case 1: check_keys<branchless<fc::binary16>>(in); break;
        case 2: check_keys<fc::signed_key<fc::binary16>>(in); break;
        case 3: check_keys<fc::sign_flip<fc::bfloat16>>(in); break;
        case 4: check_keys<branchless<fc::bfloat16>>(in); break;
        case 5: check_keys<fc::signed_key<fc::bfloat16>>(in); break;
        case 6: check_keys<fc::sign_flip<fc::binary32>>(in); break;
        case 7: check_keys<branchless<fc::binary32>>(in); break;
        case 8: check_keys<fc::signed_key<fc::binary32>>(in); break;
        case 9: check_keys<fc::sign_flip<fc::binary64>>(in); break;
        case 10: check_keys<branchless<fc::binary64>>(in); break;
        default: check_keys<fc::signed_key<fc::binary64>>(in); break;
    }
    return 0;
}
