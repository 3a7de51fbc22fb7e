// Max/min over packed pairs (two fp4 values per byte, minifloat.hpp's packed_pair), as NVFP4 and
// MXFP4 code reduces them: lane by lane, so that the two values of a byte never interact. The
// oracle is the ordinary one per lane; a reducer that keys the whole byte is the bug class.
#pragma once
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "flipcheck/law.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/minifloat.hpp"

namespace flipcheck::packed {

// Your reducer of packed pairs, for check_pair_reducer (exhaustive.hpp), FLIPCHECK_CHECK_PAIR_REDUCER
// and the plug-in: the format of each lane, the pair layout, and a reduce over whole bytes.
//   using format = flipcheck::float4_e2m1fn;  using pair = flipcheck::packed_pair<format>;
//   name, op, declared;  static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> bytes);
// (Without `pair` the same type is an ordinary reducer of fp4 codes, one per byte.)
template <class R>
concept pair_reducer_function = format<typename R::format> && std::same_as<typename R::pair, packed_pair<typename R::format>> &&
    requires(std::span<const std::uint8_t> xs) {
        { R::name } -> std::convertible_to<std::string_view>;
        { R::op } -> std::convertible_to<reduce_op>;
        { R::declared } -> std::convertible_to<policy>;
        { R::reduce(xs) } -> std::convertible_to<std::optional<std::uint8_t>>;
    };

// Each lane folded by its own format-aware key: right under total_order (these formats have no
// NaN) with -0 below +0.
template <format F, reduce_op Op>
struct lanewise {
    using format = F;
    using pair = packed_pair<F>;
    using K = key_mapping<F>;
    static constexpr std::string_view name = "lanewise_key";
    static constexpr reduce_op op = Op;
    static constexpr policy declared{nan_policy::total_order, zero_policy::ordered, tie_policy::any};
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> xs) {
        if (xs.empty()) return std::nullopt;
        std::uint8_t k[2];
        for (int l = 0; l < 2; ++l) {
            k[l] = K::encode(pair::lane(xs[0], l));
            for (std::size_t i = 1; i < xs.size(); ++i) {
                const std::uint8_t key = K::encode(pair::lane(xs[i], l));
                k[l] = Op == reduce_op::max ? (key > k[l] ? key : k[l]) : (key < k[l] ? key : k[l]);
            }
        }
        return pair::pack(K::decode(k[0]), K::decode(k[1]));
    }
};

// The bug: one 8-bit key over the whole byte (the seeds' sign-flip on bit 7, lane 1's sign), as if
// the pair were one number. Lane 0 then only breaks lane 1's ties, and lane 1's order decides both.
template <format F, reduce_op Op>
struct one_byte_key {
    using format = F;
    using pair = packed_pair<F>;
    static constexpr std::string_view name = "one_byte_key";
    static constexpr reduce_op op = Op;
    static constexpr policy declared{nan_policy::total_order, zero_policy::ordered, tie_policy::any};
    static std::optional<std::uint8_t> reduce(std::span<const std::uint8_t> xs) {
        if (xs.empty()) return std::nullopt;
        using K = sign_flip_branchless<float8_e4m3fn>;  // a byte's sign-flip key; the format only names the width
        std::uint8_t k = K::encode(xs[0]);
        for (std::size_t i = 1; i < xs.size(); ++i) {
            const std::uint8_t key = K::encode(xs[i]);
            k = Op == reduce_op::max ? (key > k ? key : k) : (key < k ? key : k);
        }
        return K::decode(k);
    }
};

// Whether `actual` is the right answer for xs, lane by lane: the first lane that disagrees, as
// reducer_laws' counterexample over that lane's values (key = the lane).
template <format F>
std::optional<counterexample> agreement(policy p, reduce_op op, std::span<const std::uint8_t> xs,
                                        std::optional<std::uint8_t> actual) {
    using pair = packed_pair<F>;
    std::vector<std::uint8_t> lane;
    for (int l = 0; l < 2; ++l) {
        lane.clear();
        for (std::uint8_t x : xs) lane.push_back(pair::lane(x, l));
        std::optional<std::uint8_t> got;
        if (actual) got.emplace(pair::lane(*actual, l));
        if (auto c = reducer_laws<F>::agreement(p, op, lane, got)) {
            c->lane = std::uint64_t(l);
            return c;
        }
    }
    return std::nullopt;
}

}  // namespace flipcheck::packed
