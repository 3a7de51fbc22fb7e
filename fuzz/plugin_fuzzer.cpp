// Your own subjects under libFuzzer: the library named by FLIPCHECK_PLUGIN (a plug-in made with
// FLIPCHECK_EXPORT_SUBJECTS, the same one `flipcheck check --plugin` takes). Byte 0 picks a subject
// (modulo their number). A mapping gets one key (the format's width of bytes) and every mapping
// law at it; a reducer or atomic strategy gets an array (byte 1: length, up to 64; then the
// patterns) and, for a strategy, an interleaving drawn from 8 more bytes, and must agree with the
// oracle under the policy it declares. A disagreement aborts with the subject, the case and the
// law, which libFuzzer keeps as a crash input. A scale, decoder or block scale gets its whole
// check (check/scaling.hpp) once. Run it as:
//     FLIPCHECK_PLUGIN=./libmy_subjects.so ./fuzz_plugin corpus_dir
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/plugin/load.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/check/scaling.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;

namespace {

// A mapping whose encode/decode are the library's, so that mapping_laws judges it as any other.
template <class F>
struct exported_mapping {
    using format = F;
    using S = typename F::storage;
    static constexpr std::string_view name = "plug-in mapping";
    static inline const flipcheck_subject_v2* subject = nullptr;
    static S encode(S b) { return S(subject->encode(b)); }
    static S decode(S k) { return S(subject->decode(k)); }
};

FLIPCHECK_FUZZ_NO_COVERAGE const fc::plugin::library& library() {
    static const std::unique_ptr<fc::plugin::library> lib = [] {
        const char* path = std::getenv("FLIPCHECK_PLUGIN");
        if (!path) {
            std::fprintf(stderr, "plugin_fuzzer: set FLIPCHECK_PLUGIN to a plug-in library (FLIPCHECK_EXPORT_SUBJECTS)\n");
            std::exit(2);
        }
        try {
            return std::make_unique<fc::plugin::library>(path);
        } catch (const fc::input_error& e) {
            std::fprintf(stderr, "plugin_fuzzer: %s\n", e.what());
            std::exit(2);
        }
    }();
    return *lib;
}

template <class F>
void mapping_case(const flipcheck_subject_v2& s, fc::fuzz::input& in) {
    using M = exported_mapping<F>;
    M::subject = &s;
    const typename F::storage k = in.bits<typename F::storage>();
    const fc::law_set f = fc::mapping_laws<M>::failures(k);
    if (!f) return;
    for (int l = 0; l < fc::mapping_law_count; ++l)
        if (f & fc::law_bit(fc::law_id(l)))
            std::fprintf(stderr, "%s\n", fc::describe_mapping_failure<F>(s.name, fc::mapping_laws<M>::explain(fc::law_id(l), k)).c_str());
    fc::fuzz::fail("a plug-in mapping breaks a law");
}

template <class F>
void reducer_case(const flipcheck_subject_v2& s, fc::fuzz::input& in) {
    using S = typename F::storage;
    const std::size_t n = in.byte() % 65;
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    if (fc::plugin::is_atomic(s)) {
        fc::detail::splitmix64 g{in.bits<std::uint64_t>()};
        for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[g.below(i)]);
    }
    const fc::check_report r = fc::check_case(fc::plugin::reducer_of<F>(s), xs, order);
    if (r.passed()) return;
    std::fprintf(stderr, "%s\n", r.text().c_str());
    fc::fuzz::fail("a plug-in reducer disagrees with the oracle");
}

// An amax: one array of fuzz bits against the oracle's amax under its declared nan policy.
template <class F>
void amax_case(const flipcheck_subject_v2& s, fc::fuzz::input& in) {
    using S = typename F::storage;
    const std::size_t n = in.byte() % 65;
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    const fc::nan_policy p = fc::nan_policy(s.nan);
    fc::scaling_report r{s.name, "amax", "", "", false, 0, {}};
    fc::judge_amax<F>(r, p, std::vector<std::vector<S>>{xs}, fc::plugin::amax_of<F>(s));
    if (r.passed()) return;
    std::fprintf(stderr, "%s: %s\n", s.name, r.counterexample->c_str());
    fc::fuzz::fail("a plug-in amax disagrees with the oracle");
}

// A reducer of packed pairs: one array of fuzz bytes, each lane against its oracle.
void pair_case(const flipcheck_subject_v2& s, fc::fuzz::input& in) {
    std::vector<std::uint8_t> xs(in.byte() % 65);
    for (auto& x : xs) x = in.byte();
    const auto rows = fc::plugin::check_pairs(s, fc::format_case<fc::packed_pair<fc::float4_e2m1fn>>(std::span<const std::uint8_t>(xs), {}));
    if (rows.empty() || rows.front().passed()) return;
    std::fprintf(stderr, "%s: %s\n", s.name, rows.front().counterexample.c_str());
    fc::fuzz::fail("a plug-in pair reducer disagrees with the oracle");
}

// A scale, decoder, block scale or NVFP4 scale: its whole check (check/scaling.hpp's domain, at
// most a few tens of thousands of calls), once per subject and process: a single input drawn from
// the fuzz bytes would judge less than that check already does.
void scale_case(const flipcheck_subject_v2& s) {
    static std::vector<const flipcheck_subject_v2*> passed;
    for (const auto* p : passed)
        if (p == &s) return;
    const fc::scaling_report r = fc::plugin::check_scaling(s, {});
    if (r.passed()) return passed.push_back(&s);
    std::fprintf(stderr, "%s (%s): %s\n", s.name, r.shape.c_str(), r.counterexample->c_str());
    fc::fuzz::fail("a plug-in scale disagrees with the oracle");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto subjects = library().subjects();
    fc::fuzz::input in(data, size);
    const flipcheck_subject_v2& s = subjects[in.byte() % subjects.size()];
    try {
        if (fc::plugin::is_scaling(s)) scale_case(s);
        else if (s.kind == flipcheck_kind_pair_reducer) pair_case(s, in);
        else
            fc::plugin::with_format(s, [&]<class F>() {
                if (fc::plugin::is_mapping(s)) mapping_case<F>(s, in);
                else if (s.kind == flipcheck_kind_amax) {
                    if constexpr (fc::amax_format<F>) amax_case<F>(s, in);
                } else {
                    reducer_case<F>(s, in);
                }
            });
    } catch (const fc::subject_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        fc::fuzz::fail("a plug-in subject failed to run");
    }
    return 0;
}
