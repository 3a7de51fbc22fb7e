// What a C++ adapter program shares (highway_adapter.cpp, pstl_adapter.cpp): the adapter format of
// adapters/README.md read and written, for a library that links what the flipcheck binary must not
// (a shared library absent from the GPU machine). Each program answers binary32 and binary64 cases.
//
//     PROGRAM CASES ANSWERS
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace flipcheck_adapter {

// One case: its id (as the answers key it) and its bit patterns.
using cases = std::vector<std::pair<std::string, std::vector<std::uint64_t>>>;

// The cases of one format, split by use: reducers answer `reduce`, sorts answer `sort`.
struct format_cases {
    cases reduce, sort;
};

template <class T, class U>
std::vector<T> values(const std::vector<std::uint64_t>& bits) {
    std::vector<T> v(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const U b = U(bits[i]);
        std::memcpy(&v[i], &b, sizeof b);
    }
    return v;
}

template <class T>
std::string hex_of(T x) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    U b;
    std::memcpy(&b, &x, sizeof b);
    char s[24];
    std::snprintf(s, sizeof s, "0x%0*llx", int(2 * sizeof b), static_cast<unsigned long long>(b));
    return s;
}

// A value or arg subject's entry: `answer` is called on each reduce case's values.
template <class T, class Answer>
nlohmann::json reducer(const std::string& name, const char* kind, const char* op, const char* format, const cases& cs, Answer&& answer) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    nlohmann::json answers = nlohmann::json::object();
    for (const auto& [id, bits] : cs) answers[id] = answer(values<T, U>(bits));
    return {{"name", name}, {"kind", kind}, {"op", op}, {"format", format}, {"answers", answers}};
}

// A sort subject's entry: `sort` sorts each sort case's values in place.
template <class T, class Sort>
nlohmann::json sorter(const std::string& name, const char* format, const cases& cs, Sort&& sort) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    nlohmann::json answers = nlohmann::json::object();
    for (const auto& [id, bits] : cs) {
        auto v = values<T, U>(bits);
        sort(v);
        nlohmann::json out = nlohmann::json::array();
        for (T x : v) out.push_back(hex_of(x));
        answers[id] = out;
    }
    return {{"name", name}, {"kind", "sort"}, {"op", "ascending"}, {"format", format}, {"answers", answers}};
}

// Runs an adapter program: reads CASES, lets `subjects(binary32 cases, binary64 cases)` list the
// subjects' entries, writes ANSWERS. Exit 2 (with a message) on bad arguments or a bad file.
inline int run(int argc, char** argv, const std::string& framework, const std::string& version,
               const std::function<nlohmann::json(const format_cases&, const format_cases&)>& subjects) {
    try {
        if (argc != 3) {
            std::fprintf(stderr, "usage: %s CASES ANSWERS (run by flipcheck audit)\n", argv[0]);
            return 2;
        }
        std::ifstream in(argv[1]);
        const auto doc = nlohmann::json::parse(in);
        if (doc.value("flipcheck_adapter", 0) != 1) {
            std::fprintf(stderr, "%s: not a flipcheck adapter cases file (version 1)\n", argv[1]);
            return 2;
        }
        format_cases f32, f64;
        for (const auto& c : doc.at("cases")) {
            const std::string format = c.at("format");
            if (format != "binary32" && format != "binary64") continue;
            std::vector<std::uint64_t> bits;
            for (const auto& b : c.at("bits")) bits.push_back(std::stoull(b.get<std::string>(), nullptr, 16));
            const std::string id = std::to_string(c.at("id").get<std::uint64_t>());
            auto& f = format == "binary32" ? f32 : f64;
            for (const auto& use : c.at("uses")) (use == "sort" ? f.sort : f.reduce).emplace_back(id, bits);
        }
        std::ofstream out(argv[2]);
        out << nlohmann::json{{"framework", framework}, {"installed", true}, {"version", version}, {"subjects", subjects(f32, f64)}}.dump();
        return out.flush() ? 0 : 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 2;
    }
}

}  // namespace flipcheck_adapter
