// The GPU audit subjects. Each runs the input on the device exactly as a user would call the
// library, in every format it takes (float, double, __half, __nv_bfloat16); `flipcheck audit` then
// asks the oracle's questions of the answers.
#include "flipcheck/gpu/audit.hpp"

#include "flipcheck/gpu/detail/cuda_check.hpp"

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/sort.h>
#include <thrust/version.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace flipcheck::gpu {

// fmaxf/fminf folds, one per translation unit flag: audit_fold.cu is compiled twice, with
// -ftz=true and with -ftz=false (see CMakeLists.txt).
std::uint32_t fold_ftz(const std::vector<std::uint32_t>& xs, bool max);
std::uint32_t fold_noftz(const std::vector<std::uint32_t>& xs, bool max);

namespace {

using audit::answer;
using audit::input;

template <class T>
using word_t = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;

template <class T>
thrust::device_vector<T> upload(const input& xs) {
    std::vector<T> host(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const word_t<T> w = word_t<T>(xs[i]);
        std::memcpy(&host[i], &w, sizeof(T));
    }
    return thrust::device_vector<T>(host.begin(), host.end());
}
template <class T>
audit::word bits_of(const T& v) {
    word_t<T> w;
    std::memcpy(&w, &v, sizeof(T));
    return w;
}
template <class T>
input download(const thrust::device_vector<T>& d) {
    std::vector<T> host(d.size());
    if (!host.empty()) check(cudaMemcpy(host.data(), thrust::raw_pointer_cast(d.data()), d.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    input out(host.size());
    for (std::size_t i = 0; i < host.size(); ++i) out[i] = bits_of(host[i]);
    return out;
}

// cub::DeviceReduce::Max/Min: called for n = 0 too, since what it writes then is part of the audit.
template <class T>
answer cub_value(const input& xs, bool max) {
    auto in = upload<T>(xs);
    thrust::device_vector<T> out(1);
    const T* d_in = thrust::raw_pointer_cast(in.data());
    T* d_out = thrust::raw_pointer_cast(out.data());
    std::size_t bytes = 0;
    const auto n = ::cuda::std::int64_t(xs.size());
    check(max ? cub::DeviceReduce::Max(nullptr, bytes, d_in, d_out, n) : cub::DeviceReduce::Min(nullptr, bytes, d_in, d_out, n), "cub");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    void* d_temp = thrust::raw_pointer_cast(temp.data());
    check(max ? cub::DeviceReduce::Max(d_temp, bytes, d_in, d_out, n) : cub::DeviceReduce::Min(d_temp, bytes, d_in, d_out, n), "cub");
    return download(out)[0];
}

template <class T>
answer cub_arg(const input& xs, bool max) {
    if (xs.empty()) return std::nullopt;  // an index into nothing cannot be checked
    auto in = upload<T>(xs);
    thrust::device_vector<T> value(1);
    thrust::device_vector<::cuda::std::int64_t> index(1);
    const T* d_in = thrust::raw_pointer_cast(in.data());
    T* d_v = thrust::raw_pointer_cast(value.data());
    auto* d_i = thrust::raw_pointer_cast(index.data());
    std::size_t bytes = 0;
    const auto n = ::cuda::std::int64_t(xs.size());
    check(max ? cub::DeviceReduce::ArgMax(nullptr, bytes, d_in, d_v, d_i, n) : cub::DeviceReduce::ArgMin(nullptr, bytes, d_in, d_v, d_i, n), "cub");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    void* d_temp = thrust::raw_pointer_cast(temp.data());
    check(max ? cub::DeviceReduce::ArgMax(d_temp, bytes, d_in, d_v, d_i, n) : cub::DeviceReduce::ArgMin(d_temp, bytes, d_in, d_v, d_i, n), "cub");
    return std::uint64_t(::cuda::std::int64_t(index[0]));
}

template <class T>
answer thrust_arg(const input& xs, bool max) {
    if (xs.empty()) return std::nullopt;
    auto in = upload<T>(xs);
    const auto it = max ? thrust::max_element(thrust::device, in.begin(), in.end()) : thrust::min_element(thrust::device, in.begin(), in.end());
    return std::uint64_t(it - in.begin());
}

template <class T>
std::optional<input> radix_sort(const input& xs) {
    auto keys = upload<T>(xs);
    thrust::device_vector<T> out(xs.size());
    std::size_t bytes = 0;
    const T* d_in = thrust::raw_pointer_cast(keys.data());
    T* d_out = thrust::raw_pointer_cast(out.data());
    const auto n = ::cuda::std::int64_t(xs.size());
    check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n), "cub radix sort");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    check(cub::DeviceRadixSort::SortKeys(thrust::raw_pointer_cast(temp.data()), bytes, d_in, d_out, n), "cub radix sort");
    check(cudaDeviceSynchronize(), "cub radix sort");
    return download(out);
}

struct less_than {
    template <class T>
    __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

template <class T>
std::optional<input> merge_sort(const input& xs) {
    auto keys = upload<T>(xs);
    std::size_t bytes = 0;
    T* d = thrust::raw_pointer_cast(keys.data());
    const auto n = ::cuda::std::int64_t(xs.size());
    check(cub::DeviceMergeSort::SortKeys(nullptr, bytes, d, n, less_than{}), "cub merge sort");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    check(cub::DeviceMergeSort::SortKeys(thrust::raw_pointer_cast(temp.data()), bytes, d, n, less_than{}), "cub merge sort");
    check(cudaDeviceSynchronize(), "cub merge sort");
    return download(keys);
}

template <class T>
std::optional<input> thrust_sort(const input& xs) {
    auto keys = upload<T>(xs);
    thrust::sort(thrust::device, keys.begin(), keys.end());
    return download(keys);
}

// The subjects of one element type; binary32's keep the names users search for.
template <class T>
void add(std::vector<audit::subject>& out, const char* format, const std::string& type) {
    const std::string t = type == "float" ? "" : " <" + type + ">";
    const std::string dev = "--device gpu";
    out.push_back({"cub::DeviceReduce::Max" + t, "CUB", reduce_op::max, false, [](const input& xs) { return cub_value<T>(xs, true); }, format, dev});
    out.push_back({"cub::DeviceReduce::Min" + t, "CUB", reduce_op::min, false, [](const input& xs) { return cub_value<T>(xs, false); }, format, dev});
    out.push_back({"cub::DeviceReduce::ArgMax" + t, "CUB", reduce_op::max, true, [](const input& xs) { return cub_arg<T>(xs, true); }, format, dev});
    out.push_back({"cub::DeviceReduce::ArgMin" + t, "CUB", reduce_op::min, true, [](const input& xs) { return cub_arg<T>(xs, false); }, format, dev});
    out.push_back({"thrust::max_element (device)" + t, "Thrust", reduce_op::max, true, [](const input& xs) { return thrust_arg<T>(xs, true); }, format, dev});
    out.push_back({"thrust::min_element (device)" + t, "Thrust", reduce_op::min, true, [](const input& xs) { return thrust_arg<T>(xs, false); }, format, dev});
}
template <class T>
void add_sorts(std::vector<audit::sort_subject>& out, const char* format, const std::string& type) {
    const std::string t = type == "float" ? "" : " <" + type + ">";
    const std::string dev = "--device gpu";
    out.push_back({"cub::DeviceRadixSort::SortKeys" + t, "CUB", false, radix_sort<T>, format, dev});
    // Merge sort with < is not a strict weak order once a NaN is in: never run on one.
    out.push_back({"cub::DeviceMergeSort::SortKeys with <" + t, "CUB", true, merge_sort<T>, format, dev});
    // thrust::sort with the default less sends arithmetic keys to radix sort: run with NaN too.
    out.push_back({"thrust::sort (device)" + t, "Thrust", false, thrust_sort<T>, format, dev});
}

__global__ void make_nans(const float* zero, std::uint32_t* f, unsigned long long* d, unsigned short* h, unsigned short* b) {
    const float z = *zero;  // read from memory: the compiler cannot fold 0/0
    *f = __float_as_uint(z / z);
    const double zd = z;
    *d = (unsigned long long)__double_as_longlong(zd / zd);
    const __half zh = __float2half(z);
    *h = __half_as_ushort(__hdiv(zh, zh));
    const __nv_bfloat16 zb = __float2bfloat16(z);
    *b = __bfloat16_as_ushort(__hdiv(zb, zb));
}

}  // namespace

std::vector<audit::subject> audit_subjects() {
    std::vector<audit::subject> s;
    add<float>(s, "binary32", "float");
    using V = const input&;
    auto fold = [](bool ftz, bool max) {
        return [ftz, max](V xs) -> answer {
            if (xs.empty()) return std::nullopt;
            const std::vector<std::uint32_t> w(xs.begin(), xs.end());
            return ftz ? fold_ftz(w, max) : fold_noftz(w, max);
        };
    };
    s.push_back({"CUDA fmaxf fold, -ftz=false", "CUDA", reduce_op::max, false, fold(false, true), "binary32", "--device gpu"});
    s.push_back({"CUDA fmaxf fold, -ftz=true", "CUDA", reduce_op::max, false, fold(true, true), "binary32", "--device gpu"});
    s.push_back({"CUDA fminf fold, -ftz=true", "CUDA", reduce_op::min, false, fold(true, false), "binary32", "--device gpu"});
    add<double>(s, "binary64", "double");
    add<__half>(s, "binary16", "__half");
    add<__nv_bfloat16>(s, "bfloat16", "__nv_bfloat16");
    return s;
}

std::vector<audit::sort_subject> sort_subjects() {
    std::vector<audit::sort_subject> s;
    add_sorts<float>(s, "binary32", "float");
    add_sorts<double>(s, "binary64", "double");
    add_sorts<__half>(s, "binary16", "__half");
    add_sorts<__nv_bfloat16>(s, "bfloat16", "__nv_bfloat16");
    return s;
}

std::uint64_t made_nan(const std::string& format) {
    thrust::device_vector<float> zero(1, 0.0f);
    thrust::device_vector<std::uint32_t> f(1);
    thrust::device_vector<unsigned long long> d(1);
    thrust::device_vector<unsigned short> h(1), b(1);
    make_nans<<<1, 1>>>(thrust::raw_pointer_cast(zero.data()), thrust::raw_pointer_cast(f.data()), thrust::raw_pointer_cast(d.data()),
                        thrust::raw_pointer_cast(h.data()), thrust::raw_pointer_cast(b.data()));
    check(cudaGetLastError(), "make_nans");
    check(cudaDeviceSynchronize(), "make_nans");
    if (format == "binary32") return std::uint32_t(f[0]);
    if (format == "binary64") return (unsigned long long)(d[0]);
    if (format == "binary16") return (unsigned short)(h[0]);
    if (format == "bfloat16") return (unsigned short)(b[0]);
    throw std::invalid_argument("made_nan: no format " + format);
}

std::string cccl_version() {
    return "Thrust/CUB " + std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "." +
           std::to_string(THRUST_SUBMINOR_VERSION) + " (CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
           std::to_string(CUDART_VERSION % 1000 / 10) + ")";
}

}  // namespace flipcheck::gpu
