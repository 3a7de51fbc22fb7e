// Rounding modes as a dimension of a check: a subject that computes with floats (a scale recipe's
// amax / max_E, a quantizer's x * s) can give another answer when its caller has changed the
// rounding mode with fesetround, and a kernel library called from such code then gives other
// scales. A subject says which modes it is right in, as `rounding_modes`:
//
//     static constexpr flipcheck::rounding_claim rounding_modes = flipcheck::any_rounding_mode;
//         // checked in all four modes: each must give the oracle's answer
//     static constexpr flipcheck::rounding_claim rounding_modes = flipcheck::needs_rounding(flipcheck::rounding_mode::to_nearest);
//         // checked in that mode only, and reported so
//
// A subject that says nothing is checked in round-to-nearest only, and its report says that the
// mode was not declared. The oracle always runs in IEEE's default environment: only the subject's
// own calls run under the mode (in_rounding_mode), so a counterexample is the subject's.
// The device has no rounding mode (each instruction names its own): this is a host dimension.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/float_environment.hpp"

namespace flipcheck {

template <class X>
constexpr rounding_claim declared_rounding() {
    if constexpr (requires { X::rounding_modes; }) return rounding_claim(X::rounding_modes);
    else return rounding_claim{false, rounding_mode::to_nearest, false};
}

// What a report says about the modes a subject was checked in.
constexpr const char* rounding_words(rounding_claim c) {
    if (c.any) return "every rounding mode (declared any)";
    if (!c.declared) return "to_nearest only (no rounding_modes declared)";
    switch (c.needs) {
        case rounding_mode::upward: return "upward only (declared)";
        case rounding_mode::downward: return "downward only (declared)";
        case rounding_mode::toward_zero: return "toward_zero only (declared)";
        default: return "to_nearest only (declared)";
    }
}

namespace detail {
// Makes `v` look written after the mode was set and read before it is restored, so that the
// compiler cannot compute the subject's answer outside the mode's scope (GCC does not model the
// rounding mode: it may move arithmetic across fesetround).
template <class T>
inline void fence_value(T& v) {
    asm volatile("" : "+m"(v) : : "memory");
}
}  // namespace detail

// X with every one of its calls made under rounding mode M (and the mode restored after): the same
// shape, the same declarations, so that any check of X checks it in M.
template <class X, rounding_mode M>
struct in_rounding_mode : X {
    static constexpr rounding_mode mode = M;
#define FLIPCHECK_DETAIL_UNDER_MODE(fn)                                     \
    template <class... A>                                                   \
        requires requires(A... a) { X::fn(a...); }                          \
    static auto fn(A... a) {                                                \
        const rounding_scope scope(M);                                      \
        (detail::fence_value(a), ...);                                      \
        auto r = X::fn(a...);                                               \
        detail::fence_value(r);                                             \
        return r;                                                           \
    }
    FLIPCHECK_DETAIL_UNDER_MODE(amax)
    FLIPCHECK_DETAIL_UNDER_MODE(scale)
    FLIPCHECK_DETAIL_UNDER_MODE(scale_value)
    FLIPCHECK_DETAIL_UNDER_MODE(tensor_scale)
    FLIPCHECK_DETAIL_UNDER_MODE(decode)
    FLIPCHECK_DETAIL_UNDER_MODE(block_scale)
    FLIPCHECK_DETAIL_UNDER_MODE(quantize)
    FLIPCHECK_DETAIL_UNDER_MODE(quantize_scaled)
    FLIPCHECK_DETAIL_UNDER_MODE(key)
#undef FLIPCHECK_DETAIL_UNDER_MODE
};

// Calls f.template operator()<M>() with M the compile-time twin of m.
template <class F>
decltype(auto) with_rounding_mode(rounding_mode m, F&& f) {
    switch (m) {
        case rounding_mode::upward: return f.template operator()<rounding_mode::upward>();
        case rounding_mode::downward: return f.template operator()<rounding_mode::downward>();
        case rounding_mode::toward_zero: return f.template operator()<rounding_mode::toward_zero>();
        default: return f.template operator()<rounding_mode::to_nearest>();
    }
}

// "Right in any mode", judged: r is the check in modes[0] (to_nearest for a declared any), and
// check(mode) runs the same check in each later mode while r passes; the first failure becomes r's
// verdict, named with its mode (a replay runs the case in it). One loop for the built-ins
// (check_scaling) and a plug-in's --rounding any (cli/check.cpp).
template <class Check>
void check_other_modes(std::span<const rounding_mode> modes, scaling_report& r, Check&& check) {
    r.failed_mode = modes.front();
    for (std::size_t i = 1; i < modes.size() && r.passed(); ++i) {
        const scaling_report m = check(modes[i]);
        r.checks += m.checks;
        if (m.passed()) continue;
        r.counterexample = std::string("under rounding mode ") + to_string(modes[i]) + " (right to_nearest): " + m.counterexample.value_or("");
        r.replay = m.replay;
        r.failed = m.failed;
        r.failed_mode = modes[i];
    }
}

}  // namespace flipcheck
