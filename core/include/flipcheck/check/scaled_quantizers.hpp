// Checking a scaled quantizer (scaled_quantize.hpp): for each scale s of a domain, the quantizer's
// four laws (check/quantizers.hpp) on x -> q(x, s), against the oracle's code for x op s under the
// declared op and intermediate; a failure's law is told by the exact x op s. The first scale that
// fails gives the counterexample, and scales are tried simplest first: 1, then 2^-1, 2, 2^-2, ...
// (every e8m0 scale), then per-tensor scales.
// Domains:
//   every 16-bit input under every e8m0 scale and its NaN (options.every_binary32, 256 x 2^16
//     pairs: exhaustive for MX scaling, where a block's amax matters only through its scale);
//   otherwise, under every e8m0 scale and the per-tensor scales below: the inputs where the
//     oracle's answer may change (every code, midpoint and overflow threshold carried back
//     through the scale: p / s for a product) and their two neighbours each side in the input
//     format (a 16-bit element's: some of them), with two magnitudes a binade besides, both signs
//     (sampled).
// A scale judged as a float (a per-tensor one) is a binary32 the kernel was given; the checks
// judge its use, not how it was made (check/scales.hpp judges that).
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/scaled_quantize.hpp"
#include "flipcheck/scale.hpp"

namespace flipcheck {

template <class X>
concept scaled_quantizer_subject = requires(typename X::format::storage x, float s) {
    requires format<typename X::format>;
    requires element_format<typename X::element>;
    { X::declared } -> std::convertible_to<scaled_policy>;
    { X::quantize_scaled(x, s) } -> std::convertible_to<code_t<typename X::element>>;
};

namespace scaled_check {

// Every e8m0 scale as its binary32 value, simplest first (2^0, 2^-1, 2^1, ..., 2^-127), then its
// NaN; then per-tensor scales: E's largest finite over a spread of amaxes (in binary32, as
// TransformerEngine makes them), scales with long mantissas, a subnormal, the largest finite, 0
// and +inf. No negative scale: every recipe's scale is positive, and the order law's direction
// (results grow away from zero with |x|) assumes it.
template <element_format E>
std::vector<float> scales() {
    std::vector<float> s{1.0f};
    for (int k = 1; k <= 127; ++k) {
        s.push_back(e8m0_decode::decode(std::uint8_t(127 - k)));
        s.push_back(e8m0_decode::decode(std::uint8_t(127 + k)));
    }
    s.push_back(e8m0_decode::decode(0xff));
    const float max = E::to_value(E::max_finite);
    for (float amax : {0.3f, 3.0f, 7.0f, 1000.0f, 1e-3f, 1e30f, 1e-30f, 1.7e-38f}) s.push_back(max / amax);
    for (std::uint32_t bits : {0x3eaaaaabu, 0x3dcccccdu, 0x3f7fffffu, 0x3f800001u, 0x3fc00001u, 0x00000001u, 0x7f7fffffu,
                               0x00000000u, 0x7f800000u})
        s.push_back(bit_cast<float>(bits));
    return s;
}
inline constexpr std::size_t e8m0_scales = 256;  // scales()'s first 256: every e8m0 code's value

// Input magnitudes of format F (storage bits, ascending, unique) where x -> quantize(x op s) may
// change answer: each of the oracle's points (check/quantizers.hpp's oracle_steps) carried back
// through s, rounded into F, with two neighbours each side; and two magnitudes a binade.
template <quantizer_input F, element_format E>
std::vector<typename F::storage> targeted(scale_op op, float s, const std::vector<std::uint32_t>& points) {
    using S = typename F::storage;
    constexpr S top = S(F::sign_mask - 1);
    // Built in ascending order and merged, not sorted: the points ascend, and so do their values
    // carried back through s, rounded and taken into F (a sort of each scale's few thousand was a
    // tenth of the scaling path's time, once per scale and rounding mode). Checked, not assumed.
    std::vector<S> carried, fixed;
    const auto add_around = [&carried](std::int64_t c) {
        for (std::int64_t d = -2; d <= 2; ++d)
            if (c + d >= 0 && c + d <= std::int64_t(top) && (carried.empty() || S(c + d) > carried.back())) carried.push_back(S(c + d));
    };
    const auto into_f = [](float v) -> std::int64_t {  // v's nearest magnitude in F
        if constexpr (F::width == 32) return bit_cast<std::uint32_t>(v) & 0x7fffffffu;
        else return quantize_bits<F, quantize_policy{rounding::nearest_even, saturation::infinity}>(v) & ~F::sign_mask;
    };
    const float a = s < 0 ? -s : s;
    // A 16-bit element has 2^17 points: its lowest and highest 512 (subnormals, the overflow
    // threshold) and every 128th between them.
    bool ascending = true;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points.size() > 4096 && i >= 512 && i + 512 < points.size() && i % 128 != 0) continue;
        const std::uint32_t p = points[i];
        const double v = double(bit_cast<float>(p));
        const double back = op == scale_op::multiply ? v / a : v * a;
        if (!(back == back && back <= 3.4028234663852886e38)) continue;
        const std::int64_t c = into_f(float(back));
        ascending &= carried.empty() || c + 2 >= std::int64_t(carried.back());
        add_around(c);
    }
    if (!ascending) throw std::logic_error("scaled_check::targeted: the points carried back do not ascend");
    constexpr int m_bits = F::mantissa_bits;
    for (std::uint64_t c = 0; c <= top; c += std::uint64_t(1) << (m_bits - 1)) fixed.push_back(S(c));
    std::vector<S> ends;  // infinity's and the largest magnitude's neighbours
    for (std::int64_t c : {std::int64_t(top), std::int64_t(F::infinity)})
        for (std::int64_t d = -2; d <= 2; ++d)
            if (c + d >= 0 && c + d <= std::int64_t(top)) ends.push_back(S(c + d));
    std::sort(ends.begin(), ends.end());
    fixed.insert(fixed.end(), ends.begin(), ends.end());
    std::inplace_merge(fixed.begin(), fixed.end() - std::ptrdiff_t(ends.size()), fixed.end());
    std::vector<S> m(carried.size() + fixed.size());
    std::merge(carried.begin(), carried.end(), fixed.begin(), fixed.end(), m.begin());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    return m;
}

// The oracle's code for x op s by the step table, for a walk whose inputs ascend in magnitude
// under one non-negative scale, so that |x op s| ascends too (k: the table's cursor). Host and
// device.
template <class F, class C>
struct stepped_scaled_want {
    quantize_check::step_view<C> steps;
    scaled_policy p;
    float s;
    std::size_t k = 0;
    FLIPCHECK_HD static double magnitude(double y) { return y < 0 ? -y : y; }
    FLIPCHECK_HD C operator()(typename F::storage x) {
        const double y = oracle::scaled_value(p, float(F::to_value(x)), s);
        k = steps.locate_value(magnitude(y), k);
        return steps.answer_value(oracle::signbit(y), magnitude(y), k);
    }
};

// A report's name and shape ("": the caller names the subject).
template <quantizer_input F, element_format E>
scaling_report report_of(scaled_policy p) {
    scaling_report r = quantize_check::report_of<F, E>(p.quantize);
    r.shape = "scaled quantizer";
    r.claim += ", x " + std::string(p.op == scale_op::multiply ? "*" : "/") + " s " +
               (p.via == intermediate::binary32 ? "rounded to binary32" : "exact");
    return r;
}

// The verdict from scale s's findings (check/quantizers.hpp's conclude, with " * s" in each call's
// text) and the replay: x (as its binary32 value) and s. The checks counted so far stay.
template <quantizer_input F, element_format E>
void conclude(scaling_report& r, const quantize_check::findings<typename F::storage, code_t<E>>& f, scale_op op, float s) {
    const std::uint64_t checks = r.checks;
    quantize_check::conclude<F, E>(r, f, (op == scale_op::multiply ? " * " : " / ") + show<binary32>(bit_cast<std::uint32_t>(s)));
    r.checks = checks;
    for (const auto& x : f.first)
        if (x.rank != ~std::uint64_t(0)) {
            const std::uint32_t pair[2] = {bit_cast<std::uint32_t>(float(F::to_value(x.x))), bit_cast<std::uint32_t>(s)};
            r.replay = format_case<binary32>(std::span<const std::uint32_t>(pair), {});
            return;
        }
}

}  // namespace scaled_check

// `only`: replayed (x, s) pairs, each as two binary32 patterns (a 16-bit input as its binary32 value,
// rounded into the input format if it is not one).
template <quantizer_input F, element_format E, class QuantizeOf>
scaling_report check_scaled_quantizer_of(scaled_policy p, QuantizeOf&& q, const scaling_options& o = {},
                                         const std::vector<std::uint32_t>& only = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    using C = code_t<E>;
    namespace qc = quantize_check;
    scaling_report r = scaled_check::report_of<F, E>(p);
    if (qc::say_cannot_declare<E>(r, p.quantize)) return r;
    const float* value = qc::element_values<E>().data();
    // The oracle's step table answers each x op s with a cursor (the same answers as
    // oracle::quantize_scaled, which builds it); replayed pairs ask the slow oracle itself.
    const qc::oracle_steps<E> steps(p.quantize);
    const auto view = steps.view();
    const std::vector<std::uint32_t>& points = steps.points;
    // One scale's walk: its findings, in the walk's order.
    const auto judge = [&](float s, const std::vector<S>& mags) {
        qc::findings<S, C> f;
        const auto slow = [&](S x) { return oracle::quantize_scaled<E>(p, float(F::to_value(x)), s); };
        scaled_check::stepped_scaled_want<F, C> stepped{view, p, s};
        const auto call = [&](S x) { return C(q(x, s)); };
        const auto exactly = [&](float x) { return oracle::scaled_exactly(p.op, x, s); };
        if (only.empty()) qc::walk<F, E>(f, value, call, stepped, 0, 0, mags.data(), mags.size(), false, exactly);
        else qc::walk<F, E>(f, value, call, slow, 0, 0, mags.data(), mags.size(), false, exactly);
        return f;
    };
    const auto failed = [](const qc::findings<S, C>& f) {
        for (const auto& x : f.first)
            if (x.rank != ~std::uint64_t(0)) return true;
        return false;
    };
    const auto conclude = [&](float s, const qc::findings<S, C>& f) { scaled_check::conclude<F, E>(r, f, p.op, s); };
    if (!only.empty()) {
        // The pairs' inputs grouped by scale, so that the order law judges inputs under one scale
        // against each other (both signs of each magnitude, as the walk does).
        r.domain = only_words;
        if (only.size() % 2) throw input_error("a scaled quantizer's case lists (x, s) pairs: an even count of binary32 patterns");
        std::map<std::uint32_t, std::vector<S>> by_scale;
        for (std::size_t i = 0; i + 1 < only.size(); i += 2) {
            const float x = bit_cast<float>(only[i]);
            auto& mags = by_scale[only[i + 1]];
            if constexpr (F::width == 32) mags.push_back(only[i] & 0x7fffffffu);
            else mags.push_back(S(quantize_bits<F, quantize_policy{rounding::nearest_even, saturation::infinity}>(x) & ~F::sign_mask));
        }
        for (auto& [bits, mags] : by_scale) {
            std::sort(mags.begin(), mags.end());
            mags.erase(std::unique(mags.begin(), mags.end()), mags.end());
            const auto f = judge(bit_cast<float>(bits), mags);
            r.checks += f.checks;
            if (failed(f)) return conclude(bit_cast<float>(bits), f), r;
        }
        return r;
    }
    const std::vector<float> scales = scaled_check::scales<E>();
    const bool every = o.every_binary32 && F::width == 16;
    const std::size_t n = every ? scaled_check::e8m0_scales : scales.size();
    std::vector<S> all;
    if (every)
        for (std::uint64_t c = 0; c < F::sign_mask; ++c) all.push_back(S(c));
    struct part {
        std::size_t failing = ~std::size_t(0);
        qc::findings<S, C> f{};
        std::uint64_t checks = 0;
    };
    const auto parts = every_core_chunks(0, n, [&](std::uint64_t a, std::uint64_t e) {
        part out;
        for (; a < e; ++a) {
            const float s = scales[a];
            const auto f = judge(s, every ? all : scaled_check::targeted<F, E>(p.op, s, points));
            out.checks += f.checks;
            if (failed(f)) return out.failing = a, out.f = f, out;
        }
        return out;
    }, o.threads);
    r.exhaustive = every;
    r.domain = every ? "every " + std::string(F::name) + " input under every e8m0 scale (exhaustive for MX scaling: 256 x 2^16 pairs)"
                     : "every code, midpoint and threshold of " + std::string(E::name) + " carried back through " +
                           std::to_string(scales.size()) + " scales (every e8m0 value, " + std::to_string(scales.size() - scaled_check::e8m0_scales) +
                           " per-tensor) and their neighbours in " + std::string(F::name) + ", both signs (sampled)";
    for (const part& pt : parts) {
        r.checks += pt.checks;
        if (pt.failing != ~std::size_t(0)) return conclude(scales[pt.failing], pt.f), r;
    }
    return r;
}

template <scaled_quantizer_subject X>
scaling_report check_scaled_quantizer(const scaling_options& o = {}) {
    return check_scaled_quantizer_of<typename X::format, typename X::element>(
        X::declared, [](typename X::format::storage x, float s) { return code_t<typename X::element>(X::quantize_scaled(x, s)); }, o);
}

}  // namespace flipcheck
