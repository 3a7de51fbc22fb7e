#include "p3008_check.hpp"

#include "flipcheck/gpu/detail/device_buffer.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/gpu/p3008.cuh"
#include "flipcheck/oracle.hpp"
#include "flipcheck/reducer.hpp"

namespace flipcheck::gpu {
namespace {


constexpr std::uint64_t random_pairs = std::uint64_t(1) << 24;

// Pair number id: every pair for 16-bit formats; edges x edges, then random pairs (a quarter of
// the operands taken from the edges) for the wider ones. The host decodes ids the same way.
template <format F>
__host__ __device__ void pair_of(std::uint64_t id, const typename F::storage* edges, std::uint64_t e, typename F::storage& a,
                                 typename F::storage& b) {
    using S = typename F::storage;
    if constexpr (F::width == 16) {
        a = S(id >> 16), b = S(id);
    } else if (id < e * e) {
        a = edges[id / e], b = edges[id % e];
    } else {
        flipcheck::detail::splitmix64 rng{id};
        const std::uint64_t r1 = rng(), r2 = rng(), pick = rng();
        a = (pick & 3) == 0 ? edges[(pick >> 8) % e] : S(r1);
        b = (pick & 12) == 0 ? edges[(pick >> 16) % e] : S(r2);
    }
}

template <format F>
std::uint64_t pair_count(std::uint64_t e) {
    return F::width == 16 ? std::uint64_t(1) << 32 : e * e + random_pairs;
}

// Operation K, judged as operation `judged` (itself, except where a test proves the judge can fail).
template <format F, p3008::operation K>
__global__ void pairs_kernel(const typename F::storage* edges, std::uint64_t e, std::uint64_t count, p3008::operation judged,
                             unsigned long long* failures, unsigned long long* first) {
    using S = typename F::storage;
    const policy p = p3008::declared(judged);
    const reduce_op op = p3008::op_of(judged);
    __shared__ S slots[256];
    S* slot = &slots[threadIdx.x];
    unsigned long long wrong = 0;
    for (std::uint64_t id = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; id < count;
         id += std::uint64_t(gridDim.x) * blockDim.x) {
        S a, b;
        pair_of<F>(id, edges, e, a, b);
        *slot = a;
        cuda_word<S> w{slot};
        const S old = p3008::fetch<F, K>::apply(w, b);
        const S now = *slot;
        const S xs[2] = {a, b};
        bool ok = old == a;
        if (!(p.nan == nan_policy::undefined && (F::is_nan_bits(a) || F::is_nan_bits(b)))) {
            const std::size_t i = oracle::arg_reduce<F>(p, op, xs, 2);
            ok = ok && oracle::same_result<F>(p, i == oracle::npos ? a : xs[i], now);
        }
        if (!ok) {
            ++wrong;
            atomicMin(first, (unsigned long long)id);
        }
    }
    if (wrong) atomicAdd(failures, wrong);
}

template <format F, p3008::operation K>
p3008_pair_result run(const std::vector<typename F::storage>& edges, p3008::operation judged, std::uint64_t limit) {
    using S = typename F::storage;
    const device_buffer<S> d_edges(edges);
    const device_buffer<unsigned long long> d_out(std::vector<unsigned long long>{0, ~0ull});  // failures, first failing id
    std::uint64_t count = pair_count<F>(edges.size());
    if (limit > 0 && limit < count) count = limit;
    pairs_kernel<F, K><<<4096, 256>>>(d_edges.p, edges.size(), count, judged, d_out.p, d_out.p + 1);
    check(cudaGetLastError(), "launch");
    const std::vector<unsigned long long> out = d_out.download();
    p3008_pair_result r{count, out[0], 0, 0};
    if (out[0]) {
        S a, b;
        pair_of<F>(out[1], edges.data(), edges.size(), a, b);
        r.old = a, r.operand = b;
    }
    return r;
}

}  // namespace

template <format F>
p3008_pair_result p3008_pairs(p3008::operation k, p3008::operation judged_as, std::uint64_t limit) {
    const auto edges = edge_values<F>();
    switch (k) {
        case p3008::operation::max: return run<F, p3008::operation::max>(edges, judged_as, limit);
        case p3008::operation::min: return run<F, p3008::operation::min>(edges, judged_as, limit);
        case p3008::operation::fmaximum: return run<F, p3008::operation::fmaximum>(edges, judged_as, limit);
        case p3008::operation::fminimum: return run<F, p3008::operation::fminimum>(edges, judged_as, limit);
        case p3008::operation::fmaximum_num: return run<F, p3008::operation::fmaximum_num>(edges, judged_as, limit);
        case p3008::operation::fminimum_num: break;
    }
    return run<F, p3008::operation::fminimum_num>(edges, judged_as, limit);
}

// The typed wrappers users call (float, double, __half, __nv_bfloat16): a few known answers each.
template <class T>
__device__ bool typed_ok(T* x) {
    const T one = T(1.0f), two = T(2.0f), nan = T(__int_as_float(0x7fc00000)), neg_zero = T(-0.0f);
    *x = one;
    bool ok = float(fetch_fmaximum(x, two)) == 1.0f && float(*x) == 2.0f;
    ok = ok && float(fetch_fmaximum_num(x, nan)) == 2.0f && float(*x) == 2.0f;
    ok = ok && float(fetch_min(x, neg_zero)) == 2.0f && float(*x) == 0.0f && signbit(float(*x));
    ok = ok && float(fetch_max(x, T(0.0f))) == 0.0f && !signbit(float(*x));
    ok = ok && float(fetch_fminimum(x, nan)) == 0.0f && isnan(float(*x));
    return ok && isnan(float(fetch_fminimum_num(x, one))) && float(*x) == 1.0f;
}
__global__ void typed_kernel(int* ok) {
    __shared__ float f;
    __shared__ double d;
    __shared__ __half h;
    __shared__ __nv_bfloat16 bf;
    if (threadIdx.x == 0) *ok = typed_ok(&f) && typed_ok(&d) && typed_ok(&h) && typed_ok(&bf);
}

template p3008_pair_result p3008_pairs<binary16>(p3008::operation, p3008::operation, std::uint64_t);
template p3008_pair_result p3008_pairs<bfloat16>(p3008::operation, p3008::operation, std::uint64_t);
template p3008_pair_result p3008_pairs<binary32>(p3008::operation, p3008::operation, std::uint64_t);
template p3008_pair_result p3008_pairs<binary64>(p3008::operation, p3008::operation, std::uint64_t);

bool p3008_typed_wrappers_work() {
    const device_buffer<int> d(1);
    typed_kernel<<<1, 32>>>(d.p);
    check(cudaGetLastError(), "launch");
    const int ok = d.download()[0];
    return ok != 0;
}

}  // namespace flipcheck::gpu
