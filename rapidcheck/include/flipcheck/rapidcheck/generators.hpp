// RapidCheck generators of raw bit patterns and arrays of them, for every format: draw.hpp's
// draws (RapidCheck's own gen::arbitrary<float>() never yields NaN, infinity, -0 or subnormals,
// generators_test.cpp shows it) with draw.hpp's simplification order as their shrinking.
#pragma once
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/draw.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/format.hpp"

namespace flipcheck::gen {

namespace detail {

template <format F>
rc::Seq<typename F::storage> shrink_bits(typename F::storage b) {
    return rc::seq::fromContainer(draw::simpler_bits<F>(b));
}

// An array shrinks by dropping aligned chunks (halves, quarters, ... single elements: 2n
// candidates, not the n^2 of rc::shrink::removeChunks, which matters at n = 1025), then by
// shrinking one element at a time.
template <format F>
rc::Seq<std::vector<typename F::storage>> shrink_array(const std::vector<typename F::storage>& xs) {
    using V = std::vector<typename F::storage>;
    std::vector<std::pair<std::size_t, std::size_t>> cuts;  // [begin, end) to remove
    for (std::size_t c = xs.size(); c > 0; c /= 2)
        for (std::size_t i = 0; i < xs.size(); i += c) cuts.emplace_back(i, std::min(i + c, xs.size()));
    auto removed = rc::seq::map(rc::seq::fromContainer(std::move(cuts)), [xs](std::pair<std::size_t, std::size_t> cut) {
        V out(xs.begin(), xs.begin() + std::ptrdiff_t(cut.first));
        out.insert(out.end(), xs.begin() + std::ptrdiff_t(cut.second), xs.end());
        return out;
    });
    return rc::seq::concat(std::move(removed), rc::shrink::eachElement(xs, &shrink_bits<F>));
}

}  // namespace detail

// Bit patterns of format F: raw, edge classes with neighbours, and exponent-then-mantissa draws.
template <format F>
rc::Gen<typename F::storage> bits() {
    return rc::Gen<typename F::storage>([](const rc::Random& random, int /*size*/) {
        rc::Random r = random;
        return rc::shrinkable::shrinkRecur(draw::bits<F>(r), &detail::shrink_bits<F>);
    });
}

// Arrays of bit patterns: edge-length, tie, NaN-placement, all -inf, all NaN and +-0 shapes.
template <format F>
rc::Gen<std::vector<typename F::storage>> arrays() {
    using V = std::vector<typename F::storage>;
    return rc::Gen<V>([](const rc::Random& random, int size) {
        rc::Random r = random;
        return rc::shrinkable::shrinkRecur(draw::array<F>(r, size), &detail::shrink_array<F>);
    });
}

// show<F>(bits), show<F>(array): describe.hpp, here too for the tests that say gen::show.
using flipcheck::show;

}  // namespace flipcheck::gen
