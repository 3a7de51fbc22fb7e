// Words for bits and counterexamples: what every failure message of a user's subject is made of
// (the plug-in checker, the RapidCheck macros, `flipcheck check`). Host only.
#pragma once
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/format.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/mapping.hpp"

namespace flipcheck {

// "0x8000": a key or pattern in hex, zero-padded to the format's width.
inline std::string hex(std::uint64_t v, int width_bits) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llx", width_bits / 4, static_cast<unsigned long long>(v));
    return buf;
}

// "0x80000000 (-0 zero)": hex bits, value and class.
template <format F>
std::string show(typename F::storage b) {
    const classification c = F::classify(b);
    char buf[96];
    std::snprintf(buf, sizeof buf, "0x%0*llx (%.*g %s)", F::width / 4, static_cast<unsigned long long>(b),
                  F::width == 64 ? 17 : 9, static_cast<double>(F::to_value(b)), std::string(to_string(c.kind)).c_str());
    return buf;
}

// "n=2 [0x80000000 (-0 zero), 0x00000000 (0 zero)]", the first `limit` elements.
template <format F>
std::string show(std::span<const typename F::storage> xs, std::size_t limit = 16) {
    std::string s = "n=" + std::to_string(xs.size()) + " [";
    for (std::size_t i = 0; i < xs.size() && i < limit; ++i) s += (i ? ", " : "") + show<F>(xs[i]);
    return s + (xs.size() > limit ? ", ...]" : "]");
}
template <format F>
std::string show(const std::vector<typename F::storage>& xs, std::size_t limit = 16) {
    return show<F>(std::span<const typename F::storage>(xs), limit);
}

// "0x80000000,0x00000000": an array as a replay line takes it (parse_bits reads it back).
// What a case's text (check/reducers.hpp's format_case and parse_case) needs of its words' format: every
// format, and a packed pair of fp4 codes (minifloat.hpp's packed_pair, whose words are bytes).
template <class F>
concept case_format = requires {
    typename F::storage;
    { F::name } -> std::convertible_to<std::string_view>;
    { F::width } -> std::convertible_to<int>;
    { F::all_ones } -> std::convertible_to<typename F::storage>;
    { F::one } -> std::convertible_to<typename F::storage>;
};

template <case_format F>
std::string bits_list(std::span<const typename F::storage> xs) {
    std::string s;
    for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? "," : "") + hex(xs[i], F::width);
    return s;
}

// One sentence that says what went wrong at a mapping's key, in terms of its law (see
// counterexample in law.hpp for what each field holds per law).
template <format F>
std::string describe_mapping_failure(std::string_view mapping_name, const counterexample& c) {
    using S = typename F::storage;
    auto bits = [](std::uint64_t v) { return show<F>(S(v)); };
    auto key = [](std::uint64_t v) { return hex(v, F::width); };
    std::string s = std::string(mapping_name) + " over " + std::string(F::name) + ": " + std::string(to_string(c.law)) + " fails: ";
    switch (c.law) {
        case law_id::round_trip_key:
            return s + "key " + key(c.key) + " decodes to " + bits(c.bits) + ", which encodes to " + key(c.actual);
        case law_id::round_trip_bits:
            return s + "pattern " + bits(c.bits) + " comes back from encode/decode as " + bits(c.actual);
        case law_id::successor_order:
            return s + "key " + key(c.key) + " decodes to " + bits(c.bits) + " and the next key to " + bits(c.other) +
                   ", which does not follow it in totalOrder";
        case law_id::zero_placement:
            return s + "-0 has key " + key(c.key) + (c.other ? ", the last key" : ", but the next key decodes to " + bits(c.actual)) +
                   " (expected +0 right above -0)";
        case law_id::reducer_agreement:
        case law_id::arg_reducer_agreement:
            return s + "(a reducer's law: describe_reducer_failure says it)";
        default:  // the NaN laws: a key on the wrong side of a bound
            return s + "key " + key(c.actual) + " of " + bits(c.bits) + " is on the wrong side of bound key " + key(c.expected);
    }
}
template <mapping M>
std::string describe(const counterexample& c) {
    return describe_mapping_failure<typename M::format>(M::name, c);
}

// "expected 0x7fc00000 (nan NaN), got 0x3f800000 (1 normal) on n=2 [...]": a reducer's answer
// (bits, or an index for an arg reducer) against the oracle's, from reducer_laws' counterexample.
template <format F>
std::string describe_reducer_failure(const counterexample& c, std::span<const typename F::storage> xs) {
    using S = typename F::storage;
    const bool index = c.law == law_id::arg_reducer_agreement;
    auto result = [&](bool empty, std::uint64_t v) -> std::string {
        if (empty) return "nothing";
        if (!index) return show<F>(S(v));
        return "index " + std::to_string(v) + (v < xs.size() ? " (" + show<F>(xs[v]) + ")" : " (out of range)");
    };
    return "expected " + result(c.expected_empty, c.expected) + ", got " + result(c.actual_empty, c.actual) + " on " +
           show<F>(xs);
}

}  // namespace flipcheck
