// A scaled quantizer over every binary32 input under every scale of check/scaled_quantizers.hpp's
// list (every e8m0 value and its NaN, then the per-tensor scales: 273 x 2^32 pairs) on the GPU:
// check/quantizers.hpp's walk, the code the CPU runs, one chunk of magnitudes a thread, one launch
// a scale, simplest scale first; the first scale with a failure gives the report, its chunk walked
// again by one thread for the whole finding, in the CPU's words (quantize_walk.cuh's scheme).
//
// Header-only: a user's CUDA source includes it and calls
//     flipcheck::gpu::check_scaled_quantizer_every<MyScaledQuantizer>()
// for a quantize_scaled that is __host__ __device__ (or __device__). Needs --expt-relaxed-constexpr,
// and no -ftz: the oracle's binary32 intermediate is IEEE's product, subnormals kept.
#pragma once
#include "flipcheck/check/scaled_quantizers.hpp"
#include "flipcheck/gpu/detail/oracle_environment.cuh"
#include "flipcheck/gpu/quantize_walk.cuh"

namespace flipcheck::gpu {

namespace scaled_kernels {

template <class X>
struct device_quantize_scaled {
    float s;
    __device__ code_t<typename X::element> operator()(typename X::format::storage x) const { return X::quantize_scaled(x, s); }
};

template <class X>
__device__ void walk_chunk(quantize_check::findings<std::uint32_t, code_t<typename X::element>>& f,
                           quantize_check::step_view<code_t<typename X::element>> steps, const float* value, float s,
                           std::uint64_t count, std::uint64_t chunk, std::uint64_t c) {
    using F = binary32;
    using E = typename X::element;
    const std::uint64_t a = c * chunk, e = std::min(a + chunk, count);
    const bool warm = a != 0;
    const std::uint64_t from = warm ? a - 1 : a;
    using want_t = scaled_check::stepped_scaled_want<F, code_t<E>>;
    const double start = want_t::magnitude(oracle::scaled_value(X::declared, bit_cast<float>(std::uint32_t(from)), s));
    want_t want{steps, X::declared, s, start == start ? steps.find_value(start) : 0};
    quantize_check::walk<F, E>(f, value, device_quantize_scaled<X>{s}, want, from, e - 1, nullptr, 0, warm,
                               [s](float x) { return oracle::scaled_exactly(X::declared.op, x, s); });
}

template <class X>
struct chunk_walk {
    quantize_check::step_view<code_t<typename X::element>> steps;
    const float* value;
    float s;
    std::uint64_t count, chunk;
    __device__ void operator()(quantize_check::findings<std::uint32_t, code_t<typename X::element>>& f, std::uint64_t c) const {
        walk_chunk<X>(f, steps, value, s, count, chunk, c);
    }
};

}  // namespace scaled_kernels

// Scaled quantizer X (binary32 input) on every binary32 pattern under the first `scales` scales of
// scaled_check::scales<E>() (all of them by default; 256: the e8m0 ones, MX's whole space); the
// report is check_scaled_quantizer_of's. Fewer `magnitudes` (compute-sanitizer's runs): the
// smallest that many, both signs, sampled. Throws device_error when CUDA fails.
template <scaled_quantizer_subject X>
scaling_report check_scaled_quantizer_every(std::size_t scales = ~std::size_t(0), std::uint64_t magnitudes = std::uint64_t(1) << 31,
                                            walk_timing* timing = nullptr) {
    detail::require_ieee_device_oracle();  // this unit's flags, not flushed (detail/oracle_environment.cuh)
    using F = typename X::format;
    using E = typename X::element;
    using C = code_t<E>;
    static_assert(F::width == 32, "a 16-bit input is exhaustive under every e8m0 scale on the CPU (scaling_options::every_binary32)");
    namespace qc = quantize_check;
    constexpr scaled_policy p = X::declared;
    const auto t0 = std::chrono::steady_clock::now();
    scaling_report r = scaled_check::report_of<F, E>(p);
    if (qc::say_cannot_declare<E>(r, p.quantize)) return r;
    const std::vector<float> all = scaled_check::scales<E>();
    const std::size_t n = std::min(scales, all.size());
    const bool every = magnitudes == std::uint64_t(1) << 31;
    r.exhaustive = every && n >= scaled_check::e8m0_scales;
    r.domain = (every ? std::string("every binary32 pattern") : "the smallest " + std::to_string(magnitudes) + " binary32 magnitudes") +
               " under " + std::to_string(n) + " scales (" +
               (r.exhaustive ? "every e8m0 value: exhaustive for MX scaling" : std::string("sampled")) +
               (n > scaled_check::e8m0_scales ? ", and " + std::to_string(n - scaled_check::e8m0_scales) + " per-tensor" : std::string()) +
               "), GPU";
    const qc::oracle_steps<E> host_steps(p.quantize);
    const device_buffer<std::uint32_t> points(host_steps.points);
    const device_buffer<C> at0(host_steps.at[0]), at1(host_steps.at[1]), above0(host_steps.above[0]), above1(host_steps.above[1]);
    const device_buffer<float> value(qc::element_values<E>());
    const qc::step_view<C> steps{points.get(), {at0.get(), at1.get()}, {above0.get(), above1.get()}, host_steps.points.size()};
    device_buffer<unsigned long long> words(5);  // checks, then the smallest rank of each law
    constexpr std::uint64_t chunk = 2048;
    float kernel_ms = 0;
    qc::findings<std::uint32_t, C> f;
    std::uint64_t checks = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float s = all[i];
        check(cudaMemset(words.get(), 0, sizeof(unsigned long long)), "cudaMemset");
        check(cudaMemset(words.get() + 1, 0xff, 4 * sizeof(unsigned long long)), "cudaMemset");
        const scaled_kernels::chunk_walk<X> walk{steps, value.get(), s, magnitudes, chunk};
        kernel_ms += timed_launch("scaled quantize walk_all", [&] {
            quantize_kernels::walk_all<std::uint32_t, C><<<2048, 256>>>(walk, (magnitudes + chunk - 1) / chunk, words.get(), words.get() + 1);
        });
        const std::vector<unsigned long long> w = words.download();
        checks += w[0];
        bool failed = false;
        device_buffer<qc::findings<std::uint32_t, C>> one(1);
        for (int l = 0; l < 4; ++l) {
            if (w[std::size_t(1 + l)] == ~0ull) continue;
            failed = true;
            quantize_kernels::walk_one<std::uint32_t, C><<<1, 1>>>(walk, (w[std::size_t(1 + l)] / 2) / chunk, one.get());
            check(cudaGetLastError(), "scaled quantize walk_one");
            check(cudaStreamSynchronize(0), "scaled quantize walk_one");
            f.note(l, one.download()[0].first[l]);
        }
        if (failed) {
            r.checks = checks;
            scaled_check::conclude<F, E>(r, f, p.op, s);
            break;
        }
    }
    r.checks = checks;
    if (timing) timing->kernel_ms = kernel_ms, timing->wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace flipcheck::gpu
