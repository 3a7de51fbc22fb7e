#include "registry.hpp"

#include <algorithm>

#include "flipcheck/sampled.hpp"
#if FLIPCHECK_HAVE_GPU
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/sweep.hpp"  // the CUDA launcher, callable from host code
#endif

namespace flipcheck::cli {
namespace {

template <class M>
sweep_report run_sweep(const sweep_options& o, backend b) {
    using F = typename M::format;
#if FLIPCHECK_HAVE_GPU
    if (b == backend::gpu) return gpu::sweep<M>(o);
#else
    if (b == backend::gpu) throw input_error("this build has no GPU support (configure with FLIPCHECK_ENABLE_CUDA=ON)");
#endif
    // binary64 has 2^64 keys: without an explicit range it gets the sampled sweep.
    if constexpr (F::width == 64) {
        if (!o.range) return sampled_sweep<M>(o);
    }
    return sweep<M>(o);
}

template <class M>
std::vector<std::string> run_cross_check([[maybe_unused]] const sweep_options& o) {
#if FLIPCHECK_HAVE_GPU
    return gpu::cross_check<M>(o);
#else
    throw input_error("--cross-check needs a build with GPU support (FLIPCHECK_ENABLE_CUDA=ON)");
#endif
}

// Format by format, in registry order, so that listings and the main job group by format.
std::vector<sweep_entry> make_entries() {
    std::vector<sweep_entry> out;
    registry::for_each<registry::formats>([&]<class FE>() {
        registry::for_each<registry::sweepable>([&]<class I>() {
            if constexpr (std::is_same_v<typename I::format, typename FE::type>) {
                using M = typename I::type;
                out.push_back({std::string(FE::name), std::string(M::name), I::entry::info, &run_sweep<M>, &run_cross_check<M>});
            }
        });
    });
    return out;
}

}  // namespace

const std::vector<sweep_entry>& sweep_entries() {
    static const std::vector<sweep_entry> all = make_entries();
    return all;
}

const sweep_entry* find_sweep_entry(std::string_view format, std::string_view mapping) {
    for (const auto& s : sweep_entries())
        if (s.format == format && s.mapping == mapping) return &s;
    return nullptr;
}

std::vector<std::string> format_names() {
    std::vector<std::string> names;
    registry::for_each<registry::formats>([&]<class E>() { names.emplace_back(E::name); });
    return names;
}

std::vector<std::string> mapping_names(bool builtin_only) {
    std::vector<std::string> names;
    for (const auto& s : sweep_entries())
        if ((s.builtin() || !builtin_only) && std::find(names.begin(), names.end(), s.mapping) == names.end())
            names.push_back(s.mapping);
    return names;
}

double gpu_start_up() {
#if FLIPCHECK_HAVE_GPU
    return gpu::start_up();
#else
    return 0;
#endif
}

bool gpu_available() {
#if FLIPCHECK_HAVE_GPU
    return gpu::available();
#else
    return false;
#endif
}

}  // namespace flipcheck::cli
