// Broken plug-in libraries for plugin_check_test.cpp, one per BAD_PLUGIN value: each must be
// refused with exit code 2 (or, for a subject that throws, 3) and a message that says why.
#include <stdexcept>

#include "flipcheck/export.hpp"

#if BAD_PLUGIN == 1  // no entry point at all
extern "C" int not_a_flipcheck_plugin() { return 1; }
#elif BAD_PLUGIN == 2  // built for another ABI version
extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v1* flipcheck_plugin(void) {
    static const flipcheck_plugin_v1 p{99, 0, nullptr};
    return &p;
}
#elif BAD_PLUGIN == 3  // two subjects with one name
struct a {
    using format = flipcheck::binary16;
    static constexpr std::string_view name = "twin";
    static constexpr std::uint16_t encode(std::uint16_t b) { return b; }
    static constexpr std::uint16_t decode(std::uint16_t k) { return k; }
};
struct b : a {};
FLIPCHECK_EXPORT_SUBJECTS(a, b);
#elif BAD_PLUGIN == 4  // a subject whose code throws
struct thrower {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "thrower";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{};
    static std::optional<std::uint32_t> reduce(std::span<const std::uint32_t> xs) {
        if (xs.size() > 1) throw std::runtime_error("my kernel launch failed: out of memory");
        return xs.empty() ? std::nullopt : std::optional(xs[0]);
    }
};
FLIPCHECK_EXPORT_SUBJECTS(thrower);
#endif
