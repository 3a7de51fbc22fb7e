// Known-wrong mappings. They exist to be killed: a law set is trusted only while it kills them.
// Each says where its bug class comes from.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "flipcheck/atomic.hpp"
#include "flipcheck/mapping.hpp"

// The laws combine bools with & and | on purpose: no short-circuit branches, so loops vectorize.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wbitwise-instead-of-logical"
#endif

namespace flipcheck::mutants {

// Flips only the sign bit: negatives then sort backwards (a common first attempt).
template <format F>
struct sign_bit_only {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "sign_bit_only";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return storage(b ^ F::sign_mask); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return storage(k ^ F::sign_mask); }
};

// Sets the sign bit of positives but forgets to invert negatives: not even a bijection.
template <format F>
struct no_invert_negatives {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "no_invert_negatives";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        return (b & F::sign_mask) ? b : storage(b | F::sign_mask);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return storage(k & ~F::sign_mask); }
};

// The inverse tests the key's MSB after flipping it, so it takes the wrong branch every time.
template <format F>
struct wrong_inverse_branch {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "wrong_inverse_branch";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return sign_flip<F>::encode(b); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        const storage t = storage(k ^ F::sign_mask);
        return (t & F::sign_mask) ? t : storage(~k);
    }
};

// Right everywhere except that the keys of two patterns are swapped: a bijection that is wrong at
// exactly one successor pair. Random testing rarely hits Bad; the exhaustive sweep always does.
template <format F, typename F::storage A, typename F::storage B>
struct swapped_pair {
    using format = F;
    using storage = typename F::storage;
    using good = key_mapping<F>;
    // Branch-free, so that sweeps over mutants vectorize like sweeps over built-ins.
    FLIPCHECK_HD static constexpr storage swap(storage b) noexcept {
        return storage(b ^ (storage(A ^ B) & storage(0u - storage((b == A) | (b == B)))));
    }
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return good::encode(swap(b)); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return swap(good::decode(k)); }
};

// -0 and +0 trade keys: -0 sorts above +0 (the signed-zero bug class of Triton and sphexa).
template <format F>
struct zeros_swapped : swapped_pair<F, F::sign_mask, F::zero> {
    static constexpr std::string_view name = "zeros_swapped";
};

// Wrong at the single pattern -denorm_min (0x80000001 in binary32), traded with -2*denorm_min.
template <format F>
struct wrong_at_neg_denorm_min : swapped_pair<F, static_cast<typename F::storage>(F::sign_mask | 1u), static_cast<typename F::storage>(F::sign_mask | 2u)> {
    static constexpr std::string_view name = "wrong_at_neg_denorm_min";
};

// Wrong at pi alone (0x40490fdb traded with its successor): no edge value is near it, so random
// testing almost never meets it and only the exhaustive sweep can be trusted to.
template <format F>
struct swapped_pi : swapped_pair<F, static_cast<typename F::storage>(0x40490fdbu), static_cast<typename F::storage>(0x40490fdcu)> {
    static_assert(F::width == 32, "pi's pattern is a binary32 one");
    static constexpr std::string_view name = "wrong_at_pi";
};

// Rust's signed key compared as unsigned, without the sign-bit flip of the unsigned view:
// every negative key has its MSB set, so negatives sort above positives.
template <format F>
struct signed_key_as_unsigned {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "signed_key_as_unsigned";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return storage(signed_key<F>::signed_encode(b)); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        return signed_key<F>::signed_decode(typename signed_key<F>::signed_storage(k));
    }
};

// Unsigned atomicMax/Min straight on the float bits (the libcudacxx bug class): right while every
// value is positive, wrong as soon as signs mix (negatives compare above positives).
template <format F, reduce_op Op>
struct raw_unsigned {
    using format = F;
    using S = typename F::storage;
    static constexpr reduce_op op = Op;
    static constexpr std::string_view name = "raw_unsigned_atomic";
    static constexpr policy declared{nan_policy::undefined, zero_policy::ordered, tie_policy::any};
    FLIPCHECK_HD static constexpr S init() noexcept {
        return Op == reduce_op::max ? S(F::infinity | F::sign_mask) : F::infinity;
    }
    template <class Word>
    FLIPCHECK_HD static void update(Word& w, S bits) noexcept {
        if (Op == reduce_op::max) w.fetch_max(bits);
        else w.fetch_min(bits);
    }
    FLIPCHECK_HD static S result(S word) noexcept { return word; }
};

// A strategy claiming a policy it does not implement: seed 000's snippet has no NaN handling
// (its keys give total_order), so claiming propagate or ignore is a bug.
template <class Strategy, nan_policy Claimed>
struct claims : Strategy {
    static constexpr policy declared{Claimed, Strategy::declared.zero, Strategy::declared.ties};
};

// A fold with std::max's `a < b ? b : a` claiming NaN propagation: the answer depends on where
// the NaN sits (a whole-array reducer, registry.hpp).
template <format F>
struct std_max_fold_propagate {
    using format = F;
    using S = typename F::storage;
    static constexpr reduce_op op = reduce_op::max;
    static constexpr policy declared{nan_policy::propagate, zero_policy::ordered, tie_policy::any};
    static std::optional<S> reduce(std::span<const S> xs) {
        if (xs.empty()) return std::nullopt;
        // acc = std::max(acc, x) = acc < x ? x : acc, on the elements' exact bits.
        S bits = xs[0];
        for (std::size_t i = 1; i < xs.size(); ++i)
            if (F::to_value(bits) < F::to_value(xs[i])) bits = xs[i];
        return bits;
    }
};

// ---- low-precision formats (minifloat.hpp) --------------------------------------------------------

// The seeds' mask routine applied to e8m0 as to any "float": its top bit is an exponent bit, not a
// sign, so the key inverts the upper half of the codes and reverses their order: key(2.0) < key(1.0).
template <format F>
struct sign_xor_key : sign_flip_branchless<F> {
    static constexpr std::string_view name = "sign_xor_key";
};

// Seed 000's IEEE key on a fnuz format: 0x80 is fnuz's NaN, not -0, and the key puts it between
// -denorm_min and +0, in the middle of the numbers.
template <format F>
struct ieee_key_on_fnuz : sign_flip<F> {
    static constexpr std::string_view name = "ieee_key_on_fnuz";
};

// A byte key that takes the sign from bit 7, the container's top bit, for a value whose sign is
// lower down (fp4's bit 3, fp6's bit 5): every code reads as positive, negatives sort backwards,
// and the keys are not the format's.
template <format F>
struct byte_sign_key {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "byte_sign_key";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept { return (b & 0x80) ? storage(~b) : storage(b | 0x80); }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept { return (k & 0x80) ? storage(k & 0x7f) : storage(~k); }
};

// An fp6 key that tests the sign with `b >= sign_mask` on the whole byte instead of the sign bit,
// without masking the unused bits first: right on every canonical code, but a code with a stray
// high bit (a +0 read from a byte with garbage above the value) takes a negative's key.
template <format F>
struct unmasked_key {
    using format = F;
    using storage = typename F::storage;
    static constexpr std::string_view name = "unmasked_key";
    FLIPCHECK_HD static constexpr storage encode(storage b) noexcept {
        return b >= F::sign_mask ? storage(~b & F::value_mask) : storage(b | F::sign_mask);
    }
    FLIPCHECK_HD static constexpr storage decode(storage k) noexcept {
        return (k & F::sign_mask) ? storage(k & ~F::sign_mask) : storage(~k & F::value_mask);
    }
};

}  // namespace flipcheck::mutants

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
