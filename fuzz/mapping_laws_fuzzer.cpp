// Every mapping law of core/law.hpp, for every built-in mapping x format, on keys decoded from
// raw bytes. Byte 0 is a format id and byte 1 a mapping id (registry.hpp: registry::formats and
// the built-ins of registry::mappings; ids are stable, so a corpus file keeps its meaning when
// entries are added); an input whose ids name no registered (format, mapping) pair is ignored.
// The rest are keys of the format's width (at most 16). Built with -DFLIPCHECK_FUZZ_PLANTED=1,
// binary32 sign_flip_branchless is replaced by a copy that mishandles -0 (ctest's
// fuzz_planted_bug_is_found shows the fuzzer finds it from the checked-in corpus).
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
//  - the ids become a subject through a table built from the registry at compile time (no
//    instrumented comparisons a run);
//  - the feedback is the choice of subject (`subject`: one edge a subject) and `probe`: its own
//    encode/decode (its branches, and the constants it compares with, which libFuzzer feeds back
//    as mutations) on the first key of each IEEE class present, plus one edge per class present.
// The laws checked and the keys they are checked at are as before: every law at every key.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <type_traits>

#include "flipcheck/law.hpp"
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/catalog/registry.hpp"
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

// The subject actually checked for a registered mapping instance M: M itself, except in the
// planted-bug build, where binary32 sign_flip_branchless becomes a mutant that mishandles -0.
#if FLIPCHECK_FUZZ_PLANTED
template <class M>
using planted = std::conditional_t<std::is_same_v<M, fc::sign_flip_branchless<fc::binary32>>,
                                   fc::mutants::zeros_swapped<fc::binary32>, M>;
#else
template <class M>
using planted = M;
#endif

// Instrumented: one edge a subject, what a case of a switch on the subject gave (the choice of
// subject is feedback).
template <class M>
[[gnu::noinline]] void subject(fc::fuzz::input& in) {
    check_keys<M>(in);
}

// Format id x mapping id -> the subject, built from the registry at compile time. A run looks it up
// (two loads and a null check) rather than asking registry::with_id at run time, whose comparisons
// and out-of-line for_each calls are instrumented: they cost about a sixth of the executions a
// second (clang 14 left them out of line, instrumented, even when called from a
// FLIPCHECK_FUZZ_NO_COVERAGE function with gnu::flatten).
using check_fn = void (*)(fc::fuzz::input&);
namespace reg = fc::registry;
struct subject_table {
    std::uint8_t format_at[256]{};   // a format id -> 1 + its place in registry::formats; 0: none
    std::uint8_t mapping_at[256]{};  // a mapping id -> 1 + its place in registry::mappings; 0: none
    check_fn check[reg::formats::size + 1][reg::mappings::size + 1]{};  // null: not registered
};
constexpr subject_table subjects = [] {
    subject_table t{};
    std::uint8_t f = 0;
    reg::for_each<reg::formats>([&]<class FE>() {
        t.format_at[FE::id] = ++f;
        std::uint8_t m = 0;
        reg::for_each<reg::mappings>([&]<class ME>() {
            t.mapping_at[ME::id] = ++m;
            if constexpr (reg::contains<typename ME::formats, FE>)
                t.check[f][m] = &subject<planted<typename ME::template on<typename FE::type>>>;
        });
    });
    return t;
}();

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fc::fuzz::input in(data, size);
    const std::uint8_t format = in.byte(), mapping = in.byte();
    // An unknown id, or a mapping not registered on the format: the input is ignored.
    if (const check_fn check = subjects.check[subjects.format_at[format]][subjects.mapping_at[mapping]]) check(in);
    return 0;
}
