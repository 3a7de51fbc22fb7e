// The audit's P3008 subjects on the device: CCCL's cuda::atomic_ref<T>::fetch_max/fetch_min (float
// and double) and flipcheck's own p3008.cuh operations (float, double, __half, __nv_bfloat16), one
// thread and one fresh object per (old value, operand) pair, judged by core's audit/p3008.hpp.
#include "flipcheck/gpu/audit.hpp"

#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/p3008.cuh"

#include <cuda/atomic>
#include <thrust/device_vector.h>

#include <cstring>
#include <string>

namespace flipcheck::gpu {
namespace {

using audit::fetch_pair;
using audit::fetch_result;

template <class T>
using word_t = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;

enum which : int { own_max, own_min, own_fmaximum, own_fminimum, own_fmaximum_num, own_fminimum_num, cccl_max, cccl_min };

template <class T, int W>
__global__ void fetch_kernel(T* object, const T* operand, T* returned, std::size_t n) {
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    T* p = object + i;
    const T v = operand[i];
    if constexpr (W == own_max) returned[i] = fetch_max(p, v);
    else if constexpr (W == own_min) returned[i] = fetch_min(p, v);
    else if constexpr (W == own_fmaximum) returned[i] = fetch_fmaximum(p, v);
    else if constexpr (W == own_fminimum) returned[i] = fetch_fminimum(p, v);
    else if constexpr (W == own_fmaximum_num) returned[i] = fetch_fmaximum_num(p, v);
    else if constexpr (W == own_fminimum_num) returned[i] = fetch_fminimum_num(p, v);
    else {
        ::cuda::atomic_ref<T, ::cuda::thread_scope_device> ref(*p);
        returned[i] = W == cccl_max ? ref.fetch_max(v) : ref.fetch_min(v);
    }
}

template <class T>
thrust::device_vector<T> upload(const std::vector<fetch_pair>& pairs, bool first) {
    std::vector<T> host(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const word_t<T> w = word_t<T>(first ? pairs[i].first : pairs[i].second);
        std::memcpy(&host[i], &w, sizeof(T));
    }
    return thrust::device_vector<T>(host.begin(), host.end());
}
template <class T>
std::vector<audit::word> download(const thrust::device_vector<T>& d) {
    std::vector<T> host(d.size());
    if (!host.empty()) check(cudaMemcpy(host.data(), thrust::raw_pointer_cast(d.data()), d.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::vector<audit::word> out(host.size());
    for (std::size_t i = 0; i < host.size(); ++i) {
        word_t<T> w;
        std::memcpy(&w, &host[i], sizeof(T));
        out[i] = w;
    }
    return out;
}

template <class T, int W>
std::vector<fetch_result> run(const std::vector<fetch_pair>& pairs) {
    auto object = upload<T>(pairs, true), operand = upload<T>(pairs, false);
    thrust::device_vector<T> returned(pairs.size());
    const unsigned blocks = unsigned((pairs.size() + 255) / 256);
    if (blocks)
        fetch_kernel<T, W><<<blocks, 256>>>(thrust::raw_pointer_cast(object.data()), thrust::raw_pointer_cast(operand.data()),
                                            thrust::raw_pointer_cast(returned.data()), pairs.size());
    check(cudaGetLastError(), "p3008 fetch kernel");
    check(cudaDeviceSynchronize(), "p3008 fetch kernel");
    const auto r = download(returned), s = download(object);
    std::vector<fetch_result> out(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) out[i] = {r[i], s[i]};
    return out;
}

template <class T>
void add_own(std::vector<audit::p3008_subject>& s, const char* format, const std::string& type) {
    const std::string dev = "--device gpu", t = " <" + type + "> (device)";
    s.push_back({"flipcheck p3008 fetch_max" + t, "flipcheck", p3008::operation::max, run<T, own_max>, format, dev});
    s.push_back({"flipcheck p3008 fetch_min" + t, "flipcheck", p3008::operation::min, run<T, own_min>, format, dev});
    s.push_back({"flipcheck p3008 fetch_fmaximum" + t, "flipcheck", p3008::operation::fmaximum, run<T, own_fmaximum>, format, dev});
    s.push_back({"flipcheck p3008 fetch_fminimum" + t, "flipcheck", p3008::operation::fminimum, run<T, own_fminimum>, format, dev});
    s.push_back({"flipcheck p3008 fetch_fmaximum_num" + t, "flipcheck", p3008::operation::fmaximum_num, run<T, own_fmaximum_num>, format, dev});
    s.push_back({"flipcheck p3008 fetch_fminimum_num" + t, "flipcheck", p3008::operation::fminimum_num, run<T, own_fminimum_num>, format, dev});
}

}  // namespace

std::vector<audit::p3008_subject> p3008_subjects() {
    std::vector<audit::p3008_subject> s;
    const std::string dev = "--device gpu";
    s.push_back({"cuda::atomic_ref<float>::fetch_max (device)", "CCCL", p3008::operation::max, run<float, cccl_max>, "binary32", dev});
    s.push_back({"cuda::atomic_ref<float>::fetch_min (device)", "CCCL", p3008::operation::min, run<float, cccl_min>, "binary32", dev});
    s.push_back({"cuda::atomic_ref<double>::fetch_max (device)", "CCCL", p3008::operation::max, run<double, cccl_max>, "binary64", dev});
    s.push_back({"cuda::atomic_ref<double>::fetch_min (device)", "CCCL", p3008::operation::min, run<double, cccl_min>, "binary64", dev});
    add_own<float>(s, "binary32", "float");
    add_own<double>(s, "binary64", "double");
    add_own<__half>(s, "binary16", "__half");
    add_own<__nv_bfloat16>(s, "bfloat16", "__nv_bfloat16");
    return s;
}

}  // namespace flipcheck::gpu
