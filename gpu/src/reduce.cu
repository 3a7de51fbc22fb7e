// The GPU reducers' launches (flipcheck/gpu/reduce.hpp): a handle's entry in value_list or
// arg_list picks the code, and the format id the format. A kernel of the GPU's own runs through
// its struct in kernel_reducers.cuh; a registry reducer through the generic per-element kernels.
#include "flipcheck/gpu/reduce.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernel_reducers.cuh"
#include "flipcheck/gpu/detail/registry_types.hpp"

namespace flipcheck::gpu {
namespace {

void check_shape(launch_shape shape, std::size_t arrays) {
    if (shape.blocks == 0 || shape.threads == 0 || shape.threads % 32 != 0 || shape.threads > 1024)
        throw std::invalid_argument("launch shape: blocks >= 1, threads a multiple of 32 up to 1024");
    if (arrays > 65535) throw std::invalid_argument("a batch holds at most 65535 arrays (gridDim.y)");
}

template <bool Arg>
[[noreturn]] void unavailable(reducer<Arg> r, std::uint8_t format_id, reduce_op op) {
    std::string format = "format id " + std::to_string(format_id);
    registry::for_each<registry::formats>([&]<class E>() {
        if (E::id == format_id) format = E::name;
    });
    throw std::invalid_argument("the GPU " + std::string(Arg ? "arg" : "value") + " reducer " + std::string(r.name()) +
                                " does not exist for " + format + " " + std::string(to_string(op)));
}

// A registry value reducer R: each array's object starts at R::init() (or, without one, at the
// array's first element, as a P3008 atomic holds a value before any fetch); every element is one
// atomic update; R::result (where there is one) reads the answer.
template <class R, class S>
std::vector<S> run_per_element(const device_batch<S>& b, const std::vector<std::vector<S>>& arrays, launch_shape shape) {
    std::vector<S> init(arrays.size());
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        if constexpr (requires { R::init(); }) init[i] = S(R::init());
        else init[i] = arrays[i].empty() ? S(0) : arrays[i][0];
    }
    device_buffer<S> objects(init);
    per_element_kernel<R><<<dim3(shape.blocks, b.count()), shape.threads>>>(b.view(), objects.p);
    finish_launch();
    std::vector<S> bits = objects.download();
    if constexpr (requires { R::result(S{}); })
        for (S& w : bits) w = S(R::result(w));
    return bits;
}

// A registry arg reducer R: each array's word starts at R::init(); every element is one update
// with its index; R::index reads the answer.
template <class R, class S>
std::vector<std::uint64_t> run_per_element_arg(const device_batch<S>& b, launch_shape shape) {
    using W = std::remove_cvref_t<decltype(R::init())>;
    device_buffer<W> objects(std::vector<W>(b.count(), R::init()));
    per_element_arg_kernel<R><<<dim3(shape.blocks, b.count()), shape.threads>>>(b.view(), objects.p);
    finish_launch();
    const std::vector<W> words = objects.download();
    std::vector<std::uint64_t> index(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) index[i] = R::index(words[i]);
    return index;
}

// Entry E of value_list or arg_list on format F.
template <class E, class F, class S>
auto run_entry(policy p, reduce_op op, const device_batch<S>& b, const std::vector<std::vector<S>>& arrays, launch_shape shape) {
    if constexpr (requires { typename E::kernel; }) {
        return E::kernel::template run<F>(p, op, b, shape);
    } else if constexpr (E::arg) {
        return op == reduce_op::max ? run_per_element_arg<canonical_t<typename E::template on<F, reduce_op::max>>>(b, shape)
                                    : run_per_element_arg<canonical_t<typename E::template on<F, reduce_op::min>>>(b, shape);
    } else {
        return op == reduce_op::max ? run_per_element<canonical_t<typename E::template on<F, reduce_op::max>>>(b, arrays, shape)
                                    : run_per_element<canonical_t<typename E::template on<F, reduce_op::min>>>(b, arrays, shape);
    }
}

// Calls f.template operator()<E, F>() for the entry E of List with id `id` and the format F of E's
// formats with id format_id, if its storage is S (only those pairs are compiled).
template <class List, class S, class Fn>
bool with_entry(std::uint8_t id, std::uint8_t format_id, Fn&& f) {
    bool ran = false;
    registry::for_each<List>([&]<class E>() {
        if (E::id != id) return;
        registry::for_each<typename E::formats>([&]<class FE>() {
            if constexpr (std::is_same_v<typename FE::type::storage, S>) {
                if (FE::id == format_id && !ran) {
                    f.template operator()<E, canonical_t<typename FE::type>>();
                    ran = true;
                }
            }
        });
    });
    return ran;
}

}  // namespace

template <class S>
std::vector<std::optional<S>> detail::reduce_bits(std::uint8_t format_id, value_reducer r, policy p, reduce_op op,
                                                  const std::vector<std::vector<S>>& arrays, launch_shape shape) {
    check_shape(shape, arrays.size());
    if (!r.supports(format_id, op)) unavailable(r, format_id, op);
    std::vector<std::optional<S>> out(arrays.size());
    if (arrays.empty()) return out;
    const device_batch<S> b(arrays);
    std::vector<S> bits;
    if (!with_entry<value_list, S>(r.id(), format_id,
                                   [&]<class E, class F>() { bits = run_entry<E, F>(p, op, b, arrays, shape); }))
        unavailable(r, format_id, op);
    for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!arrays[i].empty()) out[i] = bits[i];
    return out;
}

template <class S>
std::vector<std::optional<std::size_t>> detail::arg_reduce_bits(std::uint8_t format_id, arg_reducer r, policy p, reduce_op op,
                                                                const std::vector<std::vector<S>>& arrays, launch_shape shape) {
    check_shape(shape, arrays.size());
    if (!r.supports(format_id, op)) unavailable(r, format_id, op);
    for (const auto& a : arrays)
        if (a.size() >= (std::size_t(1) << 32) - 1) throw std::length_error("arg reducers index at most 2^32 - 2 elements");
    std::vector<std::optional<std::size_t>> out(arrays.size());
    if (arrays.empty()) return out;
    const device_batch<S> b(arrays);
    std::vector<std::uint64_t> index;
    if (!with_entry<arg_list, S>(r.id(), format_id,
                                 [&]<class E, class F>() { index = run_entry<E, F>(p, op, b, arrays, shape); }))
        unavailable(r, format_id, op);
    for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!arrays[i].empty() && index[i] != no_index) out[i] = std::size_t(index[i]);
    return out;
}

// The formats' storage types: 16, 32 and 64 bits (the CUDA words of word.cuh).
#define FLIPCHECK_GPU_STORAGE(S)                                                                                       \
    template std::vector<std::optional<S>> detail::reduce_bits<S>(std::uint8_t, value_reducer, policy, reduce_op,       \
                                                                  const std::vector<std::vector<S>>&, launch_shape);   \
    template std::vector<std::optional<std::size_t>> detail::arg_reduce_bits<S>(                                      \
        std::uint8_t, arg_reducer, policy, reduce_op, const std::vector<std::vector<S>>&, launch_shape);
FLIPCHECK_GPU_STORAGE(std::uint16_t)
FLIPCHECK_GPU_STORAGE(std::uint32_t)
FLIPCHECK_GPU_STORAGE(std::uint64_t)
#undef FLIPCHECK_GPU_STORAGE

}  // namespace flipcheck::gpu
