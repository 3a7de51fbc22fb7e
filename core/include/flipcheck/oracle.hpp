// The oracle: reference semantics written with float comparisons, signbit and isnan only, never
// with a mapping (an oracle that reused the bit trick would prove nothing). The one exception is
// NaN payload order inside totalOrder, which is a property of the payload bits themselves: it is
// read from the value's own mantissa, not from any key.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "flipcheck/format.hpp"
#include "flipcheck/policy.hpp"

// -ffast-math lets the compiler assume that no value is NaN or -0 and fold the very comparisons
// the oracle is made of: no run-time guard can undo that (float_environment.hpp guards the run).
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0)
#error "flipcheck's oracle cannot be compiled with -ffast-math or -ffinite-math-only: the compiler may then assume no NaN and no -0 and fold the comparisons it judges with. Compile the code under test with fast math in a file of its own and the test that includes flipcheck without it (docs/environment.md)."
#endif

// The laws combine bools with & and | on purpose: no short-circuit branches, so loops vectorize.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wbitwise-instead-of-logical"
#endif

namespace flipcheck::oracle {

using flipcheck::detail::isnan;
using flipcheck::detail::signbit;

namespace impl {
template <class T> struct uint_of;
template <> struct uint_of<float> { using type = std::uint32_t; };
template <> struct uint_of<double> { using type = std::uint64_t; };

// The payload including the quiet bit (its MSB): comparing it as an integer orders signalling
// below quiet and then by payload, which is how totalOrder orders positive NaNs.
template <class T>
FLIPCHECK_HD inline auto nan_payload(T x) noexcept {
    using U = typename uint_of<T>::type;
    constexpr int mant = sizeof(T) == 4 ? 23 : 52;
    return U(bit_cast<U>(x) & ((U(1) << mant) - 1));
}
}  // namespace impl

// IEEE 754-2019 totalOrder(a, b) minus equality: true iff a precedes b strictly.
// Written with non-short-circuit operators so that a loop over it vectorizes.
template <class T>
FLIPCHECK_HD inline bool total_less(T a, T b) noexcept {
    const bool na = isnan(a), nb = isnan(b), sa = signbit(a), sb = signbit(b);
    const bool numbers = (a < b) | ((a == b) & sa & !sb);
    const auto pa = impl::nan_payload(a), pb = impl::nan_payload(b);
    // Selections are spelled with & and | (not ?:), which GCC's vectorizer needs here.
    const bool payload_less = (sa & (pa > pb)) | (!sa & (pa < pb));
    const bool both_nan = ((sa != sb) & sa) | ((sa == sb) & payload_less);
    return (!na & !nb & numbers) | (na & !nb & sa) | (!na & nb & !sb) | (na & nb & both_nan);
}

// totalOrder(a, b) as IEEE defines it: a <= b in the total order.
template <class T>
FLIPCHECK_HD inline bool total_order(T a, T b) noexcept { return !total_less(b, a); }

// IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0. Which NaN is returned is not modelled
// (IEEE returns a quiet NaN; agreement under propagate compares NaN-ness only).
template <class T>
FLIPCHECK_HD inline T maximum(T a, T b) noexcept {
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    if (a > b) return a;
    if (b > a) return b;
    return signbit(a) ? b : a;
}
template <class T>
FLIPCHECK_HD inline T minimum(T a, T b) noexcept {
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    if (a < b) return a;
    if (b < a) return b;
    return signbit(a) ? a : b;
}
// IEEE 754-2019 maximumNumber/minimumNumber: a NaN loses to a number; -0 < +0.
template <class T>
FLIPCHECK_HD inline T maximum_number(T a, T b) noexcept {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return maximum(a, b);
}
template <class T>
FLIPCHECK_HD inline T minimum_number(T a, T b) noexcept {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return minimum(a, b);
}
// C fmax/fmin: a NaN loses to a number. C leaves the sign of fmax(-0, +0) unspecified; this
// model returns the first operand, so compare fmax-like subjects under zero_policy::equal.
template <class T>
FLIPCHECK_HD inline T fmax(T a, T b) noexcept {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return a < b ? b : a;
}
template <class T>
FLIPCHECK_HD inline T fmin(T a, T b) noexcept {
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return b < a ? b : a;
}
// std::max/std::min: `a < b ? b : a` and `b < a ? b : a`. With a NaN the answer depends on the
// argument order, which is why folds built on them are position-dependent.
template <class T>
FLIPCHECK_HD inline T std_max(T a, T b) noexcept { return a < b ? b : a; }
template <class T>
FLIPCHECK_HD inline T std_min(T a, T b) noexcept { return b < a ? b : a; }

inline constexpr std::size_t npos = ~std::size_t(0);

// Does x strictly beat the current best y for `op` under policy p? Ties are "neither beats".
template <class T>
FLIPCHECK_HD inline bool beats(policy p, reduce_op op, T x, T y) noexcept {
    const bool nx = isnan(x), ny = isnan(y);
    const bool both_zero = (x == T(0)) & (y == T(0));
    if (p.nan == nan_policy::total_order) {
        if (p.zero == zero_policy::equal && both_zero) return false;
        return op == reduce_op::max ? total_less(y, x) : total_less(x, y);
    }
    if (nx || ny) {
        if (p.nan == nan_policy::propagate) return nx && !ny;  // a NaN beats any number
        return !nx && ny;                                      // ignore/undefined: numbers beat NaN
    }
    const T lo = op == reduce_op::max ? y : x, hi = op == reduce_op::max ? x : y;
    if (lo < hi) return true;
    return p.zero == zero_policy::ordered && both_zero && signbit(lo) && !signbit(hi);
}

template <class T>
FLIPCHECK_HD inline bool ties(policy p, reduce_op op, T x, T y) noexcept {
    return !beats(p, op, x, y) && !beats(p, op, y, x);
}

// arg_reduce over raw bits of format F: the index the policy demands, or npos when there is none
// (n = 0, or every element NaN under ignore). With ties = any the lowest index is returned and
// agreement accepts any tied index.
template <format F>
FLIPCHECK_HD inline std::size_t arg_reduce(policy p, reduce_op op, const typename F::storage* xs, std::size_t n) noexcept {
    std::size_t best = npos;
    for (std::size_t i = 0; i < n; ++i) {
        const auto v = F::to_value(xs[i]);
        if (best == npos) {
            best = i;
            continue;
        }
        const auto b = F::to_value(xs[best]);
        if (beats(p, op, v, b) || (p.ties == tie_policy::highest_index && ties(p, op, v, b))) best = i;
    }
    if (best != npos && p.nan == nan_policy::ignore && isnan(F::to_value(xs[best]))) return npos;
    return best;
}

// reduce: the bits of the result. Under ignore an all-NaN input yields a NaN (maximumNumber).
template <format F>
std::optional<typename F::storage> reduce(policy p, reduce_op op, std::span<const typename F::storage> xs) {
    if (xs.empty()) return std::nullopt;
    const std::size_t i = arg_reduce<F>(p, op, xs.data(), xs.size());
    return xs[i == npos ? 0 : i];
}

template <format F>
std::optional<std::size_t> arg_reduce(policy p, reduce_op op, std::span<const typename F::storage> xs) {
    const std::size_t i = arg_reduce<F>(p, op, xs.data(), xs.size());
    if (i == npos) return std::nullopt;
    return i;
}

// numpy argmax/argmin: the first NaN wins; otherwise the first extreme (-0 == +0). Empty: none.
template <class T>
std::optional<std::size_t> arg_reduce_values(std::span<const T> xs, reduce_op op) {
    constexpr policy numpy{nan_policy::propagate, zero_policy::equal, tie_policy::lowest_index};
    if (xs.empty()) return std::nullopt;
    std::size_t best = 0;
    for (std::size_t i = 1; i < xs.size(); ++i)
        if (beats(numpy, op, xs[i], xs[best])) best = i;
    return best;
}

template <class T>
std::optional<std::size_t> numpy_argmax(std::span<const T> xs) {
    return arg_reduce_values(xs, reduce_op::max);
}
template <class T>
std::optional<std::size_t> numpy_argmin(std::span<const T> xs) {
    return arg_reduce_values(xs, reduce_op::min);
}
// Are two results of a reduction the same answer under policy p? Identical bits always are;
// any two NaNs are under propagate/ignore (IEEE leaves the NaN unspecified); either zero is
// under zero=equal.
template <format F>
FLIPCHECK_HD inline bool same_result(policy p, typename F::storage a, typename F::storage b) noexcept {
    if (a == b) return true;
    const auto va = F::to_value(a), vb = F::to_value(b);
    if (p.nan != nan_policy::total_order && isnan(va) && isnan(vb)) return true;
    return p.zero == zero_policy::equal && va == 0 && vb == 0;
}

}  // namespace flipcheck::oracle

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
