// Every mapping law of core/law.hpp, for every built-in mapping x format, on keys decoded from
// raw bytes. Byte 0 picks the subject; the rest are keys of its width. Built with
// -DFLIPCHECK_FUZZ_PLANTED=1, binary32 sign_flip_branchless is replaced by a copy that mishandles
// -0 (fuzz/planted_bug.sh shows the fuzzer finds it from the checked-in corpus).
#include <cinttypes>
#include <cstdio>
#include <string>
#include <type_traits>

#include "flipcheck/law.hpp"
#include "flipcheck/mutants.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;

namespace {

template <class M>
void check_keys(fc::fuzz::input& in) {
    using S = typename M::format::storage;
    // At most 16 keys an input: more keys make each run slower without making the search better.
    for (int i = 0; i < 16 && in.left(); ++i) {
        const S k = in.bits<S>();
        const fc::law_set f = fc::mapping_laws<M>::failures(k);
        if (!f) continue;
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
}

#if FLIPCHECK_FUZZ_PLANTED
template <class F>
using branchless = std::conditional_t<std::is_same_v<F, fc::binary32>, fc::mutants::zeros_swapped<F>, fc::sign_flip_branchless<F>>;
#else
template <class F>
using branchless = fc::sign_flip_branchless<F>;
#endif

template <class F>
void by_mapping(unsigned which, fc::fuzz::input& in) {
    switch (which) {
        case 0: return check_keys<fc::sign_flip<F>>(in);
        case 1: return check_keys<branchless<F>>(in);
        default: return check_keys<fc::signed_key<F>>(in);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fc::fuzz::input in(data, size);
    const unsigned subject = in.byte() % 12;  // 4 formats x 3 mappings
    switch (subject / 3) {
        case 0: by_mapping<fc::binary16>(subject % 3, in); break;
        case 1: by_mapping<fc::bfloat16>(subject % 3, in); break;
        case 2: by_mapping<fc::binary32>(subject % 3, in); break;
        default: by_mapping<fc::binary64>(subject % 3, in); break;
    }
    return 0;
}
