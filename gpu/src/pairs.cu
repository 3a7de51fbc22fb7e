// The GPU pair check (gpu/pairs.hpp): one kernel per registered mapping of a pairable 16- or
// 32-bit format, reached by index like the sweep's launchers (src/sweep.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>

#include "flipcheck/gpu/detail/cuda_check.hpp"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/detail/device_probe.hpp"
#include "flipcheck/gpu/detail/registry_types.hpp"
#include "flipcheck/gpu/pairs.hpp"

namespace flipcheck::gpu {
namespace {

constexpr unsigned threads_per_block = 256;

// Pairs [0, rows << w) of the launch, flat: row = i >> w (a + row is the first operand), b = the
// low w bits. A warp's 32 consecutive pairs share a row (rows hold 2^16 or more), so one lane
// adds the warp's failures and offers its smallest failing b: a right mapping makes no atomic.
// The grid's thread count and the pair count are multiples of 32, so every lane of a warp takes
// the same trips through the loop and __ballot_sync sees them all.
template <class M>
__global__ void pairs_kernel(std::uint64_t a_first, std::uint64_t pairs, reduce_op op, unsigned long long* failing,
                             unsigned long long* first_b) {
    using F = typename M::format;
    using S = typename F::storage;
    constexpr unsigned w = F::width;
    constexpr std::uint64_t mask = (std::uint64_t(1) << w) - 1;
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs; i += stride) {
        const std::uint64_t row = i >> w;
        const S a = S(a_first + row), b = S(i & mask);
        const bool bad = !pair_law<M>::holds(a, b, pair_law<M>::combine(a, b, op), op);
        const unsigned ballot = __ballot_sync(0xffffffffu, bad);
        if (ballot && (threadIdx.x & 31) == unsigned(__ffs(ballot) - 1)) {
            atomicAdd(&failing[row], (unsigned long long)__popc(ballot));
            atomicMin(&first_b[row], (unsigned long long)b);
        }
    }
}

__global__ void fill(unsigned long long* p, std::size_t n, unsigned long long v) {
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) p[i] = v;
}

template <class M>
pairs_report run_pairs(const pairs_options& o) {
    using F = typename M::format;
    using S = typename F::storage;
    using clock = std::chrono::steady_clock;
    if (!detail::device_present()) throw device_error("no CUDA device is present to check pairs on");
    const auto t0 = clock::now();
    pairs_report r = pairs_report_for<M>(o, "gpu");
    const key_range rows = r.rows;
    const std::uint64_t rows_per_launch = std::max<std::uint64_t>(1, (std::uint64_t(1) << 32) >> F::width);
    device_buffer<unsigned long long> failing(rows_per_launch, uninitialized), first_b(rows_per_launch, uninitialized);
    std::vector<unsigned long long> h_failing(rows_per_launch), h_first(rows_per_launch);
    int device = 0, sms = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    const unsigned blocks = unsigned(sms) * 8;
    std::size_t kept = 0;
    auto last_progress = t0;
    for (std::uint64_t a = rows.begin; a < rows.end;) {
        if (o.stop && o.stop->load(std::memory_order_relaxed)) {
            r.interrupted = true;
            break;
        }
        const std::uint64_t n = std::min(rows_per_launch, rows.end - a);
        fill<<<64, threads_per_block>>>(failing.p, n, 0);
        fill<<<64, threads_per_block>>>(first_b.p, n, ~0ull);
        pairs_kernel<M><<<blocks, threads_per_block>>>(a, n << F::width, o.op, failing.p, first_b.p);
        check(cudaGetLastError(), "cudaGetLastError");
        check(cudaMemcpy(h_failing.data(), failing.p, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "cudaMemcpy");
        check(cudaMemcpy(h_first.data(), first_b.p, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "cudaMemcpy");
        bool cut = false;
        for (std::uint64_t k = 0; k < n; ++k) {
            ++r.rows_checked;
            if (!h_failing[k]) continue;
            r.failing_pairs += h_failing[k];
            const S ra = S(a + k), rb = S(h_first[k]);
            // The device's word is checked on the host: its b must fail there too.
            if (pair_law<M>::holds(ra, rb, pair_law<M>::combine(ra, rb, o.op), o.op))
                throw device_error("the GPU pair check named a pair the host finds right: " + std::to_string(a + k) + ", " +
                                   std::to_string(h_first[k]));
            if (r.counterexamples.size() < o.limit)
                r.counterexamples.push_back({a + k, h_first[k], pair_law<M>::expected(ra, rb, o.op), pair_law<M>::combine(ra, rb, o.op)});
            if (++kept == o.limit && !o.all) {
                cut = true;
                break;
            }
        }
        a += n;
        if (cut) break;
        if (o.progress && clock::now() - last_progress > std::chrono::milliseconds(500)) {
            last_progress = clock::now();
            o.progress({r.rows_checked, rows.size(), std::chrono::duration<double>(last_progress - t0).count()});
        }
    }
    r.stopped_early = !r.interrupted && r.rows_checked < rows.size();
    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return r;
}

template <class M>
constexpr detail::pairs_launcher launcher_for() {
    using F = typename M::format;
    if constexpr (pairable<F> && F::width >= 16) return &run_pairs<M>;
    else return nullptr;
}
template <class... I>
constexpr std::array<detail::pairs_launcher, sizeof...(I)> launchers_of(registry::list<I...>*) {
    return {launcher_for<canonical_t<typename I::type>>()...};
}
constexpr auto launchers = launchers_of(static_cast<registry::sweepable*>(nullptr));

}  // namespace

detail::pairs_launcher detail::pairs_launcher_of(std::size_t instance) {
    if (instance >= launchers.size()) throw std::out_of_range("gpu::detail::pairs_launcher_of: no such instance of registry::sweepable");
    return launchers[instance];
}

}  // namespace flipcheck::gpu
