// The scaling path's GPU checks (flipcheck/gpu/amax.hpp): launches of gpu/amax.cuh's kernels on
// the inputs of check/scaling.hpp, judged there. A judge that shrinks a failing input asks for
// the answer on an array the batch did not hold; it is then run on the GPU alone, so every answer
// judged is the GPU's.
#include "flipcheck/gpu/amax.hpp"

#include <algorithm>

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/gpu/amax.cuh"
#include "flipcheck/gpu/detail/device_buffer.hpp"
#include "flipcheck/gpu/detail/registry_types.hpp"
#include "flipcheck/catalog/registry.hpp"

namespace flipcheck::gpu {
namespace {

namespace k = amax_kernels;
using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0) { return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count(); }

// A batch on the device: the arrays back to back (so each starts at whatever alignment its
// offset gives) and their offsets.
template <class S>
struct batch {
    device_buffer<S> data;
    device_buffer<std::uint64_t> offsets;
    std::vector<std::uint64_t> host_offsets;
    explicit batch(const std::vector<std::vector<S>>& arrays) : data(flatten(arrays)), offsets(offsets_of(arrays)), host_offsets(offsets_of(arrays)) {}
    static std::vector<S> flatten(const std::vector<std::vector<S>>& arrays) {
        std::vector<S> all;
        for (const auto& a : arrays) all.insert(all.end(), a.begin(), a.end());
        return all;
    }
    static std::vector<std::uint64_t> offsets_of(const std::vector<std::vector<S>>& arrays) {
        std::vector<std::uint64_t> o{0};
        for (const auto& a : arrays) o.push_back(o.back() + a.size());
        return o;
    }
};

enum class form { warp, block, grid };
constexpr const char* form_names[] = {"amax_warp", "amax_block", "amax_grid"};

template <class F, nan_policy P>
std::vector<std::uint32_t> run_amax(form f, const std::vector<std::vector<typename F::storage>>& arrays) {
    using S = typename F::storage;
    batch<S> b(arrays);
    device_buffer<std::uint32_t> out(arrays.size());
    const unsigned n = unsigned(arrays.size());
    switch (f) {
        case form::warp: k::amax_warp<F, P><<<(n + 3) / 4, 128>>>(b.data.get(), b.offsets.get(), n, out.get()); break;
        case form::block: k::amax_block<F, P><<<n, 64>>>(b.data.get(), b.offsets.get(), out.get()); break;
        case form::grid:
            // Three blocks of 64 threads per array, so that even a short array crosses blocks and
            // the grid's atomic decides; long arrays go through the unrolled vector loop. Up to
            // 65535 arrays a launch (gridDim.y), each its own grid of amax_grid's code.
            for (unsigned first = 0; first < n; first += 65535u)
                k::amax_grid_each<F, P><<<dim3(3, std::min(n - first, 65535u)), 64>>>(b.data.get(), b.offsets.get(), first, out.get());
            break;
    }
    check(cudaGetLastError(), form_names[int(f)]);
    check(cudaStreamSynchronize(0), form_names[int(f)]);
    return out.download();
}

// The answers of a batch, looked up by array; an array the batch did not hold (a shrink step)
// is run on the GPU alone.
template <class S, class Result>
struct answers {
    const std::vector<std::vector<S>>& arrays;
    std::vector<Result> results;
    std::function<Result(const std::vector<S>&)> run_one;
    std::map<const S*, std::size_t> index;
    answers(const std::vector<std::vector<S>>& a, std::vector<Result> r, std::function<Result(const std::vector<S>&)> one)
        : arrays(a), results(std::move(r)), run_one(std::move(one)) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!a[i].empty()) index[a[i].data()] = i;
    }
    Result operator()(std::span<const S> xs) const {
        if (xs.empty()) {
            for (std::size_t i = 0; i < arrays.size(); ++i)
                if (arrays[i].empty()) return results[i];
        } else if (auto it = index.find(xs.data()); it != index.end() && arrays[it->second].size() == xs.size()) {
            return results[it->second];
        }
        return run_one(std::vector<S>(xs.begin(), xs.end()));
    }
};

template <class F, nan_policy P>
scaling_row amax_row(form f, const scaling_options& o) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    auto cases = amax_cases<F>(o);
    std::string extra;
    if (f == form::grid) {
        // Long arrays with the answer planted at a random place, one with a NaN: the vector loop.
        ::flipcheck::detail::splitmix64 rng{o.seed + 7};
        for (int i = 0; i < 6; ++i) {
            std::vector<S> xs((std::size_t(1) << 20) + std::size_t(rng.below(16)));
            for (S& x : xs) x = S((rng() & F::mantissa_mask) | F::one);  // in [1, 2)
            xs[rng.below(xs.size())] = i == 5 ? S(F::quiet_nan | F::sign_mask) : S(F::max_finite | F::sign_mask);
            cases.push_back(std::move(xs));
        }
        extra = " + 6 arrays of 2^20+ elements";
    }
    scaling_row row;
    row.report = {form_names[int(f)], "amax", std::string(F::name) + " nan=" + std::string(to_string(P)),
                  "edge battery (every value, every ordered pair, triples of 10) + " + std::to_string(o.randoms) +
                      " random arrays" + extra + " (sampled)",
                  false, 0, {}};
    const answers<S, std::uint32_t> got(cases, run_amax<F, P>(f, cases),
                                        [f](const std::vector<S>& xs) { return run_amax<F, P>(f, {xs})[0]; });
    judge_amax<F>(row.report, P, cases, got);
    row.ms = ms_since(t0);
    return row;
}

// The fused kernel on blocks laid end to end; then once more with the last block cut to 7
// elements, whose scale must be that of its 7.
template <class F, class E>
std::vector<std::uint8_t> run_mx(const std::vector<typename F::storage>& data, std::uint32_t* tensor_amax = nullptr) {
    device_buffer<typename F::storage> x(data);
    device_buffer<std::uint8_t> scales((data.size() + mx_block - 1) / mx_block);
    device_buffer<std::uint32_t> amax(1);
    k::mx_scales<F, E, nan_policy::propagate><<<8, 256>>>(x.get(), data.size(), scales.get(), amax.get());
    check(cudaGetLastError(), "mx_scales");
    check(cudaStreamSynchronize(0), "mx_scales");
    if (tensor_amax) *tensor_amax = amax.download()[0];
    return scales.download();
}

template <class F, class E>
scaling_row mx_row(const scaling_options& o) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    const auto blocks = block_cases<F>(o);
    std::vector<S> all;
    for (const auto& b : blocks) all.insert(all.end(), b.begin(), b.end());
    std::uint32_t tensor = 0;
    const auto scales = run_mx<F, E>(all, &tensor);
    scaling_row row;
    row.report = {"mx_scales_fused", "block scale",
                  std::string(F::name) + " -> e8m0 for " + std::string(E::name) + ", nan=propagate",
                  block_cases_words(o) + ", laid end to end; a last block of 7", false, 0, {}};
    const answers<S, std::uint8_t> got(blocks, scales, [](const std::vector<S>& b) { return run_mx<F, E>(b)[0]; });
    if (judge_block_scale<F, E>(row.report, nan_policy::propagate, blocks, got)) {
        ++row.report.checks;
        const S want = oracle::amax<F>(nan_policy::propagate, std::span<const S>(all));
        if (!oracle::same_amax<F>(nan_policy::propagate, S(tensor), want))
            row.report.counterexample = "the fused kernel's tensor amax is " + show<F>(S(tensor)) + "; the oracle's: " + show<F>(want);
    }
    if (row.report.passed()) {
        ++row.report.checks;
        const std::vector<S> cut(all.end() - (2 * mx_block + 7), all.end() - mx_block);  // a block and 7 elements
        const auto s = run_mx<F, E>(cut);
        const std::span<const S> last(cut.data() + mx_block, 7);
        if (s.size() != 2 || s[1] != oracle_block_scale<F, E>(nan_policy::propagate, last))
            row.report.counterexample = "a last block of 7 " + std::string(F::name) + " " + show<F>(last) + " gets e8m0 " +
                                        (s.size() == 2 ? show_e8m0(s[1]) : "nothing") + "; the oracle's: " +
                                        show_e8m0(oracle_block_scale<F, E>(nan_policy::propagate, last));
    }
    row.ms = ms_since(t0);
    return row;
}

// The fused NVFP4 kernel's blocks: every bfloat16 magnitude (+0 to +inf) and a NaN as a block's
// amax, at a position and with a sign that turn with the block, beside half its magnitude's code
// (a smaller value) elsewhere; then random blocks. Laid end to end, each block 16 elements.
template <class F>
std::vector<typename F::storage> nvfp4_blocks(const scaling_options& o) {
    using S = typename F::storage;
    auto of_bf16 = [](std::uint32_t h) { return F::width == 32 ? S(h << 16) : S(h); };
    std::vector<S> out;
    std::uint32_t b = 0;
    for (std::uint32_t h = 0; h <= 0x7fc0u; ++h, ++b) {
        if (h > 0x7f80u && h != 0x7fc0u) continue;  // one NaN
        const S sign = (b >> 4) & 1 ? S(F::sign_mask) : S(0);
        for (int i = 0; i < nvfp4_block; ++i) out.push_back(i == int(b % nvfp4_block) ? S(of_bf16(h) | sign) : S(of_bf16(h / 2) | (i & 1 ? F::sign_mask : 0)));
    }
    ::flipcheck::detail::splitmix64 rng{o.seed + 11};
    for (std::size_t i = 0; i < o.randoms * nvfp4_block; ++i) out.push_back(random_bits<F>(rng));
    return out;
}

// The fused NVFP4 kernel (or its GPU mutant) on those blocks under each tensor amax of the CPU
// check, then on a block and 7 elements; every scale judged against scale.hpp's oracle
// (block amax by oracle::amax, global scale by oracle::tensor_scale, e4m3fn by search), and the
// tensor amax it returns against oracle::amax.
template <class F, class Scale>
scaling_row nvfp4_row(const char* name, bool mutant, const scaling_options& o) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    // The global scale's cases: 0 and +inf (scale 1), a subnormal amax (a scale past FLT_MAX,
    // clamped), 1 (scale 2688), 448, and near FLT_MAX (a subnormal scale). The block scale's own
    // function runs under 12 tensor amaxes and every bfloat16 block amax on the CPU
    // (check_nvfp4_scale); this row is for the kernel around it: each launch is one tensor amax.
    const float tensor_amaxes[] = {0.0f, 1e-40f, 1.0f, 448.0f, 3.4e38f, std::numeric_limits<float>::infinity()};
    scaling_row row;
    row.mutant = mutant;
    row.report = {name, "nvfp4 scale", std::string(F::name) + " blocks of 16 -> e4m3fn under 448*6/tensor amax, nan=propagate",
                  "every bfloat16 magnitude and a NaN as a block amax + " + std::to_string(o.randoms) +
                      " random blocks, x 6 tensor amaxes, and a last block of 7 (sampled)",
                  false, 0, {}};
    auto run = [](const std::vector<S>& data, S tensor, std::uint32_t* amax_out) {
        device_buffer<S> x(data);
        device_buffer<std::uint32_t> key(std::vector<std::uint32_t>{std::uint32_t(tensor)}), amax(1);
        device_buffer<std::uint8_t> scales((data.size() + nvfp4_block - 1) / nvfp4_block);
        check(cudaMemset(amax.get(), 0, 4), "cudaMemset");
        k::nvfp4_scales<F, nan_policy::propagate, Scale><<<8, 256>>>(x.get(), data.size(), key.get(), scales.get(), amax.get());
        check(cudaGetLastError(), "nvfp4_scales");
        check(cudaStreamSynchronize(0), "nvfp4_scales");
        if (amax_out) *amax_out = amax.download()[0];
        return scales.download();
    };
    // Each tensor amax's launch, then its judging on a host thread of its own: asking the oracle
    // (e4m3fn by search) for 33 K blocks each is most of the row's time.
    // The oracle's block amaxes of a batch, asked once for every tensor amax.
    auto block_amaxes = [](const std::vector<S>& data) {
        std::vector<float> out;
        for (std::size_t b = 0; b * nvfp4_block < data.size(); ++b)
            out.push_back(float(F::to_value(oracle::amax<F>(
                nan_policy::propagate, std::span<const S>(data.data() + b * nvfp4_block, std::min<std::size_t>(nvfp4_block, data.size() - b * nvfp4_block))))));
        return out;
    };
    auto judge = [](const std::vector<S>& data, const std::vector<float>& amaxes, float t, const std::vector<std::uint8_t>& got,
                    std::uint32_t amax, std::uint64_t& checks) -> std::optional<std::string> {
        const S tensor = F::width == 32 ? S(bit_cast<std::uint32_t>(t)) : S(bit_cast<std::uint32_t>(t) >> 16);
        const float g = oracle::tensor_scale(nvfp4_max, float(F::to_value(tensor)));
        for (std::size_t b = 0; b < got.size(); ++b) {
            ++checks;
            const std::span<const S> block(data.data() + b * nvfp4_block, std::min<std::size_t>(nvfp4_block, data.size() - b * nvfp4_block));
            const float a = amaxes[b];
            const std::uint8_t want = oracle::nvfp4_block_scale(a, g);
            if (got[b] != want)
                return "block " + std::to_string(b) + " " + show<F>(block) + " (amax " + show_float(a) + ") under tensor amax " +
                       show<F>(tensor) + " gets e4m3fn " + show<float8_e4m3fn>(got[b]) + "; the oracle's: " + show<float8_e4m3fn>(want);
        }
        ++checks;
        const S want = oracle::amax<F>(nan_policy::propagate, std::span<const S>(data));
        if (!oracle::same_amax<F>(nan_policy::propagate, S(amax), want))
            return "the fused NVFP4 kernel's tensor amax is " + show<F>(S(amax)) + "; the oracle's: " + show<F>(want);
        return std::nullopt;
    };
    const std::vector<S> data = nvfp4_blocks<F>(o);
    const std::vector<S> cut(data.end() - (2 * nvfp4_block + 7), data.end() - nvfp4_block);  // a block and 7 elements
    const std::vector<float> data_amaxes = block_amaxes(data), cut_amaxes = block_amaxes(cut);
    constexpr std::size_t cases = std::size(tensor_amaxes) + 1;  // the last: the cut under tensor amax 1
    std::vector<std::uint8_t> got[cases];
    std::uint32_t amax[cases];
    std::uint64_t checks[cases] = {};
    std::future<std::optional<std::string>> verdicts[cases];
    for (std::size_t c = 0; c < cases; ++c) {
        const bool last = c + 1 == cases;
        const float t = last ? 1.0f : tensor_amaxes[c];
        const S tensor = F::width == 32 ? S(bit_cast<std::uint32_t>(t)) : S(bit_cast<std::uint32_t>(t) >> 16);
        got[c] = run(last ? cut : data, tensor, &amax[c]);
        verdicts[c] = std::async(std::launch::async, [&, c, t, last] { return judge(last ? cut : data, last ? cut_amaxes : data_amaxes, t, got[c], amax[c], checks[c]); });
    }
    for (std::size_t c = 0; c < cases; ++c) {
        const auto v = verdicts[c].get();
        if (!row.report.passed()) continue;
        row.report.checks += checks[c];
        if (v) row.report.counterexample = *v;
    }
    row.ms = ms_since(t0);
    return row;
}

struct tally {
    device_buffer<unsigned long long> words{3};  // checked, wrong, first
    tally() { check(cudaMemset(words.get() + 2, 0xff, sizeof(unsigned long long)), "cudaMemset"); }
};
constexpr std::uint64_t all_32 = std::uint64_t(1) << 32;

// Every pair of 16-bit patterns through the production step, or through the bf16x2 mutant.
template <class F, nan_policy P, bool Mutant>
scaling_row pair_row(std::uint64_t count) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    tally t;
    k::every_pair<F, P, Mutant><<<1024, 256>>>(0, count, t.words.get() + 1, t.words.get() + 2);
    check(cudaGetLastError(), "every_pair");
    check(cudaStreamSynchronize(0), "every_pair");
    const auto w = t.words.download();
    scaling_row row;
    row.mutant = Mutant;
    row.ms = ms_since(t0);
    row.report = {Mutant ? "bf16x2_hmax2_pair" : "amax_step_pairs", "amax", std::string(F::name) + " nan=" + std::string(to_string(P)),
                  count == all_32 ? "every pair of 16-bit patterns: 2^32 (exhaustive)" : "the first " + std::to_string(count) + " pairs (sampled)",
                  count == all_32, count, {}};
    if (w[1]) {
        const std::uint32_t pair = std::uint32_t(w[2]);
        const S xs[2] = {S(pair & 0xffffu), S(pair >> 16)};
        device_buffer<std::uint32_t> answer(1);
        k::one_pair<F, P, Mutant><<<1, 1>>>(pair, answer.get());
        check(cudaGetLastError(), "one_pair");
        const S got = S(answer.download()[0]);
        row.report.counterexample = "wrong on " + std::to_string(w[1]) + " of " + std::to_string(count) + " pairs; the first: amax of " +
                                    show<F>(std::span<const S>(xs)) + " is " + show<F>(got) + "; the oracle's: " +
                                    show<F>(oracle::amax<F>(P, std::span<const S>(xs)));
    }
    return row;
}

// Every binary32 amax pattern through a scale function (checked against the oracle on the GPU).
// A sample (count below 2^32, under compute-sanitizer) straddles `around`: by default +inf and the
// NaNs, where the formulas' edges are.
template <class E, class Subject, bool Tensor>
scaling_row every_amax_row(const char* name, bool mutant, std::uint64_t count, std::uint64_t around = 0x7f800000u) {
    const auto t0 = clock_type::now();
    tally t;
    const std::uint64_t begin = count == all_32 ? 0 : around - count / 2;
    k::every_amax<E, Subject, Tensor><<<1024, 256>>>(begin, count, t.words.get(), t.words.get() + 1, t.words.get() + 2);
    check(cudaGetLastError(), "every_amax");
    check(cudaStreamSynchronize(0), "every_amax");
    const auto w = t.words.download();
    scaling_row row;
    row.mutant = mutant;
    row.ms = ms_since(t0);
    constexpr scale_recipe recipe = declared_recipe<Subject>();
    const bool named = !Tensor && recipe.name != ocp_floor.name;  // OCP's goes unnamed, as on the CPU
    row.report = {name, Tensor ? "tensor scale" : "mx scale",
                  std::string("element ") + std::string(E::name) + (named ? ", recipe " + std::string(recipe.name) : ""),
                  count == all_32 ? "every binary32 amax pattern: +-0, every positive, every NaN (exhaustive)"
                                  : std::to_string(count) + " binary32 patterns around " + hex(around, 32) + " (sampled)",
                  count == all_32, w[0], {}};
    if (w[1]) {
        const float a = bit_cast<float>(std::uint32_t(w[2]));
        std::string got, want;
        if constexpr (Tensor) got = show_float(Subject::tensor_scale(a)), want = show_float(oracle::tensor_scale<E>(a));
        else
            got = show_e8m0(Subject::scale(bit_cast<std::uint32_t>(a))),
            want = show_e8m0(oracle::recipe_scale(recipe, E::to_value(E::max_finite), a)) + " (recipe " + std::string(recipe.name) + ")";
        row.report.counterexample = "wrong on " + std::to_string(w[1]) + " amaxes; the first: amax " + show_float(a) + " gives " + got +
                                    "; the oracle's: " + want;
    }
    return row;
}

// flipcheck's RCEIL scale declaring OCP's floor: right code, wrong recipe.
struct rceil_judged_as_ocp : mx_scale_rceil<float8_e4m3fn> {
    static constexpr scale_recipe recipe = ocp_floor;
};

// A GPU mutant kernel over a batch, one block per array.
enum class mutant_kernel { ge0_split, unguarded_unsigned, fmaxf_block, bf16x2_hmax2 };
template <class F>
std::vector<std::uint32_t> run_mutant(mutant_kernel m, const std::vector<std::vector<typename F::storage>>& arrays) {
    using S = typename F::storage;
    batch<S> b(arrays);
    const unsigned n = unsigned(arrays.size());
    device_buffer<std::uint32_t> out(n);
    if constexpr (std::is_same_v<F, binary32>) {
        if (m == mutant_kernel::ge0_split) {
            std::vector<std::uint32_t> init(2 * n);
            for (unsigned a = 0; a < n; ++a) init[2 * a] = 0xff800000u, init[2 * a + 1] = 0x7f800000u;
            device_buffer<std::uint32_t> words(init);
            k::ge0_split<><<<n, 64>>>(b.data.get(), b.offsets.get(), words.get());
            k::ge0_split_finish<><<<(n + 127) / 128, 128>>>(words.get(), n, b.offsets.get(), out.get());
        }
        if (m == mutant_kernel::unguarded_unsigned) k::unguarded_unsigned<><<<n, 64>>>(b.data.get(), b.offsets.get(), out.get());
        if (m == mutant_kernel::fmaxf_block) k::fmaxf_block<><<<n, 64>>>(b.data.get(), b.offsets.get(), out.get());
    } else {
        k::bf16x2_hmax2<><<<n, 64>>>(b.data.get(), b.offsets.get(), out.get());
    }
    check(cudaGetLastError(), "a mutant kernel");
    check(cudaStreamSynchronize(0), "a mutant kernel");
    return out.download();
}
template <class F>
scaling_row mutant_row(mutant_kernel m, const char* name, const scaling_options& o) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    const auto cases = amax_cases<F>(o);
    scaling_row row;
    row.mutant = true;
    row.report = {name, "amax", std::string(F::name) + " nan=propagate", "edge battery + random arrays (sampled)", false, 0, {}};
    const answers<S, std::uint32_t> got(cases, run_mutant<F>(m, cases), [m](const std::vector<S>& xs) { return run_mutant<F>(m, {xs})[0]; });
    judge_amax<F>(row.report, nan_policy::propagate, cases, got);
    row.ms = ms_since(t0);
    return row;
}

template <class F>
void amax_rows(std::vector<scaling_row>& out, const scaling_options& o) {
    for (form f : {form::warp, form::block, form::grid}) {
        out.push_back(amax_row<F, nan_policy::propagate>(f, o));
        out.push_back(amax_row<F, nan_policy::ignore>(f, o));
    }
}

// The scale kernels' rows and the 2^32 ones, in the order they are reported.
std::vector<scaling_row> other_rows(const scaling_options& o) {
    std::vector<scaling_row> out;
    // The NVFP4 rows are mostly host work (the oracle's answers): beside the others from the start.
    auto nvfp4_f32 = std::async(std::launch::async, [&o] { return nvfp4_row<binary32, nvfp4_block_scale>("nvfp4_scales_fused", false, o); });
    auto nvfp4_bf16 = std::async(std::launch::async, [&o] { return nvfp4_row<bfloat16, nvfp4_block_scale>("nvfp4_scales_fused", false, o); });
    registry::for_each<registry::mx_elements>([&]<class Entry>() {
        using E = canonical_t<typename Entry::type>;
        out.push_back(mx_row<binary32, E>(o));
        out.push_back(mx_row<bfloat16, E>(o));
        out.push_back(mx_row<binary16, E>(o));
    });
    out.push_back(nvfp4_f32.get());
    out.push_back(nvfp4_bf16.get());
    out.push_back(pair_row<binary16, nan_policy::propagate, false>(o.gpu_patterns));
    out.push_back(pair_row<binary16, nan_policy::ignore, false>(o.gpu_patterns));
    out.push_back(pair_row<bfloat16, nan_policy::propagate, false>(o.gpu_patterns));
    out.push_back(pair_row<bfloat16, nan_policy::ignore, false>(o.gpu_patterns));
    registry::for_each<registry::mx_elements>([&]<class Entry>() {
        using E = canonical_t<typename Entry::type>;
        out.push_back(every_amax_row<E, mx_scale_from_bits<E>, false>("mx_scale", false, o.gpu_patterns));
        if (o.gpu_ceil_recipes) out.push_back(every_amax_row<E, mx_scale_rceil<E>, false>("mx_scale_rceil", false, o.gpu_patterns));
    });
    if (o.gpu_ceil_recipes)
        out.push_back(every_amax_row<float8_e4m3fn, mx_scale_rceil_eps<float8_e4m3fn>, false>("mx_scale_rceil_eps", false, o.gpu_patterns));
    registry::for_each<registry::fp8_formats>([&]<class Entry>() {
        using E = canonical_t<typename Entry::type>;
        out.push_back(every_amax_row<E, fp8_tensor_scale<E>, true>("fp8_tensor_scale", false, o.gpu_patterns));
    });
    return out;
}

}  // namespace

std::vector<scaling_row> verify_scaling(bool mutants, const scaling_options& o) {
    std::vector<scaling_row> out;
    if (mutants) {
        out.push_back(mutant_row<binary32>(mutant_kernel::ge0_split, "ge0_split_amax (GPU)", o));
        out.push_back(mutant_row<binary32>(mutant_kernel::unguarded_unsigned, "unguarded_unsigned_amax (GPU)", o));
        out.push_back(mutant_row<binary32>(mutant_kernel::fmaxf_block, "fmaxf_block_amax (GPU)", o));
        out.push_back(mutant_row<bfloat16>(mutant_kernel::bf16x2_hmax2, "bf16x2_hmax_amax (GPU, __hmax2)", o));
        out.push_back(pair_row<bfloat16, nan_policy::propagate, true>(o.gpu_patterns));
        out.push_back(nvfp4_row<bfloat16, mutants::nvfp4_scale_truncated<>>("nvfp4_scale_truncated (GPU)", true, o));
        // From the NaNs up: the first patterns of the domain hold no NaN.
        out.push_back(every_amax_row<float8_e4m3fn, mutants::e8m0_from_exponent_field<float8_e4m3fn>, false>(
            "e8m0_from_exponent_field (GPU)", true, o.gpu_patterns));
        // A right RCEIL scale judged under OCP's floor: it must fail, first at the smallest amax
        // where the recipes part (0x04600002, whose quotient by 448 rounds above 2^-127).
        out.push_back(every_amax_row<float8_e4m3fn, rceil_judged_as_ocp, false>("mx_scale_rceil under ocp_floor (GPU)", true,
                                                                                o.gpu_patterns, 0x04600002u));
        return out;
    }
    // Each format's amax rows in a host thread of its own, beside the rest: a row's time is mostly
    // host work (2^20-element arrays made and judged by the oracle: 50-130 ms a grid row on an
    // H200's host), and no launch waits for another thread's frees (device_buffer's pool). The
    // rows keep their order.
    std::vector<scaling_row> per_format[3];
    {
        auto f16 = std::async(std::launch::async, [&] { amax_rows<binary16>(per_format[0], o); });
        auto b16 = std::async(std::launch::async, [&] { amax_rows<bfloat16>(per_format[1], o); });
        auto f32 = std::async(std::launch::async, [&] { amax_rows<binary32>(per_format[2], o); });
        std::vector<scaling_row> rest = other_rows(o);
        f16.get();  // each rethrows a device_error of its thread
        b16.get();
        f32.get();
        for (auto& rows : per_format) out.insert(out.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
        out.insert(out.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
    }
    return out;
}

}  // namespace flipcheck::gpu
