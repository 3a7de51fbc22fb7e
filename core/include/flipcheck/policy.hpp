// Policies: what a max, min or argmax *means*. The oracle implements them; subjects declare one.
//
// NaN policy (max shown; min is the mirror image):
//   total_order  the result is the greatest element under IEEE totalOrder:
//                -qNaN < -sNaN < -inf < ... < -0 < +0 < ... < +inf < +sNaN < +qNaN (payloads ordered
//                by magnitude within each). So a +NaN wins a max, a -NaN loses it; min mirrors.
//                This is what integer max over the mapped keys computes with no NaN handling.
//   propagate    if any element is NaN the result is a NaN (IEEE 754-2019 maximum/minimum); which
//                NaN is not specified, so results agree when both are NaN. Otherwise the numeric max.
//   ignore       NaNs are skipped (IEEE maximumNumber/minimumNumber, C fmax/fmin); if every element
//                is NaN the result is a NaN. argmax/argmin of an all-NaN array has no answer (empty).
//   undefined    the caller promises no NaN; inputs containing a NaN are outside the domain and every
//                result is accepted for them.
// Signed-zero policy:
//   ordered      -0 < +0: max(-0, +0) = +0 and min(-0, +0) = -0 whatever the order (IEEE maximum).
//   equal        -0 == +0: either zero is an acceptable result, and they tie for argmax/argmin.
// Tie policy (argmax/argmin among equal elements; equal means identical bits, or either zero under
// zero=equal, or any two NaNs under propagate):
//   lowest_index   the first one (numpy argmax, CUB ArgMax)
//   highest_index  the last one
//   any            any of them
// Empty input (n = 0): reduce and arg_reduce have no result (std::nullopt); subjects must say so too.
#pragma once
#include <array>
#include <cstdint>
#include <sstream>
#include <optional>
#include <string>
#include <string_view>

#include "flipcheck/error.hpp"

namespace flipcheck {

enum class nan_policy : std::uint8_t { total_order, propagate, ignore, undefined };
enum class zero_policy : std::uint8_t { ordered, equal };
enum class tie_policy : std::uint8_t { lowest_index, highest_index, any };
enum class reduce_op : std::uint8_t { max, min };

struct policy {
    nan_policy nan = nan_policy::total_order;
    zero_policy zero = zero_policy::ordered;
    tie_policy ties = tie_policy::lowest_index;
    friend constexpr bool operator==(policy, policy) = default;
};

inline constexpr std::array<std::string_view, 4> nan_policy_names{"total_order", "propagate", "ignore", "undefined"};
inline constexpr std::array<std::string_view, 2> zero_policy_names{"ordered", "equal"};
inline constexpr std::array<std::string_view, 3> tie_policy_names{"lowest_index", "highest_index", "any"};
inline constexpr std::array<std::string_view, 2> reduce_op_names{"max", "min"};

constexpr std::string_view to_string(nan_policy p) noexcept { return nan_policy_names[std::size_t(p)]; }
constexpr std::string_view to_string(zero_policy p) noexcept { return zero_policy_names[std::size_t(p)]; }
constexpr std::string_view to_string(tie_policy p) noexcept { return tie_policy_names[std::size_t(p)]; }
constexpr std::string_view to_string(reduce_op o) noexcept { return reduce_op_names[std::size_t(o)]; }

// "nan=propagate zero=ordered ties=lowest_index": the one way reports, tests and fuzz targets
// print a policy (value reductions leave the ties out: they do not apply).
inline std::string to_string(policy p, bool with_ties = true) {
    std::string s = "nan=" + std::string(to_string(p.nan)) + " zero=" + std::string(to_string(p.zero));
    if (with_ties) s += " ties=" + std::string(to_string(p.ties));
    return s;
}

// to_string's text read back: "nan=propagate zero=ordered ties=lowest_index", words split by
// spaces or commas. nan is required (what a subject does with NaN is the point); zero defaults to
// ordered and ties to lowest_index. With `base`, the text changes only the fields it names (nan
// included: it may be left out). input_error names `what` (the option or file it came from).
inline policy parse_policy(const std::string& text, const std::string& what, const std::optional<policy>& base = std::nullopt) {
    policy p = base.value_or(policy{nan_policy::undefined, zero_policy::ordered, tie_policy::lowest_index});
    bool nan_given = base.has_value();
    const auto bad = [&](const std::string& why) {
        return input_error(what + " '" + text + "': " + why +
                           " (write nan=total_order|propagate|ignore|undefined[,zero=ordered|equal][,ties=lowest_index|highest_index|any])");
    };
    std::string spaced = text;
    for (char& c : spaced)
        if (c == ',') c = ' ';
    std::istringstream words(spaced);
    for (std::string w; words >> w;) {
        const auto eq = w.find('=');
        if (eq == std::string::npos) throw bad("'" + w + "' is not NAME=VALUE");
        const std::string name = w.substr(0, eq), value = w.substr(eq + 1);
        const auto pick = [&](const auto& names, auto& field) {
            for (std::size_t i = 0; i < names.size(); ++i)
                if (names[i] == value) {
                    field = std::remove_reference_t<decltype(field)>(i);
                    return;
                }
            throw bad("no " + name + " policy named '" + value + "'");
        };
        if (name == "nan") pick(nan_policy_names, p.nan), nan_given = true;
        else if (name == "zero") pick(zero_policy_names, p.zero);
        else if (name == "ties") pick(tie_policy_names, p.ties);
        else throw bad("no policy named '" + name + "'");
    }
    if (!nan_given) throw bad("say what it does with NaN");
    return p;
}

}  // namespace flipcheck
