// The one door to the GPU (gpu_backend.hpp). With FLIPCHECK_HAVE_GPU every call goes to
// flipcheck::gpu; without it, each says that this build has no GPU support.
#include "flipcheck/run/gpu_backend.hpp"

#include "flipcheck/error.hpp"
#include "flipcheck/catalog/registry.hpp"
#if FLIPCHECK_HAVE_GPU
#include "flipcheck/gpu/amax.hpp"
#include "flipcheck/gpu/audit.hpp"
#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/every_input.hpp"
#include "flipcheck/gpu/pairs.hpp"
#include "flipcheck/gpu/reduce.hpp"
#include "flipcheck/gpu/sweep.hpp"
#include "flipcheck/gpu/yamr.hpp"
#endif

namespace flipcheck::run::gpu_backend {

#if FLIPCHECK_HAVE_GPU
namespace {

// Calls visit.template operator()<M>() with the instance of registry::sweepable named so; input_error
// when there is none (the command looks names up before it gets here).
template <class Result, class Visit>
Result with_instance(std::string_view format, std::string_view mapping, Visit&& visit) {
    std::optional<Result> out;
    registry::for_each<registry::sweepable>([&]<class I>() {
        using M = typename I::type;
        if (!out && M::name == mapping && M::format::name == format) out.emplace(visit.template operator()<M>());
    });
    if (!out) throw input_error("the GPU has no sweep of " + std::string(mapping) + " on " + std::string(format));
    return std::move(*out);
}

template <bool Arg>
gpu::reducer<Arg> named(std::string_view reducer) {
    const auto r = gpu::reducer<Arg>::find(reducer);
    if (!r) throw input_error("the GPU has no " + std::string(Arg ? "arg reducer" : "reducer") + " named " + std::string(reducer));
    return *r;
}

constexpr gpu::launch_shape shape_of(unsigned blocks) { return {blocks, 256}; }

template <bool Arg>
void add_reducers(std::uint8_t format_id, std::vector<reducer_checks>& out) {
    for (const gpu::reducer<Arg> r : gpu::reducer<Arg>::all()) {
        if (!r.supports(format_id)) continue;
        reducer_checks c{std::string(r.name()), Arg, r.mutant(), {}};
        for (reduce_op op : {reduce_op::max, reduce_op::min})
            if (r.supports(format_id, op)) c.ops.push_back({op, r.policies_to_check(op)});
        out.push_back(std::move(c));
    }
}

}  // namespace

bool built() noexcept { return true; }
bool available() { return gpu::available(); }
double start_up() { return gpu::start_up(); }
std::string device_name() { return gpu::name(); }

sweep_report sweep(std::string_view format, std::string_view mapping, const sweep_options& o) {
    return with_instance<sweep_report>(format, mapping, [&]<class M>() { return gpu::sweep<M>(o); });
}
std::vector<std::string> cross_check(std::string_view format, std::string_view mapping, const sweep_options& o) {
    return with_instance<std::vector<std::string>>(format, mapping, [&]<class M>() { return gpu::cross_check<M>(o); });
}

pairs_report pairs(std::string_view format, std::string_view mapping, const pairs_options& o) {
    return with_instance<pairs_report>(format, mapping, [&]<class M>() { return gpu::check_pairs<M>(o); });
}

std::vector<reducer_checks> reducers(std::uint8_t format_id) {
    std::vector<reducer_checks> out;
    add_reducers<false>(format_id, out);
    add_reducers<true>(format_id, out);
    return out;
}
policy declared(std::string_view reducer, reduce_op op) {
    if (const auto r = gpu::value_reducer::find(reducer)) return r->declared(op);
    return named<true>(reducer).declared(op);
}
template <class S>
std::vector<std::optional<S>> reduce(std::uint8_t format_id, std::string_view reducer, policy p, reduce_op op,
                                     const std::vector<std::vector<S>>& arrays, unsigned blocks) {
    return gpu::detail::reduce_bits<S>(format_id, named<false>(reducer), p, op, arrays, shape_of(blocks));
}
template <class S>
std::vector<std::optional<std::size_t>> arg_reduce(std::uint8_t format_id, std::string_view reducer, policy p, reduce_op op,
                                                   const std::vector<std::vector<S>>& arrays, unsigned blocks) {
    return gpu::detail::arg_reduce_bits<S>(format_id, named<true>(reducer), p, op, arrays, shape_of(blocks));
}

std::uint32_t yamr(const std::vector<std::uint32_t>& xs, bool volatile_shared) { return gpu::yamr(xs, volatile_shared); }

std::vector<scaling_row> verify_scaling(bool mutants) {
    std::vector<scaling_row> rows;
    for (auto& g : gpu::verify_scaling(mutants)) rows.push_back({std::move(g.report), "gpu", g.mutant, g.ms / 1000});
    return rows;
}

std::vector<conversion_row> conversion_rows() {
    std::vector<conversion_row> rows;
    for (auto set : {gpu::quantizer_set::cuda_conversions, gpu::quantizer_set::built_ins})
        for (auto& g : gpu::every_input(set)) {
            conversion_row r{g.report.subject, g.library, "binary32", g.element, g.declared, {}, {}, g.declared, {}, std::move(g.report), g.wall_ms / 1000};
            if (r.report.passed()) r.does = g.declared;
            rows.push_back(std::move(r));
        }
    return rows;
}

std::vector<audit::subject> audit_subjects() { return gpu::audit_subjects(); }
std::vector<audit::sort_subject> sort_subjects() { return gpu::sort_subjects(); }
std::vector<audit::p3008_subject> p3008_subjects() { return gpu::p3008_subjects(); }
std::vector<audit::intrinsic_row> intrinsic_truth_tables() { return gpu::intrinsic_truth_tables(); }
std::uint64_t made_nan(const std::string& format) { return gpu::made_nan(format); }
std::string cccl_version() { return gpu::cccl_version(); }

#else  // no GPU code in this build

namespace {
[[noreturn]] void no_gpu() { throw input_error("this build has no GPU support (configure with FLIPCHECK_ENABLE_CUDA=ON where nvcc is installed)"); }
}  // namespace

bool built() noexcept { return false; }
bool available() { return false; }
double start_up() { no_gpu(); }
std::string device_name() { no_gpu(); }
sweep_report sweep(std::string_view, std::string_view, const sweep_options&) { no_gpu(); }
std::vector<std::string> cross_check(std::string_view, std::string_view, const sweep_options&) { no_gpu(); }
pairs_report pairs(std::string_view, std::string_view, const pairs_options&) { no_gpu(); }
std::vector<reducer_checks> reducers(std::uint8_t) { no_gpu(); }
policy declared(std::string_view, reduce_op) { no_gpu(); }
template <class S>
std::vector<std::optional<S>> reduce(std::uint8_t, std::string_view, policy, reduce_op, const std::vector<std::vector<S>>&, unsigned) {
    no_gpu();
}
template <class S>
std::vector<std::optional<std::size_t>> arg_reduce(std::uint8_t, std::string_view, policy, reduce_op, const std::vector<std::vector<S>>&,
                                                   unsigned) {
    no_gpu();
}
std::uint32_t yamr(const std::vector<std::uint32_t>&, bool) { no_gpu(); }
std::vector<scaling_row> verify_scaling(bool) { no_gpu(); }
std::vector<conversion_row> conversion_rows() { no_gpu(); }
std::vector<audit::subject> audit_subjects() { no_gpu(); }
std::vector<audit::sort_subject> sort_subjects() { no_gpu(); }
std::vector<audit::p3008_subject> p3008_subjects() { no_gpu(); }
std::vector<audit::intrinsic_row> intrinsic_truth_tables() { no_gpu(); }
std::uint64_t made_nan(const std::string&) { no_gpu(); }
std::string cccl_version() { no_gpu(); }

#endif

// The storage types of registry::formats (src/reduce.cu launches 16-, 32- and 64-bit words).
#define FLIPCHECK_GPU_BACKEND_REDUCE(S)                                                                                          \
    template std::vector<std::optional<S>> reduce<S>(std::uint8_t, std::string_view, policy, reduce_op,                       \
                                                     const std::vector<std::vector<S>>&, unsigned);                            \
    template std::vector<std::optional<std::size_t>> arg_reduce<S>(std::uint8_t, std::string_view, policy, reduce_op,         \
                                                                   const std::vector<std::vector<S>>&, unsigned);
FLIPCHECK_GPU_BACKEND_REDUCE(std::uint16_t)
FLIPCHECK_GPU_BACKEND_REDUCE(std::uint32_t)
FLIPCHECK_GPU_BACKEND_REDUCE(std::uint64_t)
#undef FLIPCHECK_GPU_BACKEND_REDUCE

}  // namespace flipcheck::run::gpu_backend
