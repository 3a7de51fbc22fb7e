// P3008's atomic floating-point min/max as drop-in device functions on float, double, __half and
// __nv_bfloat16 in global or shared memory. Each returns the old value, like
// std::atomic_ref<T>::fetch_fmaximum and friends; the semantics (and the policy each claims) are
// core/p3008.hpp's, verified against the oracle by gpu/tests.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "flipcheck/format.hpp"
#include "flipcheck/gpu/word.cuh"
#include "flipcheck/p3008.hpp"

namespace flipcheck::gpu {

namespace detail {
template <class T> struct format_of;
template <> struct format_of<float> { using type = binary32; };
template <> struct format_of<double> { using type = binary64; };
template <> struct format_of<__half> { using type = binary16; };
template <> struct format_of<__nv_bfloat16> { using type = bfloat16; };

template <p3008::operation K, class T>
__device__ T fetch(T* object, T operand) {
    using F = typename format_of<T>::type;
    using S = typename F::storage;
    cuda_word<S> w{reinterpret_cast<S*>(object)};
    return bit_cast<T>(p3008::fetch<F, K>::apply(w, bit_cast<S>(operand)));
}
}  // namespace detail

template <class T> __device__ T fetch_max(T* p, T v) { return detail::fetch<p3008::operation::max>(p, v); }
template <class T> __device__ T fetch_min(T* p, T v) { return detail::fetch<p3008::operation::min>(p, v); }
template <class T> __device__ T fetch_fmaximum(T* p, T v) { return detail::fetch<p3008::operation::fmaximum>(p, v); }
template <class T> __device__ T fetch_fminimum(T* p, T v) { return detail::fetch<p3008::operation::fminimum>(p, v); }
template <class T> __device__ T fetch_fmaximum_num(T* p, T v) { return detail::fetch<p3008::operation::fmaximum_num>(p, v); }
template <class T> __device__ T fetch_fminimum_num(T* p, T v) { return detail::fetch<p3008::operation::fminimum_num>(p, v); }

}  // namespace flipcheck::gpu
