// Must NOT compile (core/tests/CMakeLists.txt's export_refuses_a_lane_strategy): the plug-in ABI
// cannot carry a lane strategy, so exporting one is an error when the plug-in is built, with a
// message that says what to do, not a refusal when `flipcheck check --plugin` loads it.
#include <cstdint>
#include <string_view>

#include "flipcheck/export.hpp"

struct bf16_max_lane {
    using format = flipcheck::bfloat16;
    using shared_word = std::uint32_t;
    static constexpr std::string_view name = "bf16_max_lane";
    static constexpr flipcheck::reduce_op op = flipcheck::reduce_op::max;
    static constexpr flipcheck::policy declared{};
    static constexpr std::uint16_t init() noexcept { return 0; }
    template <class Word>
    static void update(Word& w, unsigned offset, std::uint16_t bits) noexcept {
        w.fetch_max(std::uint32_t(bits) << (offset * 8));
    }
    static std::uint16_t result(std::uint16_t lane) noexcept { return lane; }
};
static_assert(flipcheck::atomic::lane_atomic_strategy<bf16_max_lane>);

FLIPCHECK_EXPORT_SUBJECTS(bf16_max_lane);
