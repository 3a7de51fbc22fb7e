// Google Highway through flipcheck's adapter format (adapters/README.md), a C++ adapter: hwy's
// VQSort (hwy::Sorter, libhwy_contrib) on float and double, and the max/min reduction Highway code
// writes (Max/Min over full vectors from the identity, the tail padded with it, then
// MaxOfLanes/MinOfLanes), dispatched to the best target this CPU has. A program of its own, linked
// to Debian's shared libhwy: the flipcheck binary stays free of it, and runs where Highway is not.
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

}  // namespace HWY_NAMESPACE
}  // namespace flipcheck_highway
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <hwy/contrib/sort/vqsort.h>

#include "program_adapter.hpp"

namespace flipcheck_highway {
HWY_EXPORT(MaxF);
HWY_EXPORT(MinF);
HWY_EXPORT(MaxD);
HWY_EXPORT(MinD);

// The best target Highway dispatches to on this CPU (the lowest set bit is the best).
std::string target() {
    const std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(t & -t);
}

template <class T>
void add(const char* dtype, const char* format, const flipcheck_adapter::format_cases& cs, nlohmann::json& out) {
    using flipcheck_adapter::reducer;
    const auto max = [](const std::vector<T>& v) {
        if constexpr (std::is_same_v<T, float>) return flipcheck_adapter::hex_of(HWY_DYNAMIC_DISPATCH(MaxF)(v.data(), v.size()));
        else return flipcheck_adapter::hex_of(HWY_DYNAMIC_DISPATCH(MaxD)(v.data(), v.size()));
    };
    const auto min = [](const std::vector<T>& v) {
        if constexpr (std::is_same_v<T, float>) return flipcheck_adapter::hex_of(HWY_DYNAMIC_DISPATCH(MinF)(v.data(), v.size()));
        else return flipcheck_adapter::hex_of(HWY_DYNAMIC_DISPATCH(MinD)(v.data(), v.size()));
    };
    out.push_back(reducer<T>(std::string("hwy Max+MaxOfLanes <") + dtype + ">", "value", "max", format, cs.reduce, max));
    out.push_back(reducer<T>(std::string("hwy Min+MinOfLanes <") + dtype + ">", "value", "min", format, cs.reduce, min));
    hwy::Sorter sorter;
    out.push_back(flipcheck_adapter::sorter<T>(std::string("hwy::VQSort ascending <") + dtype + ">", format, cs.sort,
                                               [&](std::vector<T>& v) { sorter(v.data(), v.size(), hwy::SortAscending()); }));
}

}  // namespace flipcheck_highway

int main(int argc, char** argv) {
    const std::string version = std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." + std::to_string(HWY_PATCH) + ", " +
                                flipcheck_highway::target();
    return flipcheck_adapter::run(argc, argv, "Highway", version, [](const auto& f32, const auto& f64) {
        nlohmann::json out = nlohmann::json::array();
        flipcheck_highway::add<float>("float", "binary32", f32, out);
        flipcheck_highway::add<double>("double", "binary64", f64, out);
        return out;
    });
}
#endif  // HWY_ONCE
