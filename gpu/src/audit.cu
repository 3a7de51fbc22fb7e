// The GPU audit subjects. Each runs the input on the device exactly as a user would call the
// library; `flipcheck audit` then classifies the answers against the oracle's policies.
#include "flipcheck/gpu/audit.hpp"

#include "flipcheck/gpu/detail/cuda_check.hpp"

#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
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


// The input on the device, as floats.
thrust::device_vector<float> upload(const std::vector<std::uint32_t>& xs) {
    thrust::device_vector<std::uint32_t> bits(xs.begin(), xs.end());
    thrust::device_vector<float> f(xs.size());
    if (!xs.empty())
        check(cudaMemcpy(thrust::raw_pointer_cast(f.data()), thrust::raw_pointer_cast(bits.data()), xs.size() * 4,
                         cudaMemcpyDeviceToDevice),
              "cudaMemcpy");
    return f;
}

// cub::DeviceReduce::Max/Min: called for n = 0 too, since what it writes then is part of the audit.
std::optional<std::uint64_t> cub_value(const std::vector<std::uint32_t>& xs, bool max) {
    auto in = upload(xs);
    thrust::device_vector<float> out(1);
    const float* d_in = thrust::raw_pointer_cast(in.data());
    float* d_out = thrust::raw_pointer_cast(out.data());
    std::size_t bytes = 0;
    const auto n = ::cuda::std::int64_t(xs.size());
    check(max ? cub::DeviceReduce::Max(nullptr, bytes, d_in, d_out, n) : cub::DeviceReduce::Min(nullptr, bytes, d_in, d_out, n), "cub");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    void* d_temp = thrust::raw_pointer_cast(temp.data());
    check(max ? cub::DeviceReduce::Max(d_temp, bytes, d_in, d_out, n) : cub::DeviceReduce::Min(d_temp, bytes, d_in, d_out, n), "cub");
    const float r = out[0];
    std::uint32_t b;
    std::memcpy(&b, &r, 4);
    return b;
}

std::optional<std::uint64_t> cub_arg(const std::vector<std::uint32_t>& xs, bool max) {
    if (xs.empty()) return std::nullopt;  // an index into nothing cannot be checked
    auto in = upload(xs);
    thrust::device_vector<float> value(1);
    thrust::device_vector<::cuda::std::int64_t> index(1);
    const float* d_in = thrust::raw_pointer_cast(in.data());
    float* d_v = thrust::raw_pointer_cast(value.data());
    auto* d_i = thrust::raw_pointer_cast(index.data());
    std::size_t bytes = 0;
    const auto n = ::cuda::std::int64_t(xs.size());
    check(max ? cub::DeviceReduce::ArgMax(nullptr, bytes, d_in, d_v, d_i, n) : cub::DeviceReduce::ArgMin(nullptr, bytes, d_in, d_v, d_i, n), "cub");
    thrust::device_vector<unsigned char> temp(bytes + 1);
    void* d_temp = thrust::raw_pointer_cast(temp.data());
    check(max ? cub::DeviceReduce::ArgMax(d_temp, bytes, d_in, d_v, d_i, n) : cub::DeviceReduce::ArgMin(d_temp, bytes, d_in, d_v, d_i, n), "cub");
    return std::uint64_t(::cuda::std::int64_t(index[0]));
}

std::optional<std::uint64_t> thrust_arg(const std::vector<std::uint32_t>& xs, bool max) {
    if (xs.empty()) return std::nullopt;
    auto in = upload(xs);
    const auto it = max ? thrust::max_element(thrust::device, in.begin(), in.end())
                        : thrust::min_element(thrust::device, in.begin(), in.end());
    return std::uint64_t(it - in.begin());
}

}  // namespace

std::vector<audit::subject> audit_subjects() {
    using R = std::optional<std::uint64_t>;
    using V = const std::vector<std::uint32_t>&;
    auto fold = [](bool ftz, bool max) {
        return [ftz, max](V xs) -> R {
            if (xs.empty()) return std::nullopt;
            return ftz ? fold_ftz(xs, max) : fold_noftz(xs, max);
        };
    };
    return {
        {"cub::DeviceReduce::Max", "CUB", reduce_op::max, false, [](V xs) { return cub_value(xs, true); }},
        {"cub::DeviceReduce::Min", "CUB", reduce_op::min, false, [](V xs) { return cub_value(xs, false); }},
        {"cub::DeviceReduce::ArgMax", "CUB", reduce_op::max, true, [](V xs) { return cub_arg(xs, true); }},
        {"cub::DeviceReduce::ArgMin", "CUB", reduce_op::min, true, [](V xs) { return cub_arg(xs, false); }},
        {"thrust::max_element (device)", "Thrust", reduce_op::max, true, [](V xs) { return thrust_arg(xs, true); }},
        {"thrust::min_element (device)", "Thrust", reduce_op::min, true, [](V xs) { return thrust_arg(xs, false); }},
        {"CUDA fmaxf fold, -ftz=false", "CUDA", reduce_op::max, false, fold(false, true)},
        {"CUDA fmaxf fold, -ftz=true", "CUDA", reduce_op::max, false, fold(true, true)},
        {"CUDA fminf fold, -ftz=true", "CUDA", reduce_op::min, false, fold(true, false)},
    };
}

std::string cccl_version() {
    return "Thrust/CUB " + std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "." +
           std::to_string(THRUST_SUBMINOR_VERSION) + " (CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
           std::to_string(CUDART_VERSION % 1000 / 10) + ")";
}

}  // namespace flipcheck::gpu
