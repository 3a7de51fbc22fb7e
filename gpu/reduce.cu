#include "reduce.hpp"

#include "device_buffer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "flipcheck/gpu/reduce.cuh"
#include "flipcheck/gpu/seed002.cuh"

namespace flipcheck::gpu {
namespace {



template <class S>
struct device_batch {
    std::vector<std::uint64_t> offsets{0};
    device_buffer<S> xs;
    device_buffer<std::uint64_t> d_offsets;
    static std::vector<S> concat(const std::vector<std::vector<S>>& arrays, std::vector<std::uint64_t>& offsets) {
        std::vector<S> all;
        for (const auto& a : arrays) {
            all.insert(all.end(), a.begin(), a.end());
            offsets.push_back(all.size());
        }
        return all;
    }
    explicit device_batch(const std::vector<std::vector<S>>& arrays)
        : xs(concat(arrays, offsets)), d_offsets(offsets) {}
    batch<S> view() const { return {xs.p, d_offsets.p}; }
    unsigned count() const { return unsigned(offsets.size() - 1); }
};

void check_shape(launch_shape shape, std::size_t arrays) {
    if (shape.blocks == 0 || shape.threads == 0 || shape.threads % 32 != 0 || shape.threads > 1024)
        throw std::invalid_argument("launch shape: blocks >= 1, threads a multiple of 32 up to 1024");
    if (arrays > 65535) throw std::invalid_argument("a batch holds at most 65535 arrays (gridDim.y)");
}

void finish_launch() {
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernel");
}


p3008::kind kind_of(value_subject s, reduce_op op) {
    const bool mx = op == reduce_op::max;
    if (s == value_subject::fetch_max) return mx ? p3008::kind::max : p3008::kind::min;
    if (s == value_subject::fetch_fmaximum) return mx ? p3008::kind::fmaximum : p3008::kind::fminimum;
    return mx ? p3008::kind::fmaximum_num : p3008::kind::fminimum_num;
}

// The per-element strategies: objects start at Strategy::init() (or, for P3008, at the array's
// first element), every element is one atomic update.
template <class Strategy, class S>
std::vector<S> run_per_element(const device_batch<S>& b, const std::vector<std::vector<S>>& arrays, launch_shape shape) {
    std::vector<S> init(arrays.size());
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        if constexpr (requires { Strategy::init(); }) init[i] = S(Strategy::init());
        else init[i] = arrays[i].empty() ? S(0) : arrays[i][0];
    }
    device_buffer<S> objects(init);
    per_element_kernel<Strategy><<<dim3(shape.blocks, b.count()), shape.threads>>>(b.view(), objects.p);
    finish_launch();
    return objects.download();
}

template <format F, reduce_op Op, class S>
std::vector<S> run_strategy(value_subject s, const device_batch<S>& b, const std::vector<std::vector<S>>& arrays,
                            launch_shape shape) {
    switch (s) {
        case value_subject::seed004_signbit:
            if constexpr (F::width >= 32) return run_per_element<atomic::signbit_dispatch<F, Op>>(b, arrays, shape);
            break;
        case value_subject::seed004_ge0:
            if constexpr (F::width >= 32) return run_per_element<atomic::signbit_dispatch<F, Op, true>>(b, arrays, shape);
            break;
        case value_subject::cas_fmax: return run_per_element<atomic::cas_loop<F, Op>>(b, arrays, shape);
        case value_subject::fetch_max:
            return run_per_element<p3008_strategy<F, Op == reduce_op::max ? p3008::kind::max : p3008::kind::min>>(b, arrays, shape);
        case value_subject::fetch_fmaximum:
            return run_per_element<p3008_strategy<F, Op == reduce_op::max ? p3008::kind::fmaximum : p3008::kind::fminimum>>(
                b, arrays, shape);
        case value_subject::fetch_fmaximum_num:
            return run_per_element<
                p3008_strategy<F, Op == reduce_op::max ? p3008::kind::fmaximum_num : p3008::kind::fminimum_num>>(b, arrays, shape);
        default: break;
    }
    throw std::invalid_argument("value subject not available for this format");
}

// seed 002's kernels: ArgMaxKernel on grid = SM count x 1024, then FindMaxOfMax on one block per array.
template <class Kernel1, class Kernel2>
std::vector<seed002::ArgMaxResult> run_seed002(const device_batch<std::uint32_t>& b, Kernel1 first, Kernel2 final_pass) {
    int device = 0, sms = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    constexpr int blockSize = seed002::WARP_SIZE * seed002::WARP_SIZE;
    const int gridSize = sms;
    device_buffer<seed002::ArgMaxResult> block_max(std::size_t(gridSize) * b.count());
    const int shared = (blockSize / seed002::WARP_SIZE) * int(sizeof(seed002::ArgMaxResult));
    first<<<dim3(gridSize, b.count()), blockSize, shared>>>(block_max.p, reinterpret_cast<const float*>(b.xs.p), b.d_offsets.p);
    finish_launch();
    const int blockSizeReduction = std::min(blockSize, ((gridSize + seed002::WARP_SIZE - 1) / seed002::WARP_SIZE) * seed002::WARP_SIZE);
    const int shared2 = (blockSizeReduction / seed002::WARP_SIZE) * int(sizeof(seed002::ArgMaxResult));
    final_pass<<<dim3(1, b.count()), blockSizeReduction, shared2>>>(block_max.p, uint32_t(gridSize));
    finish_launch();
    const auto all = block_max.download();
    std::vector<seed002::ArgMaxResult> out;
    for (unsigned s = 0; s < b.count(); ++s) out.push_back(all[std::size_t(s) * gridSize]);
    return out;
}

}  // namespace

policy declared(value_subject s, reduce_op op, policy requested) {
    switch (s) {
        case value_subject::warp_aggregated:
        case value_subject::block_shared:
        case value_subject::full_grid: return {requested.nan, requested.zero, tie_policy::any};
        case value_subject::seed004_signbit:
        case value_subject::seed004_ge0: return atomic::signbit_dispatch<binary32, reduce_op::max>::declared;
        case value_subject::cas_fmax: return atomic::cas_loop<binary32, reduce_op::max>::declared;
        default: return p3008::declared(kind_of(s, op));
    }
}

policy declared(arg_subject s, policy requested) {
    switch (s) {
        case arg_subject::packed_atomic:
        case arg_subject::two_level: return requested;
        case arg_subject::seed002_walkthrough:
        case arg_subject::seed002_full_code:  // what the article's host check means: `value > best`
            return {nan_policy::undefined, zero_policy::equal, tie_policy::lowest_index};
        case arg_subject::seed002_fixed: break;
    }
    return {nan_policy::ignore, zero_policy::equal, tie_policy::lowest_index};
}

std::vector<policy> policies_to_check(value_subject s, reduce_op op) {
    std::vector<policy> out;
    for (nan_policy n : {nan_policy::total_order, nan_policy::propagate, nan_policy::ignore})
        for (zero_policy z : {zero_policy::ordered, zero_policy::equal}) {
            const policy p = declared(s, op, {n, z, tie_policy::any});
            if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
        }
    return out;
}

std::vector<policy> policies_to_check(arg_subject s) {
    std::vector<policy> out;
    for (nan_policy n : {nan_policy::total_order, nan_policy::propagate, nan_policy::ignore})
        for (zero_policy z : {zero_policy::ordered, zero_policy::equal})
            for (tie_policy t : {tie_policy::lowest_index, tie_policy::highest_index, tie_policy::any}) {
                const policy p = declared(s, {n, z, t});
                if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
            }
    return out;
}

bool supports(value_subject s, format_id f) noexcept {
    const bool wide = f == format_id::binary32 || f == format_id::binary64;
    return (s != value_subject::seed004_signbit && s != value_subject::seed004_ge0) || wide;
}

bool supports(arg_subject s, format_id f, reduce_op op) noexcept {
    if (s == arg_subject::packed_atomic) return true;
    if (s == arg_subject::two_level) return true;
    return f == format_id::binary32 && op == reduce_op::max;
}

template <format F>
std::vector<std::optional<typename F::storage>> reduce(value_subject s, policy p, reduce_op op,
                                                       const std::vector<std::vector<typename F::storage>>& arrays,
                                                       launch_shape shape) {
    using S = typename F::storage;
    using M = sign_flip_branchless<F>;
    using K = key_word_t<F>;
    check_shape(shape, arrays.size());
    if (!supports(s, format_id_of<F>())) throw std::invalid_argument("value subject not available for this format");
    std::vector<std::optional<S>> out(arrays.size());
    if (arrays.empty()) return out;
    const device_batch<S> b(arrays);
    std::vector<S> bits(arrays.size());
    if (s == value_subject::warp_aggregated || s == value_subject::block_shared || s == value_subject::full_grid) {
        device_buffer<K> words(std::vector<K>(arrays.size(), identity_key<K>(op)));
        device_buffer<K> partials(std::size_t(shape.blocks) * arrays.size());
        device_buffer<unsigned> counters(arrays.size());
        const value_form form = s == value_subject::warp_aggregated ? value_form::warp_aggregated
                                : s == value_subject::block_shared  ? value_form::block_shared
                                                                    : value_form::full_grid;
        launch_reduce<M>(form, p, op, b.view(), b.count(), shape.blocks, shape.threads, words.p, partials.p, counters.p);
        finish_launch();
        const auto keys = words.download();
        for (std::size_t i = 0; i < keys.size(); ++i) bits[i] = M::decode(S(keys[i]));
    } else {
        bits = op == reduce_op::max ? run_strategy<F, reduce_op::max>(s, b, arrays, shape)
                                    : run_strategy<F, reduce_op::min>(s, b, arrays, shape);
    }
    for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!arrays[i].empty()) out[i] = bits[i];
    return out;
}

template <format F>
std::vector<std::optional<std::size_t>> arg_reduce(arg_subject s, policy p, reduce_op op,
                                                   const std::vector<std::vector<typename F::storage>>& arrays,
                                                   launch_shape shape) {
    using S = typename F::storage;
    using M = sign_flip_branchless<F>;
    using R = keyed_reducer<M>;
    check_shape(shape, arrays.size());
    if (!supports(s, format_id_of<F>(), op)) throw std::invalid_argument("arg subject not available for this format or operation");
    for (const auto& a : arrays)
        if (a.size() >= (std::size_t(1) << 32) - 1) throw std::length_error("arg subjects index at most 2^32 - 2 elements");
    std::vector<std::optional<std::size_t>> out(arrays.size());
    if (arrays.empty()) return out;
    const device_batch<S> b(arrays);
    std::vector<std::uint64_t> index(arrays.size(), ~std::uint64_t(0));
    if (s == arg_subject::packed_atomic) {
        using W = packed_word_t<F>;
        device_buffer<W> words(std::vector<W>(arrays.size(), identity_word<W>(op)));
        launch_packed_arg<M>(p, op, b.view(), b.count(), shape.blocks, shape.threads, words.p);
        finish_launch();
        const auto w = words.download();
        for (std::size_t i = 0; i < w.size(); ++i) index[i] = unpack_packed<M>(p, op, w[i]);
    } else if (s == arg_subject::two_level) {
        device_buffer<typename R::arg_word> partials(std::size_t(shape.blocks) * arrays.size());
        device_buffer<int> seen(std::size_t(shape.blocks) * arrays.size());
        device_buffer<unsigned> counters(arrays.size());
        device_buffer<std::uint64_t> indices(arrays.size());
        launch_two_level_arg<M>(p, op, b.view(), b.count(), shape.blocks, shape.threads, partials.p, seen.p, counters.p,
                                indices.p);
        finish_launch();
        index = indices.download();
    } else if constexpr (std::is_same_v<F, binary32>) {
        std::vector<seed002::ArgMaxResult> r;
        if (s == arg_subject::seed002_walkthrough)
            r = run_seed002(b, seed002::ArgMaxKernel<seed002::walkthrough>, seed002::FindMaxOfMax<seed002::walkthrough>);
        else if (s == arg_subject::seed002_full_code)
            r = run_seed002(b, seed002::ArgMaxKernel<seed002::full_code>, seed002::FindMaxOfMax<seed002::full_code>);
        else
            r = run_seed002(b, seed002::ArgMaxKernelFixed, seed002::FindMaxOfMaxFixed);
        for (std::size_t i = 0; i < r.size(); ++i) index[i] = r[i].index == ~0u ? ~std::uint64_t(0) : r[i].index;
    }
    for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!arrays[i].empty() && index[i] != ~std::uint64_t(0)) out[i] = std::size_t(index[i]);
    return out;
}

#define FLIPCHECK_GPU_REDUCE(F)                                                                                     \
    template std::vector<std::optional<F::storage>> reduce<F>(value_subject, policy, reduce_op,                    \
                                                              const std::vector<std::vector<F::storage>>&, launch_shape); \
    template std::vector<std::optional<std::size_t>> arg_reduce<F>(arg_subject, policy, reduce_op,                 \
                                                                   const std::vector<std::vector<F::storage>>&, launch_shape);
FLIPCHECK_GPU_REDUCE(binary16)
FLIPCHECK_GPU_REDUCE(bfloat16)
FLIPCHECK_GPU_REDUCE(binary32)
FLIPCHECK_GPU_REDUCE(binary64)

}  // namespace flipcheck::gpu
