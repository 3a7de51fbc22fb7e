// The C++17 parallel algorithms through flipcheck's adapter format (adapters/README.md): libstdc++'s
// std::reduce and std::max_element/min_element under std::execution::par_unseq, run by its TBB
// backend (Debian's libtbb-dev), so that long inputs are split across threads and combined in an
// order the input does not fix. A program of its own: the flipcheck binary stays free of libtbb.
//
//     flipcheck_pstl_adapter CASES ANSWERS
#include <algorithm>
#include <execution>
#include <limits>
#include <numeric>
#include <optional>

#include <tbb/version.h>

#include "program_adapter.hpp"

namespace {

template <class T>
void add(const char* dtype, const char* format, const flipcheck_adapter::format_cases& cs, nlohmann::json& out) {
    using flipcheck_adapter::hex_of;
    using flipcheck_adapter::reducer;
    constexpr T inf = std::numeric_limits<T>::infinity();
    const std::string of = std::string(" <") + dtype + ">";
    // From the identity, as users write a parallel max: std::max is not associative with a NaN,
    // which std::reduce assumes, so the answer may depend on how the input was split.
    out.push_back(reducer<T>("std::reduce(par_unseq, std::max)" + of, "value", "max", format, cs.reduce, [&](const std::vector<T>& v) {
        return hex_of(std::reduce(std::execution::par_unseq, v.begin(), v.end(), -inf, [](T a, T b) { return std::max(a, b); }));
    }));
    out.push_back(reducer<T>("std::reduce(par_unseq, std::min)" + of, "value", "min", format, cs.reduce, [&](const std::vector<T>& v) {
        return hex_of(std::reduce(std::execution::par_unseq, v.begin(), v.end(), inf, [](T a, T b) { return std::min(a, b); }));
    }));
    const auto index = [](const std::vector<T>& v, auto it) -> nlohmann::json {
        if (it == v.end()) return nullptr;  // no element: no index
        return std::uint64_t(it - v.begin());
    };
    out.push_back(reducer<T>("std::max_element(par_unseq)" + of, "arg", "max", format, cs.reduce, [&](const std::vector<T>& v) {
        return index(v, std::max_element(std::execution::par_unseq, v.begin(), v.end()));
    }));
    out.push_back(reducer<T>("std::min_element(par_unseq)" + of, "arg", "min", format, cs.reduce, [&](const std::vector<T>& v) {
        return index(v, std::min_element(std::execution::par_unseq, v.begin(), v.end()));
    }));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string version = std::to_string(__GNUC__) + " (TBB " + std::to_string(TBB_VERSION_MAJOR) + "." + std::to_string(TBB_VERSION_MINOR) + ")";
    return flipcheck_adapter::run(argc, argv, "libstdc++ par_unseq", version, [](const auto& f32, const auto& f64) {
        nlohmann::json out = nlohmann::json::array();
        add<float>("float", "binary32", f32, out);
        add<double>("double", "binary64", f64, out);
        return out;
    });
}
