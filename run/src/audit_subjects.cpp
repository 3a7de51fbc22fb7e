// The audit's own CPU subjects (the standard library's folds, algorithms and sorts, Thrust's host
// backend, Eigen's coefficient reductions, flipcheck's keyed max), the NaNs each backend makes, and each subject classified by core's
// audit/audit.hpp and audit/sort.hpp. The GPU's subjects are gpu_backend.hpp's; the shaders' and the
// frameworks' come from the command (cli/shader.cpp) and adapter.hpp.
#include "flipcheck/run/audit_subjects.hpp"

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstring>
#include <ranges>

#include <Eigen/Core>
#include <boost/sort/spreadsort/float_sort.hpp>
#include <boost/version.hpp>
#include <fmt/format.h>

#include "flipcheck/atomic.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/run/gpu_backend.hpp"  // the device's NaNs

#if FLIPCHECK_HAVE_THRUST
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/version.h>
#endif

namespace flipcheck::run {
namespace {

using audit::answer;
using audit::input;
using audit::word;

template <class T>
std::vector<T> values(const input& xs) {
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;
    std::vector<T> v(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const U u = U(xs[i]);
        std::memcpy(&v[i], &u, sizeof(T));
    }
    return v;
}
template <class T>
word bits_of(T f) {
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;
    U u;
    std::memcpy(&u, &f, sizeof(T));
    return u;
}
template <class T>
input words(const std::vector<T>& v) {
    input out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), [](T f) { return bits_of(f); });
    return out;
}

// A fold from the first element; n = 0 has no answer (these algorithms need an element).
template <class T, class Op>
answer fold(const input& xs, Op op) {
    if (xs.empty()) return std::nullopt;
    const auto v = values<T>(xs);
    T acc = v[0];
    for (std::size_t i = 1; i < v.size(); ++i) acc = op(acc, v[i]);
    return bits_of(acc);
}
template <class V, class It>
answer index_of(const V& v, It it) {
    if (it == v.end()) return std::nullopt;
    return std::uint64_t(it - v.begin());
}

// flipcheck's own keyed max/min (the sign_flip mapping, totalOrder): the key-based reducer whose
// answer on made NaNs depends on where the NaN was made.
template <reduce_op Op>
answer keyed(const input& xs) {
    using S = atomic::mapped<sign_flip<binary32>, nan_policy::total_order, Op>;
    if (xs.empty()) return std::nullopt;
    atomic::sequential_word<std::uint32_t> w{S::init()};
    for (auto x : xs) S::update(w, std::uint32_t(x));
    return S::result(w.value);
}

// Eigen's coefficient reductions over a Map of the array, under a NaN propagation option
// (Eigen 3.4: PropagateFast, the default, "undefined" with NaN; PropagateNaN; PropagateNumbers).
// n = 0 has no answer (Eigen asserts on an empty vector).
template <int Propagation, reduce_op Op, bool Arg>
answer eigen_coeff(const input& xs) {
    if (xs.empty()) return std::nullopt;
    const auto v = values<float>(xs);
    const Eigen::Map<const Eigen::VectorXf> m(v.data(), Eigen::Index(v.size()));
    if constexpr (Arg) {
        Eigen::Index i = 0;
        if constexpr (Op == reduce_op::max) m.template maxCoeff<Propagation>(&i);
        else m.template minCoeff<Propagation>(&i);
        return std::uint64_t(i);
    } else {
        return bits_of(Op == reduce_op::max ? m.template maxCoeff<Propagation>() : m.template minCoeff<Propagation>());
    }
}
template <int Propagation>
void add_eigen(std::vector<audit::subject>& s, const std::string& option) {
    s.push_back({"Eigen maxCoeff<" + option + ">", "Eigen", reduce_op::max, false, eigen_coeff<Propagation, reduce_op::max, false>});
    s.push_back({"Eigen minCoeff<" + option + ">", "Eigen", reduce_op::min, false, eigen_coeff<Propagation, reduce_op::min, false>});
    s.push_back({"Eigen maxCoeff<" + option + ">(&index)", "Eigen", reduce_op::max, true, eigen_coeff<Propagation, reduce_op::max, true>});
    s.push_back({"Eigen minCoeff<" + option + ">(&index)", "Eigen", reduce_op::min, true, eigen_coeff<Propagation, reduce_op::min, true>});
}

template <class T>
std::vector<audit::subject> std_folds(const std::string& format, const std::string& suffix) {
    return {
        {"std::max fold" + suffix, "libstdc++", reduce_op::max, false, [](const input& xs) { return fold<T>(xs, [](T a, T b) { return std::max(a, b); }); }, format},
        {"std::min fold" + suffix, "libstdc++", reduce_op::min, false, [](const input& xs) { return fold<T>(xs, [](T a, T b) { return std::min(a, b); }); }, format},
        {"std::fmax fold" + suffix, "libm", reduce_op::max, false, [](const input& xs) { return fold<T>(xs, [](T a, T b) { return std::fmax(a, b); }); }, format},
        {"std::fmin fold" + suffix, "libm", reduce_op::min, false, [](const input& xs) { return fold<T>(xs, [](T a, T b) { return std::fmin(a, b); }); }, format},
        {"std::max_element" + suffix, "libstdc++", reduce_op::max, true,
         [](const input& xs) { const auto v = values<T>(xs); return index_of(v, std::max_element(v.begin(), v.end())); }, format},
        {"std::min_element" + suffix, "libstdc++", reduce_op::min, true,
         [](const input& xs) { const auto v = values<T>(xs); return index_of(v, std::min_element(v.begin(), v.end())); }, format},
    };
}

}  // namespace

std::vector<audit::subject> cpu_subjects() {
    std::vector<audit::subject> s = std_folds<float>("binary32", "");
    s.push_back({"std::ranges::max", "libstdc++", reduce_op::max, false,
                 [](const input& xs) -> answer { return xs.empty() ? std::nullopt : answer(bits_of(std::ranges::max(values<float>(xs)))); }});
    s.push_back({"flipcheck keyed max (sign_flip)", "flipcheck", reduce_op::max, false, keyed<reduce_op::max>});
    s.push_back({"flipcheck keyed min (sign_flip)", "flipcheck", reduce_op::min, false, keyed<reduce_op::min>});
#if FLIPCHECK_HAVE_THRUST
    s.push_back({"thrust::max_element (host)", "Thrust", reduce_op::max, true, [](const input& xs) {
                     const auto v = values<float>(xs);
                     return index_of(v, thrust::max_element(thrust::host, v.begin(), v.end()));
                 }});
    s.push_back({"thrust::min_element (host)", "Thrust", reduce_op::min, true, [](const input& xs) {
                     const auto v = values<float>(xs);
                     return index_of(v, thrust::min_element(thrust::host, v.begin(), v.end()));
                 }});
    // reduce needs an initial value; the first element is the one that changes no answer.
    s.push_back({"thrust::reduce maximum (host)", "Thrust", reduce_op::max, false, [](const input& xs) -> answer {
                     if (xs.empty()) return std::nullopt;
                     const auto v = values<float>(xs);
                     return bits_of(thrust::reduce(thrust::host, v.begin() + 1, v.end(), v[0], thrust::maximum<float>()));
                 }});
#endif
    add_eigen<Eigen::PropagateFast>(s, "PropagateFast");
    add_eigen<Eigen::PropagateNaN>(s, "PropagateNaN");
    add_eigen<Eigen::PropagateNumbers>(s, "PropagateNumbers");
    for (auto& d : std_folds<double>("binary64", " <double>")) s.push_back(std::move(d));
    return s;
}

namespace {

template <class T, class Sort>
audit::sort_subject sorter(std::string name, std::string library, bool nan_undefined, std::string format, Sort sort) {
    return {std::move(name), std::move(library), nan_undefined,
            [sort](const input& xs) -> std::optional<input> {
                auto v = values<T>(xs);
                sort(v);
                return words(v);
            },
            std::move(format)};
}

}  // namespace

std::vector<audit::sort_subject> cpu_sort_subjects() {
    std::vector<audit::sort_subject> s{
        sorter<float>("std::sort with <", "libstdc++", true, "binary32", [](auto& v) { std::sort(v.begin(), v.end()); }),
        sorter<float>("std::stable_sort with <", "libstdc++", true, "binary32", [](auto& v) { std::stable_sort(v.begin(), v.end()); }),
        sorter<float>("std::ranges::sort with std::strong_order", "libstdc++", false, "binary32",
                      [](auto& v) { std::ranges::sort(v, [](float a, float b) { return std::strong_order(a, b) < 0; }); }),
        sorter<double>("std::ranges::sort with std::strong_order <double>", "libstdc++", false, "binary64",
                       [](auto& v) { std::ranges::sort(v, [](double a, double b) { return std::strong_order(a, b) < 0; }); }),
        // Spreadsort on the float's bits cast to an integer, std::sort with < below 1000 elements and
        // inside its bins: never run on NaN (undefined behaviour for that std::sort); the battery's
        // 5000 and 300000-element arrays take the spreadsort path.
        sorter<float>("boost float_sort", "Boost.Sort", true, "binary32", [](auto& v) { boost::sort::spreadsort::float_sort(v.begin(), v.end()); }),
        sorter<double>("boost float_sort <double>", "Boost.Sort", true, "binary64",
                       [](auto& v) { boost::sort::spreadsort::float_sort(v.begin(), v.end()); }),
    };
#if FLIPCHECK_HAVE_THRUST
    // thrust::sort with the default less sends arithmetic keys to a radix sort: run with NaN too.
    s.push_back(sorter<float>("thrust::sort (host)", "Thrust", false, "binary32", [](auto& v) { thrust::sort(thrust::host, v.begin(), v.end()); }));
#endif
    return s;
}


std::vector<audit::made_nan> made_nans(const std::string& format, bool device) {
    volatile float zf = 0;
    volatile double zd = 0;
    word x86 = 0, cuda = 0;
    if (format == "binary32") x86 = bits_of(float(zf / zf)), cuda = 0x7fffffffu;
    else if (format == "binary64") x86 = bits_of(double(zd / zd)), cuda = 0xfff8000000000000ull;  // the H100's double 0/0: negative
    else if (format == "bfloat16") x86 = bits_of(float(zf / zf)) >> 16, cuda = 0x7fffu;  // bfloat16 is float's top half
    else if (format == "binary16") {
#if defined(__FLT16_MAX__)
        volatile _Float16 zh = 0;
        x86 = bits_of(_Float16(zh / zh));
#else
        x86 = 0xfe00u;
#endif
        cuda = 0x7fffu;
    }
    if (device) cuda = gpu_backend::made_nan(format);
    return {{"x86", x86}, {"CUDA", cuda}};
}

audit::report classify(const audit::subject& s, std::size_t randoms, bool device) {
    audit::report v;
    with_audit_format(s.format, [&]<class F>() {
        v = audit::classify<F>(s.op, s.arg, s.run, randoms, made_nans(s.format, device), s.skip);
        if (!s.answers_any_input) return;
        auto ws = audit::witnesses<F>(v, s.op, s.arg);
        audit::shrink_witnesses(ws, s.run);
    });
    return v;
}
audit::sort_report classify(const audit::sort_subject& s, bool device, std::size_t randoms, std::size_t largest) {
    audit::sort_report v;
    with_audit_format(s.format, [&]<class F>() {
        v = audit::classify_sort<F>(s.run, s.nan_undefined, made_nans(s.format, device), randoms, largest);
        if (!s.answers_any_input) return;
        auto ws = audit::witnesses<F>(v);
        audit::shrink_witnesses(ws, [&](const audit::input& xs) { return sort_answer(s, xs); });
    });
    return v;
}

std::optional<audit::input> sort_answer(const audit::sort_subject& s, const audit::input& xs) {
    bool nan = false;
    with_audit_format(s.format, [&]<class F>() { nan = audit::sort_judge<F>::has_nan(xs); });
    return s.nan_undefined && nan ? std::nullopt : s.run(xs);
}


std::string boost_version() {
    return fmt::format("Boost: {}.{}.{} (Boost.Sort's spreadsort, header-only)", BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
                       BOOST_VERSION % 100);
}

std::string eigen_version() {
    return fmt::format("Eigen: {}.{}.{} (vectorized for the compiler's default target: flipcheck is built without -march)",
                       EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
}

std::string thrust_version() {
#if FLIPCHECK_HAVE_THRUST
    return fmt::format("Thrust: {}.{}.{} (host backend)", THRUST_MAJOR_VERSION, THRUST_MINOR_VERSION, THRUST_SUBMINOR_VERSION);
#else
    return "Thrust: not found at build time (rows left out)";
#endif
}

}  // namespace flipcheck::run
