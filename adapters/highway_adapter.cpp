// Google Highway through flipcheck's adapter format (adapters/README.md), a C++ adapter: hwy's
// VQSort (hwy::Sorter, libhwy_contrib) on float and double, and the max/min reduction Highway code
// writes (Max/Min over full vectors from the identity, the tail padded with it, then
// MaxOfLanes/MinOfLanes). A program of its own, linked to Debian's shared libhwy: the flipcheck
// binary stays free of it, and runs where Highway is not.
//
// Each subject is offered once as Highway dispatches it by itself on this CPU (the unlabelled name,
// e.g. "hwy::VQSort ascending <float>"; the version names that target: "1.0.3, dispatches to
// AVX2"), then once per SIMD target this CPU supports, forced, its name labelled with the target
// that ran: "hwy::VQSort ascending <float> [SSE4]" (docs/audit.md, "Per SIMD target"). A row that
// differs between targets is itself a finding: the same call answers differently on another CPU.
//
//     flipcheck_highway_adapter CASES ANSWERS
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "highway_adapter.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

HWY_BEFORE_NAMESPACE();
namespace flipcheck_highway {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Max (or Min) of n elements: full vectors folded into an accumulator that starts at the identity,
// the last partial vector copied into a buffer padded with the identity, then across the lanes.
template <class T, bool IsMax>
T Reduce(const T* HWY_RESTRICT p, size_t n) {
    const hn::ScalableTag<T> d;
    const size_t N = hn::Lanes(d);
    const T identity = IsMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    auto acc = hn::Set(d, identity);
    size_t i = 0;
    for (; i + N <= n; i += N) acc = IsMax ? hn::Max(acc, hn::LoadU(d, p + i)) : hn::Min(acc, hn::LoadU(d, p + i));
    if (i < n) {
        std::vector<T> tail(N, identity);
        std::copy(p + i, p + n, tail.begin());
        const auto v = hn::LoadU(d, tail.data());
        acc = IsMax ? hn::Max(acc, v) : hn::Min(acc, v);
    }
    return hn::GetLane(IsMax ? hn::MaxOfLanes(d, acc) : hn::MinOfLanes(d, acc));
}
float MaxF(const float* p, size_t n) { return Reduce<float, true>(p, n); }
float MinF(const float* p, size_t n) { return Reduce<float, false>(p, n); }
double MaxD(const double* p, size_t n) { return Reduce<double, true>(p, n); }
double MinD(const double* p, size_t n) { return Reduce<double, false>(p, n); }

// The target this copy was compiled for: called through the dispatch table, the target that a
// HWY_DYNAMIC_DISPATCH of the functions above really runs.
int64_t CompiledTarget() { return HWY_TARGET; }

}  // namespace HWY_NAMESPACE
}  // namespace flipcheck_highway
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <hwy/contrib/sort/vqsort.h>

#include <stdexcept>
#include <string>

#include "program_adapter.hpp"

namespace flipcheck_highway {
HWY_EXPORT(MaxF);
HWY_EXPORT(MinF);
HWY_EXPORT(MaxD);
HWY_EXPORT(MinD);
HWY_EXPORT(CompiledTarget);

// The best target Highway dispatches to on this CPU by itself (the lowest set bit is the best).
std::string target() {
    const std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(t & -t);
}

// Every target this CPU supports among those compiled here (HWY_TARGETS), best first: on x86 with
// Debian's 1.0.3 and GCC 12, some of AVX3, AVX2, SSE4, SSSE3, and SCALAR (the fallback compiled in
// EMU128's place: HWY_TARGETS is 0x4000000000001b00).
std::vector<std::int64_t> supported_targets() {
    std::vector<std::int64_t> out;
    for (std::int64_t ts = hwy::SupportedTargets() & HWY_TARGETS; ts != 0; ts &= ts - 1) out.push_back(ts & -ts);
    return out;
}

// Runs its rows on one target: hwy::SetSupportedTargetsForTest(t) makes SupportedTargets() return
// t alone and resets the chosen target, so the next HWY_DYNAMIC_DISPATCH, ours or libhwy_contrib's
// (GetChosenTarget() is one object, in libhwy.so), chooses again among t and the fallback. 0 leaves
// Highway its own choice; the destructor gives it back.
//
// VQSort honours it: libhwy_contrib's Sorter::operator() indexes its own dispatch table with the
// shared chosen target, masked by the targets libhwy_contrib was compiled for: `and $0x13601` in
// Debian's 1.0.3, i.e. AVX3, AVX2, SSE4, SSSE3 and the SCALAR fallback, the same mask as this
// file's HWY_CHOSEN_TARGET_MASK_TARGETS. Checked under gdb on an AVX2 CPU (AMD EPYC): forced to
// AVX2, SSE4, SSSE3 and SCALAR, the float sort jumped to four different entries: AVX2's sorts with
// vminps/vmaxps on ymm registers, SSE4's and SSSE3's (two functions) with minps/maxps on xmm, and
// SCALAR's is VQSort's HeapSort (vqsort-inl.h: VQSORT_ENABLED is 0 there). libhwy has no call
// that reads libhwy_contrib's mask, so contrib_targets is that measurement: a target outside it
// would run the fallback entry, and its row would be labelled with both (contrib_runs).
constexpr std::int64_t contrib_targets = HWY_TARGETS;  // Debian's 1.0.3 build, as measured above

class on_target {
public:
    explicit on_target(std::int64_t t) : forced_(t) { hwy::SetSupportedTargetsForTest(t); }
    ~on_target() { hwy::SetSupportedTargetsForTest(0); }
    on_target(const on_target&) = delete;
    on_target& operator=(const on_target&) = delete;

    // Our reductions' target, read back through the dispatch table (what really runs).
    std::int64_t reduce_target() const { return HWY_DYNAMIC_DISPATCH(CompiledTarget)(); }

    // VQSort's target: a first sort after the reset must have chosen again (contrib's table entry 0,
    // under the forced set), then the entry its mask selects. Throws where it did not choose again:
    // a row labelled with a target it may not have run on would be worse than no row.
    std::int64_t sort_target(const hwy::Sorter& sorter) const {
        float probe[2] = {2.0f, 1.0f};
        sorter(probe, 2, hwy::SortAscending());
        if (forced_ != 0 && !hwy::GetChosenTarget().IsInitialized())
            throw std::runtime_error("libhwy_contrib's VQSort did not dispatch again after SetSupportedTargetsForTest(" +
                                     std::string(hwy::TargetName(forced_)) + ")");
        return contrib_runs(forced_ != 0 ? forced_ : hwy::SupportedTargets());
    }

private:
    // The entry libhwy_contrib runs for a supported set: its best target among contrib_targets,
    // else its fallback (ChosenTarget::Update always adds the fallback's bit).
    static std::int64_t contrib_runs(std::int64_t supported) {
        const std::int64_t vector = supported & contrib_targets & ~std::int64_t(HWY_SCALAR | HWY_EMU128);
        if (vector != 0) return vector & -vector;
        return (contrib_targets & HWY_EMU128) ? HWY_EMU128 : HWY_SCALAR;
    }
    std::int64_t forced_;
};

// A row's name: the subject, labelled with what ran where a target was forced ("[SSE4]"); where
// the target that ran is not the one asked for, both ("[SCALAR, asked for AVX3_DL]").
std::string named(const std::string& subject, std::int64_t asked, std::int64_t ran) {
    if (asked == 0) return subject;
    std::string label = hwy::TargetName(ran);
    if (ran != asked) label += std::string(", asked for ") + hwy::TargetName(asked);
    return subject + " [" + label + "]";
}

template <class T>
void add(const char* dtype, const char* format, const flipcheck_adapter::format_cases& cs, nlohmann::json& out) {
    using flipcheck_adapter::hex_of;
    using flipcheck_adapter::reducer;
    const auto max = [](const std::vector<T>& v) {
        if constexpr (std::is_same_v<T, float>) return hex_of(HWY_DYNAMIC_DISPATCH(MaxF)(v.data(), v.size()));
        else return hex_of(HWY_DYNAMIC_DISPATCH(MaxD)(v.data(), v.size()));
    };
    const auto min = [](const std::vector<T>& v) {
        if constexpr (std::is_same_v<T, float>) return hex_of(HWY_DYNAMIC_DISPATCH(MinF)(v.data(), v.size()));
        else return hex_of(HWY_DYNAMIC_DISPATCH(MinD)(v.data(), v.size()));
    };
    const std::string of = std::string(" <") + dtype + ">";
    // Highway's own choice first (0), then each target forced: a subject's rows stay together.
    std::vector<std::int64_t> runs{0};
    for (const auto t : supported_targets()) runs.push_back(t);
    for (const auto t : runs) {
        const on_target on(t);
        out.push_back(reducer<T>(named("hwy Max+MaxOfLanes" + of, t, on.reduce_target()), "value", "max", format, cs.reduce, max));
    }
    for (const auto t : runs) {
        const on_target on(t);
        out.push_back(reducer<T>(named("hwy Min+MinOfLanes" + of, t, on.reduce_target()), "value", "min", format, cs.reduce, min));
    }
    for (const auto t : runs) {
        const on_target on(t);
        const hwy::Sorter sorter;  // made under the forced target
        const std::int64_t ran = on.sort_target(sorter);
        out.push_back(flipcheck_adapter::sorter<T>(named("hwy::VQSort ascending" + of, t, ran), format, cs.sort,
                                                   [&](std::vector<T>& v) { sorter(v.data(), v.size(), hwy::SortAscending()); }));
    }
}

}  // namespace flipcheck_highway

int main(int argc, char** argv) {
    const std::string version = std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." + std::to_string(HWY_PATCH) + ", dispatches to " +
                                flipcheck_highway::target();
    return flipcheck_adapter::run(argc, argv, "Highway", version, [](const auto& f32, const auto& f64) {
        nlohmann::json out = nlohmann::json::array();
        flipcheck_highway::add<float>("float", "binary32", f32, out);
        flipcheck_highway::add<double>("double", "binary64", f64, out);
        return out;
    });
}
#endif  // HWY_ONCE
