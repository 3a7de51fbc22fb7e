// Checking scale functions against a recipe's oracle (scale.hpp, scale_recipe.hpp): an MX scale as
// its e8m0 code or as the binary32 value a kernel multiplies by, a per-tensor FP8 (or NVFP4
// global) scale, and NVFP4's e4m3fn block scales. check/scaling.hpp's check_scaling picks these by
// shape. Host only.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/every_core.hpp"
#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace flipcheck {

template <class X>
concept mx_scale_subject = requires(std::uint32_t a) {
    requires format<typename X::element>;
    { X::scale(a) } -> std::convertible_to<std::uint8_t>;
};
// An e8m0 scale as the binary32 value X a kernel multiplies by (2^(code - 127)), not its code.
template <class X>
concept mx_scale_value_subject = requires(float a) {
    requires format<typename X::element>;
    { X::scale_value(a) } -> std::convertible_to<float>;
};
// The recipe a scale subject declares (a `recipe` member, scale_recipe.hpp); OCP's by default.
template <class X>
constexpr scale_recipe declared_recipe() {
    if constexpr (requires { X::recipe; }) return X::recipe;
    else return ocp_floor;
}
// The largest value a tensor scale aims at: the element's largest finite, or the subject's own
// `max_value` (NVFP4's global scale aims at 448 * 6).
template <class X>
constexpr float tensor_scale_target() {
    if constexpr (requires { X::max_value; }) return X::max_value;
    else return X::element::to_value(X::element::max_finite);
}
template <class X>
concept tensor_scale_subject = requires(float a) {
    requires format<typename X::element>;
    { X::tensor_scale(a) } -> std::convertible_to<float>;
};
template <class X>
concept nvfp4_scale_subject = requires(float a, float g) {
    { X::block_scale(a, g) } -> std::convertible_to<std::uint8_t>;
};

inline std::string hex8(std::uint8_t c) { return hex(c, 8); }
inline std::string show_e8m0(std::uint8_t c) { return c == 0xff ? "0xff (NaN)" : hex8(c) + " (2^" + std::to_string(int(c) - 127) + ")"; }
inline std::string show_float(float v) { return show<binary32>(bit_cast<std::uint32_t>(v)); }
inline std::string shortest(float v) {  // the value alone, as %g writes it
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(v));
    return text;
}

// ---- scales ----------------------------------------------------------------------------------------

// The binary32 amaxes a scale is judged on, one of each class the formulas tell apart: +0 and -0,
// every binade's first, second, middle and last two mantissas (so every e8m0 code is reached),
// every bfloat16 magnitude (all 2^15: every subnormal exponent), +inf, and NaNs of both signs
// (x86's default NaN is negative). Sampled within binades; every 2^32 pattern runs on the GPU.
inline std::vector<std::uint32_t> scale_domain() {
    std::vector<std::uint32_t> out{0x80000000u, 0xffc00000u, 0xff800001u, 0xffffffffu, 0x7fffffffu, 0x7f800001u};
    // The mantissas around 0, 1.5, 1.75 and 1.875: where an amax over an element's largest finite
    // (1.75 * 2^k for e4m3fn, e5m2 and e3m2, 1.875 for e2m3, 1.5 for e2m1) crosses a power of two,
    // which is where a ceil recipe's code steps.
    for (std::uint32_t e = 0; e < 256; ++e)
        for (std::uint32_t m : {0u, 1u, 2u, 0x3ffffeu, 0x3fffffu, 0x400000u, 0x400001u, 0x400002u, 0x5ffffeu, 0x5fffffu, 0x600000u,
                                0x600001u, 0x600002u, 0x6ffffeu, 0x6fffffu, 0x700000u, 0x700001u, 0x700002u, 0x7ffffeu, 0x7fffffu})
            out.push_back(e << 23 | m);
    for (int d = -2; d <= 2; ++d) out.push_back(std::uint32_t(std::int64_t(bit_cast<std::uint32_t>(rceil_eps.amax_floor)) + d));
    for (std::uint32_t h = 0; h < 0x8000u; ++h) out.push_back(h << 16);
    std::sort(out.begin(), out.end(), [](std::uint32_t a, std::uint32_t b) { return (a & 0x7fffffffu) < (b & 0x7fffffffu) || ((a & 0x7fffffffu) == (b & 0x7fffffffu) && a < b); });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}
inline const char* scale_domain_words =
    "+-0, every binade's edge mantissas and the steps of ceil recipes, every bfloat16 magnitude, +inf, NaNs of both signs (sampled within binades)";

// Each check below has a form over the subject's function (check_..._of), which a plug-in's
// subject (plugin.hpp) is checked by, and the form over a type, which passes its static function.
// The forms over a function take a replayed case's inputs instead of their domain (`only`).
// Every non-negative binary32 amax (2^31; the sign of an amax is ignored by every recipe), on
// every core: the exhaustive domain of a scale (scaling_options::every_binary32).
inline const char* every_amax_words = "every non-negative binary32 amax (exhaustive";
template <class Judge>
std::optional<std::uint32_t> first_failing_amax(Judge&& fails, unsigned threads = 0) {
    for (const auto& first : every_core_chunks(0, std::uint64_t(1) << 31, [&](std::uint64_t a, std::uint64_t e) {
             for (; a < e; ++a)
                 if (fails(std::uint32_t(a))) return std::optional<std::uint32_t>(std::uint32_t(a));
             return std::optional<std::uint32_t>();
         }, threads))
        if (first) return first;
    return std::nullopt;
}

// A scale judged as its e8m0 code under a recipe; `code_of(amax bits)` gives the subject's code,
// or nullopt with `why` filled when its answer is no e8m0 scale at all (a float scale that is not
// a power of two in range: law scale_power_of_two).
template <format E, class CodeOf>
scaling_report judge_mx_scale(std::string shape, scale_recipe recipe, CodeOf&& code_of, const std::vector<std::uint32_t>& only,
                              bool every, unsigned threads = 0) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    const float max_elem = E::to_value(E::max_finite);
    // OCP's recipe, the default, goes unnamed in the claim (as before recipes existed); the
    // counterexample names it always.
    const bool named = recipe.name != ocp_floor.name;
    scaling_report r{"", std::move(shape), std::string("element ") + std::string(E::name) + (named ? ", recipe " + std::string(recipe.name) : ""),
                     only.empty() ? (every ? std::string(every_amax_words) + (threads == 1 ? ")" : ", every core)") : scale_domain_words) : only_words,
                     every && only.empty(), 0, {}};
    std::string why;
    auto fails = [&](std::uint32_t a) {
        const auto got = code_of(a, why);
        return !got || *got != oracle::recipe_scale(recipe, max_elem, bit_cast<float>(a));
    };
    std::optional<std::uint32_t> bad;
    std::set<std::uint8_t> reached;
    if (every && only.empty()) {
        bad = first_failing_amax(fails, threads);
        r.checks = bad ? *bad + 1 : std::uint64_t(1) << 31;
    } else {
        for (std::uint32_t a : only.empty() ? scale_domain() : only) {
            ++r.checks;
            reached.insert(oracle::recipe_scale(recipe, max_elem, bit_cast<float>(a)));
            if (fails(a)) {
                bad = a;
                break;
            }
        }
        if (!bad && only.empty()) r.domain += ": " + std::to_string(reached.size()) + " distinct e8m0 codes";
    }
    if (!bad) return r;
    const std::uint32_t a = *bad;
    why.clear();
    const auto got = code_of(a, why);
    const std::uint8_t want = oracle::recipe_scale(recipe, max_elem, bit_cast<float>(a));
    r.failed = law_bit(got ? law_id::scale_agreement : law_id::scale_power_of_two);
    r.counterexample = "the e8m0 scale of amax " + show_float(bit_cast<float>(a)) + " for " + std::string(E::name) + " elements is " +
                       (got ? show_e8m0(*got) : why) + "; recipe " + std::string(recipe.name) + "'s: " + show_e8m0(want);
    r.replay = format_case<binary32>(std::span(&a, 1), {});
    return r;
}

template <format E, class ScaleOf>
scaling_report check_mx_scale_of(ScaleOf&& scale_of, const std::vector<std::uint32_t>& only = {}, scale_recipe recipe = ocp_floor,
                                 bool every = false, unsigned threads = 0) {
    return judge_mx_scale<E>("mx scale", recipe, [&](std::uint32_t a, std::string&) { return std::optional<std::uint8_t>(scale_of(a)); },
                             only, every, threads);
}
template <mx_scale_subject X>
scaling_report check_mx_scale(const scaling_options& o = {}) {
    return check_mx_scale_of<typename X::element>([](std::uint32_t a) { return std::uint8_t(X::scale(a)); }, {}, declared_recipe<X>(),
                                                  o.every_binary32);
}

// The e8m0 code of a scale given as its binary32 value: 2^(c - 127) for c in 0x00..0xfe, NaN for
// 0xff; anything else (zero, infinity, a value that is not a power of two, or one out of range)
// is no e8m0 scale.
inline std::optional<std::uint8_t> e8m0_code_of(float x) {
    if (oracle::isnan(x)) return std::uint8_t(0xff);
    for (unsigned c = 0; c < 255; ++c)
        if (bit_cast<std::uint32_t>(x) == bit_cast<std::uint32_t>(e8m0_decode::decode(std::uint8_t(c)))) return std::uint8_t(c);
    return std::nullopt;
}
template <format E, class ValueOf>
scaling_report check_mx_scale_value_of(ValueOf&& value_of, const std::vector<std::uint32_t>& only = {}, scale_recipe recipe = ocp_floor,
                                       bool every = false, unsigned threads = 0) {
    return judge_mx_scale<E>(
        "scale value", recipe,
        [&](std::uint32_t a, std::string& why) {
            const float x = value_of(bit_cast<float>(a));
            const auto c = e8m0_code_of(x);
            if (!c) why = show_float(x) + ", which is no power of two from 2^-127 to 2^127 (no e8m0 scale)";
            return c;
        },
        only, every, threads);
}
template <mx_scale_value_subject X>
scaling_report check_mx_scale_value(const scaling_options& o = {}) {
    return check_mx_scale_value_of<typename X::element>([](float a) { return float(X::scale_value(a)); }, {}, declared_recipe<X>(),
                                                        o.every_binary32);
}

template <format E, class TensorScaleOf>
scaling_report check_tensor_scale_of(TensorScaleOf&& tensor_scale_of, const std::vector<std::uint32_t>& only = {},
                                     float target = E::to_value(E::max_finite)) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    const bool own_target = target != E::to_value(E::max_finite);
    scaling_report r{"", "tensor scale",
                     std::string("element ") + std::string(E::name) + (own_target ? ", target " + shortest(target) : std::string()),
                     only.empty() ? scale_domain_words : only_words, false, 0, {}};
    for (std::uint32_t a : only.empty() ? scale_domain() : only) {
        ++r.checks;
        const float amax = bit_cast<float>(a), got = tensor_scale_of(amax), want = oracle::tensor_scale(target, amax);
        if (bit_cast<std::uint32_t>(got) != bit_cast<std::uint32_t>(want) && !(oracle::isnan(got) && oracle::isnan(want))) {
            r.counterexample = "the " + std::string(E::name) + " tensor scale of amax " + show_float(amax) + " is " +
                               show_float(got) + "; the oracle's: " + show_float(want);
            r.replay = format_case<binary32>(std::span(&a, 1), {});
            return r;
        }
    }
    return r;
}
template <tensor_scale_subject X>
scaling_report check_tensor_scale(const scaling_options& = {}) {
    return check_tensor_scale_of<typename X::element>([](float a) { return float(X::tensor_scale(a)); }, {}, tensor_scale_target<X>());
}

// NVFP4 block scales over every block amax that is a bfloat16 magnitude, +inf and NaN, under
// global scales made from a spread of tensor amaxes (the oracle's tensor_scale with 448 * 6).
// `only`: (block amax, global scale) pairs, as binary32 bits one after the other.
template <class ScaleOf>
scaling_report check_nvfp4_scale_of(ScaleOf&& scale_of, const std::vector<std::uint32_t>& only = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    scaling_report r{"", "nvfp4 scale", "binary32 block amax -> e4m3fn, global scale 448*6/amax",
                     only.empty() ? "every bfloat16 block amax, +inf, NaN x 12 tensor amaxes (sampled)" : only_words, false, 0, {}};
    auto judge = [&](float a, float g) {
        ++r.checks;
        const std::uint8_t got = scale_of(a, g), want = oracle::nvfp4_block_scale(a, g);
        if (got == want) return true;
        r.counterexample = "the NVFP4 scale of block amax " + show_float(a) + " under global scale " + show_float(g) +
                           " is e4m3fn " + show<float8_e4m3fn>(got) + "; the oracle's: " + show<float8_e4m3fn>(want);
        const std::uint32_t in[2] = {bit_cast<std::uint32_t>(a), bit_cast<std::uint32_t>(g)};
        r.replay = format_case<binary32>(std::span(in), {});
        return false;
    };
    if (!only.empty()) {
        for (std::size_t i = 0; i + 1 < only.size(); i += 2)
            if (!judge(bit_cast<float>(only[i]), bit_cast<float>(only[i + 1]))) return r;
        return r;
    }
    const float tensor_amaxes[] = {0.0f, 1e-40f, 1e-30f, 0.001f, 0.5f, 1.0f, 6.0f, 448.0f, 2688.0f, 1e10f, 3.4e38f,
                                   std::numeric_limits<float>::infinity()};
    for (float t : tensor_amaxes) {
        const float g = oracle::tensor_scale(nvfp4_max, t);
        for (std::uint32_t h = 0; h <= 0x7fc0u; ++h) {
            const float a = bit_cast<float>(h << 16);
            if (oracle::isnan(a) && h != 0x7fc0u) continue;
            if (!judge(a, g)) return r;
        }
    }
    return r;
}

template <nvfp4_scale_subject X>
scaling_report check_nvfp4_scale(const scaling_options& = {}) {
    return check_nvfp4_scale_of([](float a, float g) { return std::uint8_t(X::block_scale(a, g)); });
}

}  // namespace flipcheck
