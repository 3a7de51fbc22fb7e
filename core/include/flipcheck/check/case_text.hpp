// A case as text, the one form a failing input takes in a report, a replay line and a case file:
// "binary32: 0x7fc00000,0x80000000 order 1,0". format_case writes it, parse_case reads it back
// with number.hpp's parser (decimal or 0x-hex, never octal). `flipcheck check --case`, the
// RapidCheck macros and the plug-in checker all replay through it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"

namespace flipcheck {

// An order that is a schedule of atomic steps (the interleaved_steps stage) rather than a
// permutation of whole updates: this marker, then the element whose thread takes each step.
inline constexpr std::size_t step_schedule = ~std::size_t(0);
inline bool is_step_schedule(std::span<const std::size_t> order) noexcept { return !order.empty() && order[0] == step_schedule; }

// "binary32: 0x7fc00000,0x80000000 order 1,0": a case as text. The order is written only when it
// is not the index order.
template <case_format F>
std::string format_case(std::span<const typename F::storage> xs, std::span<const std::size_t> order) {
    std::string s = std::string(F::name) + ": " + bits_list<F>(xs);
    if (is_step_schedule(order)) {
        s += " steps ";
        for (std::size_t k = 1; k < order.size(); ++k) s += (k > 1 ? "," : "") + std::to_string(order[k]);
        return s;
    }
    bool identity = true;
    for (std::size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == i;
    if (!identity) {
        s += " order ";
        for (std::size_t i = 0; i < order.size(); ++i) s += (i ? "," : "") + std::to_string(order[i]);
    }
    return s;
}

// Reads format_case's text back: "[format:] bits[, bits...] [order i,j,...|steps t,t,...]", bits in hex
// (0x...) or decimal, separated by commas, spaces or newlines. Throws input_error on anything else.
template <case_format F>
std::pair<std::vector<typename F::storage>, std::vector<std::size_t>> parse_case(std::string_view text) {
    using S = typename F::storage;
    std::string t(text);
    for (char& c : t)
        if (c == ',' || c == '\n' || c == '\r' || c == '\t' || c == ';') c = ' ';
    std::vector<std::string> words;
    for (std::size_t i = 0; i < t.size();) {
        while (i < t.size() && t[i] == ' ') ++i;
        std::size_t j = i;
        while (j < t.size() && t[j] != ' ') ++j;
        if (j > i) words.push_back(t.substr(i, j - i));
        i = j;
    }
    if (words.empty()) throw input_error("the case is empty: a case is \"" + std::string(F::name) + ": BITS[, BITS...]\" as a failure prints it");
    std::size_t w = 0;
    if (w < words.size() && words[w].back() == ':') {
        const std::string name = words[w].substr(0, words[w].size() - 1);
        if (name != F::name)
            throw input_error("the case is for format " + name + ", but the subject reduces " + std::string(F::name));
        ++w;
    }
    auto number = [](const std::string& s, std::uint64_t max, const char* what) {
        std::uint64_t v = 0;
        if (!read_number(s, max, v))
            throw input_error("bad " + std::string(what) + " '" + (s.size() > 40 ? s.substr(0, 40) + "..." : s) + "' in the case (expected " +
                              (max == F::all_ones ? "the bits of one " + std::string(F::name) + ", e.g. " + hex(F::one, F::width)
                                                  : std::string("an element index")) + ")");
        return std::uint64_t(v);
    };
    std::vector<S> xs;
    std::vector<std::size_t> order;
    for (; w < words.size() && words[w] != "order" && words[w] != "steps"; ++w) xs.push_back(S(number(words[w], F::all_ones, "bits")));
    if (w < words.size() && words[w] == "steps") {  // checked as it replays: each must be a thread waiting at a step
        order.push_back(step_schedule);
        // (A lane strategy's neighbours are threads xs.size() and on: the run says which exist.)
        for (++w; w < words.size(); ++w) order.push_back(std::size_t(number(words[w], ~std::uint64_t(0), "index")));
        if (order.size() == 1) throw input_error("the case says steps but lists none");
    } else if (w < words.size()) {
        for (++w; w < words.size(); ++w) order.push_back(std::size_t(number(words[w], ~std::uint64_t(0), "index")));
        std::vector<bool> seen(xs.size(), false);
        bool permutation = order.size() == xs.size();
        for (std::size_t i : order) {
            permutation = permutation && i < xs.size() && !seen[i];
            if (i < xs.size()) seen[i] = true;
        }
        if (!permutation)
            throw input_error("the case's order must list every element index 0.." + std::to_string(xs.size()) +
                              " - 1 exactly once");
    }
    return {std::move(xs), std::move(order)};
}

}  // namespace flipcheck
