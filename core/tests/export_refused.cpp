// Must NOT compile (core/tests/CMakeLists.txt's export_refuses_what_it_cannot_load): a type that is
// none of the plug-in ABI's kinds (here a reducer whose reduce takes floats, not the format's bits)
// is an error when the plug-in is built, with a message that lists what it takes, not a refusal
// when `flipcheck check --plugin` loads it.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "flipcheck/plugin/export.hpp"

struct max_of_floats {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "max_of_floats";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{};
    static std::optional<float> reduce(std::span<const float> xs) {
        if (xs.empty()) return std::nullopt;
        return xs[0];
    }
};

FLIPCHECK_EXPORT_SUBJECTS(max_of_floats);
