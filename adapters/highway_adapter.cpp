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
#include <cstdio>
#include <fstream>
#include <string>

#include <hwy/contrib/sort/vqsort.h>
#include <nlohmann/json.hpp>

namespace flipcheck_highway {
HWY_EXPORT(MaxF);
HWY_EXPORT(MinF);
HWY_EXPORT(MaxD);
HWY_EXPORT(MinD);

template <class T, class U>
std::vector<T> values(const std::vector<std::uint64_t>& bits) {
    std::vector<T> v(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const U b = U(bits[i]);
        std::memcpy(&v[i], &b, sizeof b);
    }
    return v;
}
template <class U, class T>
std::string hex_of(T x) {
    U b;
    std::memcpy(&b, &x, sizeof b);
    char s[24];
    std::snprintf(s, sizeof s, "0x%0*llx", int(2 * sizeof b), static_cast<unsigned long long>(b));
    return s;
}

// The best target Highway dispatches to on this CPU (the lowest set bit is the best).
std::string target() {
    const std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(t & -t);
}

template <class T, class U>
void answer(const char* dtype, const char* format, const std::vector<std::pair<std::string, std::vector<std::uint64_t>>>& reduce,
            const std::vector<std::pair<std::string, std::vector<std::uint64_t>>>& sort, nlohmann::json& subjects) {
    for (const bool is_max : {true, false}) {
        nlohmann::json answers = nlohmann::json::object();
        for (const auto& [id, bits] : reduce) {
            const auto v = values<T, U>(bits);
            T r;
            if constexpr (std::is_same_v<T, float>) r = is_max ? HWY_DYNAMIC_DISPATCH(MaxF)(v.data(), v.size()) : HWY_DYNAMIC_DISPATCH(MinF)(v.data(), v.size());
            else r = is_max ? HWY_DYNAMIC_DISPATCH(MaxD)(v.data(), v.size()) : HWY_DYNAMIC_DISPATCH(MinD)(v.data(), v.size());
            answers[id] = hex_of<U>(r);
        }
        subjects.push_back({{"name", std::string(is_max ? "hwy Max+MaxOfLanes <" : "hwy Min+MinOfLanes <") + dtype + ">"},
                            {"kind", "value"}, {"op", is_max ? "max" : "min"}, {"format", format}, {"answers", answers}});
    }
    nlohmann::json answers = nlohmann::json::object();
    hwy::Sorter sorter;
    for (const auto& [id, bits] : sort) {
        auto v = values<T, U>(bits);
        sorter(v.data(), v.size(), hwy::SortAscending());
        nlohmann::json out = nlohmann::json::array();
        for (T x : v) out.push_back(hex_of<U>(x));
        answers[id] = out;
    }
    subjects.push_back({{"name", std::string("hwy::VQSort ascending <") + dtype + ">"}, {"kind", "sort"}, {"op", "ascending"},
                        {"format", format}, {"answers", answers}});
}

int run(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s CASES ANSWERS (run by flipcheck audit)\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    const auto doc = nlohmann::json::parse(in);
    if (doc.value("flipcheck_adapter", 0) != 1) {
        std::fprintf(stderr, "%s: not a flipcheck adapter cases file (version 1)\n", argv[1]);
        return 2;
    }
    using cases = std::vector<std::pair<std::string, std::vector<std::uint64_t>>>;
    cases reduce32, sort32, reduce64, sort64;
    for (const auto& c : doc.at("cases")) {
        const std::string format = c.at("format");
        if (format != "binary32" && format != "binary64") continue;
        std::vector<std::uint64_t> bits;
        for (const auto& b : c.at("bits")) bits.push_back(std::stoull(b.get<std::string>(), nullptr, 16));
        const std::string id = std::to_string(c.at("id").get<std::uint64_t>());
        for (const auto& use : c.at("uses")) {
            const bool is32 = format == "binary32";
            (use == "sort" ? (is32 ? sort32 : sort64) : (is32 ? reduce32 : reduce64)).emplace_back(id, bits);
        }
    }
    nlohmann::json subjects = nlohmann::json::array();
    answer<float, std::uint32_t>("float", "binary32", reduce32, sort32, subjects);
    answer<double, std::uint64_t>("double", "binary64", reduce64, sort64, subjects);
    const std::string version = std::to_string(HWY_MAJOR) + "." + std::to_string(HWY_MINOR) + "." + std::to_string(HWY_PATCH) + ", " + target();
    std::ofstream out(argv[2]);
    out << nlohmann::json{{"framework", "Highway"}, {"installed", true}, {"version", version}, {"subjects", subjects}}.dump();
    return out.flush() ? 0 : 2;
}

}  // namespace flipcheck_highway

int main(int argc, char** argv) {
    try {
        return flipcheck_highway::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "flipcheck_highway_adapter: %s\n", e.what());
        return 2;
    }
}
#endif  // HWY_ONCE
