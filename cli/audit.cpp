// `flipcheck audit`: what third-party reducers really return on edge inputs. CPU subjects are the
// standard library's folds and algorithms and Thrust's host backend; GPU rows come from gpu/.
#include "audit.hpp"

#include <algorithm>
#include <cmath>
#include <ranges>

#include <fmt/format.h>

#include "flipcheck/audit.hpp"
#include "render.hpp"
#if FLIPCHECK_HAVE_GPU
#include "flipcheck/gpu/audit.hpp"  // CUB, Thrust device, fmaxf with and without FTZ
#endif

#if FLIPCHECK_HAVE_THRUST
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/version.h>
#endif

namespace flipcheck::cli {
namespace {

using audit::bits;
using audit::input;
using answer = std::optional<std::uint64_t>;

std::vector<float> floats(const input& xs) {
    std::vector<float> v(xs.size());
    std::transform(xs.begin(), xs.end(), v.begin(), [](bits b) { return bit_cast<float>(b); });
    return v;
}
answer bits_of(float f) { return bit_cast<bits>(f); }

// A fold from the first element; n = 0 has no answer (these algorithms need an element).
template <class Op>
answer fold(const input& xs, Op op) {
    if (xs.empty()) return std::nullopt;
    const auto v = floats(xs);
    float acc = v[0];
    for (std::size_t i = 1; i < v.size(); ++i) acc = op(acc, v[i]);
    return bits_of(acc);
}
template <class It>
answer index_of(const std::vector<float>& v, It it) {
    if (it == v.end()) return std::nullopt;
    return std::uint64_t(it - v.begin());
}

std::vector<audit_subject> cpu_subjects() {
    std::vector<audit_subject> s{
        {"std::max fold", "libstdc++", reduce_op::max, false,
         [](const input& xs) { return fold(xs, [](float a, float b) { return std::max(a, b); }); }},
        {"std::min fold", "libstdc++", reduce_op::min, false,
         [](const input& xs) { return fold(xs, [](float a, float b) { return std::min(a, b); }); }},
        {"std::fmax fold", "libm", reduce_op::max, false,
         [](const input& xs) { return fold(xs, [](float a, float b) { return std::fmax(a, b); }); }},
        {"std::fmin fold", "libm", reduce_op::min, false,
         [](const input& xs) { return fold(xs, [](float a, float b) { return std::fmin(a, b); }); }},
        {"std::ranges::max", "libstdc++", reduce_op::max, false,
         [](const input& xs) -> answer { return xs.empty() ? std::nullopt : bits_of(std::ranges::max(floats(xs))); }},
        {"std::max_element", "libstdc++", reduce_op::max, true,
         [](const input& xs) { const auto v = floats(xs); return index_of(v, std::max_element(v.begin(), v.end())); }},
        {"std::min_element", "libstdc++", reduce_op::min, true,
         [](const input& xs) { const auto v = floats(xs); return index_of(v, std::min_element(v.begin(), v.end())); }},
    };
#if FLIPCHECK_HAVE_THRUST
    s.push_back({"thrust::max_element (host)", "Thrust", reduce_op::max, true, [](const input& xs) {
                     const auto v = floats(xs);
                     return index_of(v, thrust::max_element(thrust::host, v.begin(), v.end()));
                 }});
    s.push_back({"thrust::min_element (host)", "Thrust", reduce_op::min, true, [](const input& xs) {
                     const auto v = floats(xs);
                     return index_of(v, thrust::min_element(thrust::host, v.begin(), v.end()));
                 }});
    // reduce needs an initial value; the first element is the one that changes no answer.
    s.push_back({"thrust::reduce maximum (host)", "Thrust", reduce_op::max, false, [](const input& xs) -> answer {
                     if (xs.empty()) return std::nullopt;
                     const auto v = floats(xs);
                     return bits_of(thrust::reduce(thrust::host, v.begin() + 1, v.end(), v[0], thrust::maximum<float>()));
                 }});
#endif
    return s;
}

}  // namespace

std::vector<std::string> audit_versions() {
    std::vector<std::string> v{fmt::format("compiler: {}", __VERSION__)};
#if defined(_GLIBCXX_RELEASE)
    v.push_back(fmt::format("libstdc++: release {} ({})", _GLIBCXX_RELEASE, __GLIBCXX__));
#endif
#if FLIPCHECK_HAVE_THRUST
    v.push_back(fmt::format("Thrust: {}.{}.{} (host backend)", THRUST_MAJOR_VERSION, THRUST_MINOR_VERSION, THRUST_SUBMINOR_VERSION));
#else
    v.push_back("Thrust: not found at build time (rows left out)");
#endif
#if FLIPCHECK_HAVE_GPU
    v.push_back("GPU: " + gpu::cccl_version());
#endif
    return v;
}

std::vector<audit_subject> audit_subjects(backend b) {
    std::vector<audit_subject> s = cpu_subjects();
#if FLIPCHECK_HAVE_GPU
    if (b == backend::gpu)
        for (auto& g : gpu::audit_subjects()) s.push_back(std::move(g));
#else
    (void)b;
#endif
    return s;
}

audit_row run_audit(const audit_subject& s, std::size_t randoms) {
    audit_row row{s, audit::classify(s.op, s.arg, s.run, randoms)};
    return row;
}

std::string render_observation(const audit_subject& s, const audit::observation& o) {
    std::string in = "[";
    if (o.xs.size() > 8) in = fmt::format("[{} elements", o.xs.size());
    else
        for (std::size_t i = 0; i < o.xs.size(); ++i) in += (i ? ", " : "") + describe("binary32", o.xs[i]).value;
    in += "]";
    std::string out;
    if (!o.got) out = "nothing";
    else if (s.arg) out = fmt::format("index {} ({})", *o.got, *o.got < o.xs.size() ? describe("binary32", o.xs[*o.got]).hex : "?");
    else out = fmt::format("{} = {}", describe("binary32", *o.got).hex, describe("binary32", *o.got).value);
    return fmt::format("{}: {} -> {}", o.what, in, out);
}

}  // namespace flipcheck::cli
