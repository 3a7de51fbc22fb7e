// Checking the FP8/MX scaling path: amax functions, scale functions (check/scales.hpp), e8m0/fnuz
// decoders, whole block pipelines (amax then scale) and quantizers (check/quantizers.hpp), and
// canonical keys (check/canonical_keys.hpp), each against the oracle. Host only.
//
// A subject is a struct; its shape is what it provides (the concepts below), and check_scaling<X>()
// picks the check by shape:
//   amax          format, declared (nan_policy::propagate, ignore or undefined),
//                 static storage amax(std::span<const storage>)
//   mx scale      element (the MX element format), static uint8_t scale(uint32_t amax_bits):
//                 the e8m0 code for a binary32 amax
//   tensor scale  element (the FP8 format), static float tensor_scale(float amax)
//   decode        format (e8m0 or an 8-bit element format), static float decode(uint8_t code)
//   block scale   format (the input), element, declared, static uint8_t block_scale(std::span<const
//                 storage> block): an MX block's e8m0 code, straight from its 32 elements
//   nvfp4 scale   static uint8_t block_scale(float block_amax, float global_scale): e4m3fn code
//   scale value   element, static float scale_value(float amax): an e8m0 scale as its value
//   quantizer     format, element, declared (quantize_policy), static uint8_t quantize(storage)
//   canonical key format, declared (equivalence), static K key(storage), K an unsigned or bytes
// A scale may declare its recipe (scale_recipe.hpp), a tensor scale its target (max_value).
// Each check reports the number of inputs judged, whether they were every input of the domain
// (exhaustive) or a sample, and the first failure, smallest first, in words with the bits.
#pragma once
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/amax.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/draw.hpp"
#include "flipcheck/check/every_core.hpp"
#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/check/rounding_modes.hpp"
#include "flipcheck/check/scaled_quantizers.hpp"
#include "flipcheck/check/scales.hpp"
#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/check/shrink.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"

namespace flipcheck {

template <class X>
concept amax_subject = requires(std::span<const typename X::format::storage> xs) {
    requires amax_format<typename X::format>;
    { X::declared } -> std::convertible_to<nan_policy>;
    { X::amax(xs) } -> std::convertible_to<typename X::format::storage>;
};
template <class X>
concept decode_subject = requires(std::uint8_t c) {
    requires format<typename X::format>;
    { X::decode(c) } -> std::convertible_to<float>;
};
template <class X>
concept block_scale_subject = requires(std::span<const typename X::format::storage> block) {
    requires amax_format<typename X::format>;
    requires format<typename X::element>;
    { X::declared } -> std::convertible_to<nan_policy>;
    { X::block_scale(block) } -> std::convertible_to<std::uint8_t>;
};
template <class X>
concept scaling_subject = amax_subject<X> || mx_scale_subject<X> || mx_scale_value_subject<X> || tensor_scale_subject<X> || decode_subject<X> ||
                          block_scale_subject<X> || nvfp4_scale_subject<X> || quantizer_subject<X> || scaled_quantizer_subject<X> ||
                          canonical_key_subject<X>;

// ---- amax -----------------------------------------------------------------------------------------

// The amax inputs of a format of 16 bits or more, smallest first: no element, every edge value
// alone, every ordered pair of edge values, every triple of a few, then random arrays of 1 to 64
// elements drawn to hit every class often. (Sampled: 16-bit pairs are exhaustive on the GPU.)
template <amax_format F>
std::vector<std::vector<typename F::storage>> amax_cases(const scaling_options& o) {
    using S = typename F::storage;
    const std::vector<S> edges = edge_values<F>();
    std::vector<std::vector<S>> out{{}};
    for (S a : edges) out.push_back({a});
    if (o.edge_pairs)
        for (S a : edges)
            for (S b : edges) out.push_back({a, b});
    const S few[] = {F::zero, F::sign_mask, F::one, S(F::one | F::sign_mask), F::infinity, S(F::infinity | F::sign_mask),
                     F::quiet_nan, S(F::quiet_nan | F::sign_mask), F::denorm_min, S(F::max_finite | F::sign_mask)};
    if (o.edge_pairs)
        for (S a : few)
            for (S b : few)
                for (S c : few) out.push_back({a, b, c});
    detail::splitmix64 rng{o.seed};
    for (std::size_t i = 0; i < o.randoms; ++i) {
        std::vector<S> xs(1 + rng.below(64));
        for (S& x : xs) x = random_bits<F>(rng);
        out.push_back(std::move(xs));
    }
    return out;
}

// Judge `amax_of` (span -> bits) on every array of `cases` under policy p. What a GPU amax's
// driver calls too, with a function that looks its answers up.
template <amax_format F, class Cases, class AmaxOf>
void judge_amax(scaling_report& r, nan_policy p, const Cases& cases, AmaxOf&& amax_of) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    auto nan = [](S x) { return F::is_nan_bits(S(x & F::value_mask)); };
    auto fails = [&](const std::vector<S>& xs) {
        if (p == nan_policy::undefined && std::any_of(xs.begin(), xs.end(), nan)) return false;
        const S got = S(amax_of(std::span<const S>(xs)));
        // ignore with no number: +0 (amax's identity) or a NaN (maximumNumber's answer) both do.
        if (p == nan_policy::ignore && !xs.empty() && std::all_of(xs.begin(), xs.end(), nan) && nan(got)) return false;
        return !oracle::same_amax<F>(p, got, oracle::amax<F>(p, std::span<const S>(xs)));
    };
    for (const auto& xs : cases) {
        ++r.checks;
        if (!fails(xs)) continue;
        const std::vector<S> small = shrink<F>(xs, fails);
        r.replay = format_case<F>(std::span<const S>(small), {});
        r.counterexample = "amax of " + show<F>(small) + " is " + show<F>(S(amax_of(std::span<const S>(small)))) +
                           "; the oracle's (nan=" + std::string(to_string(p)) + "): " +
                           show<F>(oracle::amax<F>(p, std::span<const S>(small)));
        return;
    }
}

// Every array of 0 to `length` (at most 3) codes of a byte format (exhaustive): shortest first,
// each length in lexicographic order, with a fold carried along: visit(xs, state) gets
// state = step(...step(init, xs[0])..., xs[n-1]), made once per prefix and extended by every code
// (the amax check's oracle: 16.8 M triples for the price of their last steps). Stops when visit
// returns false; returns whether it ran to the end.
template <amax_format F, class State, class Step, class Visit>
bool every_byte_array(int length, State init, Step step, Visit visit) {
    using S = typename F::storage;
    constexpr unsigned count = unsigned(F::value_mask) + 1;
    if (length < 0 || length > 3) throw std::invalid_argument("every_byte_array: arrays of 0 to 3 codes");
    std::array<S, 3> xs{};
    auto array = [&xs](std::size_t n) { return std::span<const S>(xs.data(), n); };
    if (!visit(array(0), init)) return false;
    for (int n = 1; n <= length; ++n)
        for (unsigned a = 0; a < count; ++a) {
            xs[0] = S(a);
            const State sa = step(init, S(a));
            if (n == 1) {
                if (!visit(array(1), sa)) return false;
                continue;
            }
            for (unsigned b = 0; b < count; ++b) {
                xs[1] = S(b);
                const State sb = step(sa, S(b));
                if (n == 2) {
                    if (!visit(array(2), sb)) return false;
                    continue;
                }
                for (unsigned c = 0; c < count; ++c) {
                    xs[2] = S(c);
                    if (!visit(array(3), step(sb, S(c)))) return false;
                }
            }
        }
    return true;
}
// The same with no fold: visit(xs).
template <amax_format F, class Visit>
bool every_byte_array(int length, Visit visit) {
    struct none {};
    return every_byte_array<F>(length, none{}, [](none, typename F::storage) { return none{}; },
                               [&](std::span<const typename F::storage> xs, none) { return visit(xs); });
}

template <amax_subject X>
scaling_report check_amax(const scaling_options& o = {}) {
    using F = typename X::format;
    using S = typename F::storage;
    scaling_report r{"", "amax", std::string(F::name) + " nan=" + std::string(to_string(X::declared)), "", false, 0, {}};
    if (X::declared == nan_policy::total_order) {
        r.counterexample = "declares nan=total_order, which means nothing for magnitudes: declare propagate, ignore or undefined";
        return r;
    }
    if constexpr (F::width <= 8) {
        const int length = o.every_triple ? 3 : 2;
        r.exhaustive = true;
        r.domain = std::string("every array of 0 to ") + char('0' + length) + " codes (exhaustive)";
        // The oracle's step memoized (oracle::byte_amax), its fold carried along each prefix by
        // every_byte_array (about 3x faster than folding each array anew). An array it disagrees
        // on, or one the policy excuses, goes through judge_amax, which asks oracle::amax itself
        // and shrinks: kept out of line, so that the visit inlines into the loop over the codes
        // (with it inline the loop took 1.4x as long).
        const oracle::byte_amax<F> want;
        constexpr nan_policy p = X::declared;
        std::vector<std::vector<S>> one(1);
        every_byte_array<F>(
            length, typename oracle::byte_amax<F>::state{}, [&](auto w, S x) { return want.step(w, x); },
            [&](std::span<const S> a, auto w) __attribute__((always_inline)) {
                if (p != nan_policy::undefined && oracle::same_amax<F>(p, S(X::amax(a)), want.result(p, w))) {
                    ++r.checks;
                    return true;
                }
                return [&]() __attribute__((noinline)) {
                    one[0].assign(a.begin(), a.end());
                    judge_amax<F>(r, p, one, [](std::span<const S> b) { return X::amax(b); });
                    return r.passed();
                }();
            });
    } else {
        r.domain = "edge battery (every value, every ordered pair, triples of 10) + " + std::to_string(o.randoms) +
                   " random arrays (sampled)";
        judge_amax<F>(r, X::declared, amax_cases<F>(o), [](std::span<const S> a) { return X::amax(a); });
    }
    return r;
}

template <format F, class DecodeOf>
scaling_report check_decode_of(DecodeOf&& decode_of, const std::vector<std::uint8_t>& only = {}) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    scaling_report r{"", "decode", std::string(F::name), only.empty() ? "every code (exhaustive)" : only_words, only.empty(), 0, {}};
    std::vector<std::uint8_t> codes = only;
    for (unsigned c = 0; only.empty() && c <= F::value_mask; ++c) codes.push_back(std::uint8_t(c));
    for (const std::uint8_t c : codes) {
        ++r.checks;
        const float got = decode_of(std::uint8_t(c)), want = F::to_value(std::uint8_t(c));
        if (bit_cast<std::uint32_t>(got) != bit_cast<std::uint32_t>(want) && !(oracle::isnan(got) && oracle::isnan(want))) {
            r.counterexample = std::string(F::name) + " code " + hex8(std::uint8_t(c)) + " decodes to " + show_float(got) +
                               "; it is " + show_float(want);
            r.replay = format_case<F>(std::span(&c, 1), {});
            return r;
        }
    }
    return r;
}
template <decode_subject X>
scaling_report check_decode(const scaling_options& = {}) {
    return check_decode_of<typename X::format>([](std::uint8_t c) { return float(X::decode(c)); });
}

// The oracle's e8m0 code of a block: oracle::amax, widened exactly to binary32, then mx_scale.
template <amax_format F, format E>
std::uint8_t oracle_block_scale(nan_policy p, std::span<const typename F::storage> block) {
    return oracle::mx_scale<E>(float(F::to_value(oracle::amax<F>(p, block))));
}

// MX blocks of a format of 16 bits or more: all +0; each edge value at the first and the last
// position; every ordered pair of edge values at positions 0 and 17; random blocks (sampled).
template <amax_format F>
std::vector<std::vector<typename F::storage>> block_cases(const scaling_options& o) {
    using S = typename F::storage;
    std::vector<std::vector<S>> out{std::vector<S>(mx_block, F::zero)};
    const std::vector<S> edges = edge_values<F>();
    for (S a : edges)
        for (std::size_t at : {std::size_t(0), std::size_t(mx_block - 1)}) {
            out.emplace_back(mx_block, F::zero);
            out.back()[at] = a;
        }
    for (S a : edges)
        for (S b : edges) {
            if (!o.edge_pairs) break;
            out.emplace_back(mx_block, F::zero);
            out.back()[0] = a, out.back()[17] = b;
        }
    detail::splitmix64 rng{o.seed};
    for (std::size_t i = 0; i < o.randoms; ++i) {
        out.emplace_back(mx_block);
        for (S& x : out.back()) x = random_bits<F>(rng);
    }
    return out;
}
inline std::string block_cases_words(const scaling_options& o) {
    return "edge values at the ends, every ordered pair of edge values, " + std::to_string(o.randoms) + " random blocks (sampled)";
}

// Judge `scale_of` (block span -> e8m0 code) on blocks under policy p; what the GPU's fused
// kernel is judged by too. Stops at the first failure, shrunk by zeroing elements.
template <amax_format F, format E, class Blocks, class ScaleOf>
bool judge_block_scale(scaling_report& r, nan_policy p, const Blocks& blocks, ScaleOf&& scale_of) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using S = typename F::storage;
    auto nan = [](S x) { return F::is_nan_bits(x); };
    auto fails = [&](const std::vector<S>& block) {
        if (p == nan_policy::undefined && std::any_of(block.begin(), block.end(), nan)) return false;
        const std::uint8_t got = scale_of(std::span<const S>(block));
        // ignore with no number in the block: the scale of +0 or of a NaN amax (0xff) both do.
        if (p == nan_policy::ignore && std::all_of(block.begin(), block.end(), nan) && got == 0xff) return false;
        return got != oracle_block_scale<F, E>(p, std::span<const S>(block));
    };
    for (const auto& block : blocks) {
        ++r.checks;
        if (!fails(block)) continue;
        std::vector<S> small = block;
        for (std::size_t i = 0; i < small.size(); ++i) {
            if (small[i] == F::zero) continue;
            std::vector<S> t = small;
            t[i] = F::zero;
            if (fails(t)) small = std::move(t);
        }
        std::vector<S> shown;
        std::string where;
        for (std::size_t i = 0; i < small.size(); ++i)
            if (small[i] != F::zero) shown.push_back(small[i]), where += (where.empty() ? "" : ",") + std::to_string(i);
        r.replay = format_case<F>(std::span<const S>(small), {});
        r.counterexample = "a block of " + std::to_string(small.size()) + " " + std::string(F::name) + " holding " +
                           show<F>(shown) + " at position(s) " + (where.empty() ? "none" : where) + " (the rest +0) gets e8m0 " +
                           show_e8m0(scale_of(std::span<const S>(small))) + "; the oracle's (amax then OCP MX 6.3): " +
                           show_e8m0(oracle_block_scale<F, E>(p, std::span<const S>(small)));
        return false;
    }
    return true;
}

// Byte formats: every pair of codes at positions 0 and 1 (and every triple, with every_triple),
// the rest +0 (exhaustive).
template <amax_format F, format E, class ScaleOf>
scaling_report check_block_scale_of(nan_policy declared, ScaleOf&& scale_of, const scaling_options& o = {},
                                    const std::vector<std::vector<typename F::storage>>& only = {}) {
    using S = typename F::storage;
    scaling_report r{"", "block scale",
                     std::string(F::name) + " -> e8m0 for " + std::string(E::name) + ", nan=" + std::string(to_string(declared)),
                     "", false, 0, {}};
    if (!only.empty()) {
        r.domain = only_words;
        judge_block_scale<F, E>(r, declared, only, scale_of);
    } else if constexpr (F::width <= 8) {
        const int length = o.every_triple ? 3 : 2;
        r.exhaustive = true;
        r.domain = std::string("every ") + (length == 3 ? "triple" : "pair") + " of codes at the block's first positions (exhaustive)";
        std::vector<std::vector<S>> one{std::vector<S>(mx_block, F::zero)};
        every_byte_array<F>(length, [&](std::span<const S> xs) {
            std::fill(one[0].begin(), one[0].end(), F::zero);
            std::copy(xs.begin(), xs.end(), one[0].begin());
            return judge_block_scale<F, E>(r, declared, one, scale_of);
        });
    } else {
        r.domain = block_cases_words(o);
        judge_block_scale<F, E>(r, declared, block_cases<F>(o), scale_of);
    }
    return r;
}
template <block_scale_subject X>
scaling_report check_block_scale(const scaling_options& o = {}) {
    using S = typename X::format::storage;
    return check_block_scale_of<typename X::format, typename X::element>(
        X::declared, [](std::span<const S> b) { return std::uint8_t(X::block_scale(b)); }, o);
}

// The check a subject's shape calls for, in the thread's environment as it is.
template <scaling_subject X>
scaling_report check_scaling_shape(const scaling_options& o) {
    if constexpr (amax_subject<X>) return check_amax<X>(o);
    else if constexpr (block_scale_subject<X>) return check_block_scale<X>(o);
    else if constexpr (mx_scale_subject<X>) return check_mx_scale<X>(o);
    else if constexpr (mx_scale_value_subject<X>) return check_mx_scale_value<X>(o);
    else if constexpr (tensor_scale_subject<X>) return check_tensor_scale<X>(o);
    else if constexpr (decode_subject<X>) return check_decode<X>(o);
    else if constexpr (quantizer_subject<X>) return check_quantizer<X>(o);
    else if constexpr (scaled_quantizer_subject<X>) return check_scaled_quantizer<X>(o);
    else if constexpr (canonical_key_subject<X>) return check_canonical_key<X>(o);
    else return check_nvfp4_scale<X>(o);
}

// The check a subject's shape calls for, in IEEE's default environment (float_environment.hpp),
// with X's calls in each rounding mode it declares (check/rounding_modes.hpp). A subject right in
// any mode is checked to_nearest on the whole domain, then in the three others on the domain
// without every_triple and every_binary32 (the same edge battery and sample: a mode's effect
// shows on a quotient's or a product's rounding, which the sample's inputs reach).
template <scaling_subject X>
scaling_report check_scaling(const scaling_options& o = {}) {
    const ieee_environment ieee;
    constexpr rounding_claim claim = declared_rounding<X>();
    scaling_report r;
    if constexpr (claim.any || claim.needs == rounding_mode::to_nearest) r = check_scaling_shape<X>(o);
    else r = check_scaling_shape<in_rounding_mode<X, claim.needs>>(o), r.failed_mode = claim.needs;
    if constexpr (claim.any) {
        scaling_options other = o;
        other.every_triple = false;
        other.every_binary32 = false;
        if (o.other_rounding_modes)
            check_other_modes(all_rounding_modes, r, [&](rounding_mode m) {
                return with_rounding_mode(m, [&]<rounding_mode M>() {
                    if constexpr (M == rounding_mode::to_nearest) return check_scaling_shape<X>(other);
                    else return check_scaling_shape<in_rounding_mode<X, M>>(other);
                });
            });
    }
    r.rounding = rounding_words(claim);
    if (claim.any && !o.other_rounding_modes) r.rounding = "to_nearest only (declared any; the other modes not asked)";
    else if (claim.any && (o.every_triple || o.every_binary32)) r.rounding += "; upward, downward and toward_zero on the sample";
    return r;
}

// X judged on one case alone: a failure's `replay` text, as the report above gives it (an amax's
// array, a scale's or a tensor scale's amax, a decoder's code, a block, an NVFP4 scale's (block
// amax, global scale) pairs). What FLIPCHECK_CHECK_SCALING's Suite.replay runs; quantizers,
// scaled quantizers and keys replay through their own macros (rapidcheck.hpp). A case that does
// not parse, or lists nothing where an input is needed, is an input_error.
template <scaling_subject X>
scaling_report check_scaling_case(const std::string& text);
// The same with X's calls in rounding mode m (a failure's failed_mode), in IEEE's default environment.
template <scaling_subject X>
scaling_report check_scaling_case(const std::string& text, rounding_mode m) {
    const ieee_environment ieee;
    scaling_report r = with_rounding_mode(m, [&]<rounding_mode M>() {
        if constexpr (M == rounding_mode::to_nearest) return check_scaling_case<X>(text);
        else return check_scaling_case<in_rounding_mode<X, M>>(text);
    });
    r.failed_mode = m;
    r.rounding = std::string(to_string(m)) + " (the case's mode)";
    return r;
}
template <scaling_subject X>
scaling_report check_scaling_case(const std::string& text) {
    static_assert(!quantizer_subject<X> && !scaled_quantizer_subject<X> && !canonical_key_subject<X>,
                  "a quantizer, scaled quantizer or key replays through FLIPCHECK_CHECK_QUANTIZER, "
                  "FLIPCHECK_CHECK_SCALED_QUANTIZER or FLIPCHECK_CHECK_KEY's Suite.replay");
    auto inputs = [&]<format F>() {
        auto v = parse_case<F>(text).first;
        if (v.empty()) throw input_error("the case lists no input");
        return v;
    };
    if constexpr (amax_subject<X>) {
        using F = typename X::format;
        using S = typename F::storage;
        scaling_report r{"", "amax", std::string(F::name) + " nan=" + std::string(to_string(X::declared)), only_words, false, 0, {}};
        const std::vector<std::vector<S>> one{parse_case<F>(text).first};  // an empty array is a case too
        judge_amax<F>(r, X::declared, one, [](std::span<const S> a) { return X::amax(a); });
        return r;
    } else if constexpr (block_scale_subject<X>) {
        using F = typename X::format;
        using S = typename F::storage;
        return check_block_scale_of<F, typename X::element>(
            X::declared, [](std::span<const S> b) { return std::uint8_t(X::block_scale(b)); }, {},
            std::vector<std::vector<S>>{inputs.template operator()<F>()});
    } else if constexpr (mx_scale_subject<X>) {
        return check_mx_scale_of<typename X::element>([](std::uint32_t a) { return std::uint8_t(X::scale(a)); },
                                                      inputs.template operator()<binary32>(), declared_recipe<X>());
    } else if constexpr (mx_scale_value_subject<X>) {
        return check_mx_scale_value_of<typename X::element>([](float a) { return float(X::scale_value(a)); },
                                                            inputs.template operator()<binary32>(), declared_recipe<X>());
    } else if constexpr (tensor_scale_subject<X>) {
        return check_tensor_scale_of<typename X::element>([](float a) { return float(X::tensor_scale(a)); },
                                                          inputs.template operator()<binary32>(), tensor_scale_target<X>());
    } else if constexpr (decode_subject<X>) {
        return check_decode_of<typename X::format>([](std::uint8_t c) { return float(X::decode(c)); },
                                                   inputs.template operator()<typename X::format>());
    } else {
        const std::vector<std::uint32_t> pairs = inputs.template operator()<binary32>();
        if (pairs.size() % 2) throw input_error("an NVFP4 scale's case lists (block amax, global scale) pairs: an even count");
        return check_nvfp4_scale_of([](float a, float g) { return std::uint8_t(X::block_scale(a, g)); }, pairs);
    }
}

}  // namespace flipcheck
