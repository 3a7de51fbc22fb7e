// Truth tables of CUDA's 16-bit max/min intrinsics over every pair of 16-bit patterns (2^32): for
// each candidate semantics (core's oracle policies on a pair) the number of pairs it gets wrong
// and the first one, and which NaN the intrinsic returns. __hmax2/__hmin2 run the pair in both
// lanes ((a, b) low, (b, a) high), so a lane that behaves differently shows.
#include "flipcheck/gpu/audit.hpp"

#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/oracle.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/device_vector.h>

namespace flipcheck::gpu {
namespace {

constexpr int candidate_count = 5;
__host__ __device__ constexpr policy candidate(int c) {
    switch (c) {
        case 0: return {nan_policy::ignore, zero_policy::ordered};
        case 1: return {nan_policy::ignore, zero_policy::equal};
        case 2: return {nan_policy::propagate, zero_policy::ordered};
        case 3: return {nan_policy::propagate, zero_policy::equal};
        default: return {nan_policy::total_order, zero_policy::ordered};
    }
}
const char* candidate_name(int c) {
    constexpr const char* names[] = {"maximumNumber/minimumNumber, -0 < +0", "NaN skipped, zero sign unspecified",
                                     "maximum/minimum (NaN propagates), -0 < +0", "NaN propagates, zero sign unspecified", "totalOrder"};
    return names[c];
}

struct table {
    unsigned long long wrong[candidate_count];
    unsigned long long first[candidate_count];  // (a << 16 | b), the lowest pair it gets wrong
    unsigned int first_result[candidate_count];
    unsigned int nan_first;                     // the first NaN result's bits
    unsigned long long nan_other;               // NaN results with other bits
};

enum op_id : int { hmax, hmax_nan, hmin, hmin_nan, hmax2, hmin2 };

template <class T, class T2, int Op>
__device__ void apply(unsigned short a, unsigned short b, unsigned short& lo, unsigned short& hi) {
    T x, y;
    memcpy(&x, &a, 2);
    memcpy(&y, &b, 2);
    T r = x, r2 = y;
    if constexpr (Op == hmax) r = __hmax(x, y);
    else if constexpr (Op == hmax_nan) r = __hmax_nan(x, y);
    else if constexpr (Op == hmin) r = __hmin(x, y);
    else if constexpr (Op == hmin_nan) r = __hmin_nan(x, y);
    else {
        T2 u, v;
        u.x = x, u.y = y;
        v.x = y, v.y = x;
        const T2 w = Op == hmax2 ? __hmax2(u, v) : __hmin2(u, v);
        r = w.x, r2 = w.y;
    }
    memcpy(&lo, &r, 2);
    memcpy(&hi, &r2, 2);
}

template <class F>
__device__ void judge(table* t, reduce_op op, unsigned short a, unsigned short b, unsigned short r) {
    const unsigned short xs[2] = {a, b};
    for (int c = 0; c < candidate_count; ++c) {
        const std::size_t i = oracle::arg_reduce<F>(candidate(c), op, xs, 2);
        const unsigned short want = xs[i == oracle::npos ? 0 : i];
        if (!oracle::same_result<F>(candidate(c), want, r)) {
            atomicAdd(&t->wrong[c], 1ull);
            const unsigned long long key = (unsigned long long)a << 16 | b;
            if (atomicMin(&t->first[c], key) > key) atomicExch(&t->first_result[c], r);  // a race between two lowest only blurs r
        }
    }
    if (F::is_nan_bits(r)) {
        const unsigned int seen = atomicCAS(&t->nan_first, 0xffffffffu, r);
        if (seen != 0xffffffffu && seen != r) atomicAdd(&t->nan_other, 1ull);
    }
}

template <class T, class T2, class F, int Op>
__global__ void truth_table(table* t, reduce_op op) {
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    for (std::uint64_t k = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; k < (1ull << 32); k += stride) {
        const auto a = static_cast<unsigned short>(k >> 16), b = static_cast<unsigned short>(k);
        unsigned short lo, hi;
        apply<T, T2, Op>(a, b, lo, hi);
        judge<F>(t, op, a, b, lo);
        if constexpr (Op == hmax2 || Op == hmin2) judge<F>(t, op, b, a, hi);
    }
}

template <class T, class T2, class F, int Op>
intrinsic_row run(const char* name, const char* format, reduce_op op) {
    table init{};
    for (int c = 0; c < candidate_count; ++c) init.first[c] = ~0ull;
    init.nan_first = 0xffffffffu;
    thrust::device_vector<table> d(1, init);
    truth_table<T, T2, F, Op><<<1024, 256>>>(thrust::raw_pointer_cast(d.data()), op);
    check(cudaGetLastError(), "truth_table");
    check(cudaDeviceSynchronize(), "truth_table");
    const table h = d[0];
    intrinsic_row row{name, format, {}, h.nan_first == 0xffffffffu ? std::string("none") : std::to_string(h.nan_first), h.nan_other};
    for (int c = 0; c < candidate_count; ++c)
        row.candidates.push_back({candidate_name(c), h.wrong[c], std::uint32_t(h.first[c] >> 16), std::uint32_t(h.first[c] & 0xffff), h.first_result[c]});
    return row;
}

}  // namespace

std::vector<intrinsic_row> intrinsic_truth_tables() {
    return {run<__half, __half2, binary16, hmax>("__hmax", "binary16", reduce_op::max),
            run<__half, __half2, binary16, hmax_nan>("__hmax_nan", "binary16", reduce_op::max),
            run<__half, __half2, binary16, hmin>("__hmin", "binary16", reduce_op::min),
            run<__half, __half2, binary16, hmin_nan>("__hmin_nan", "binary16", reduce_op::min),
            run<__half, __half2, binary16, hmax2>("__hmax2 (both lanes)", "binary16", reduce_op::max),
            run<__half, __half2, binary16, hmin2>("__hmin2 (both lanes)", "binary16", reduce_op::min),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmax>("__hmax", "bfloat16", reduce_op::max),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmax_nan>("__hmax_nan", "bfloat16", reduce_op::max),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmin>("__hmin", "bfloat16", reduce_op::min),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmin_nan>("__hmin_nan", "bfloat16", reduce_op::min),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmax2>("__hmax2 (both lanes)", "bfloat16", reduce_op::max),
            run<__nv_bfloat16, __nv_bfloat162, bfloat16, hmin2>("__hmin2 (both lanes)", "bfloat16", reduce_op::min)};
}

}  // namespace flipcheck::gpu
