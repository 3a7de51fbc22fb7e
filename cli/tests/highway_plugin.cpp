// A plug-in that dispatches through Highway at run time (plugin_check_test's --cpu-targets case):
// an amax of binary32 whose vector loop is right on every target, but whose lanes are then combined
// by a loop written for 128-bit vectors, four lanes of 32 bits. Where a vector holds more (AVX2:
// eight) it drops the rest, so the verdict depends on the target Highway picks: the bug that a
// check on one machine's dispatch sees or misses by chance. It links Debian's shared libhwy, so
// flipcheck can choose the target from outside (hwy::SetSupportedTargetsForTest).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "highway_plugin.cpp"
#include <hwy/foreach_target.h>  // this file again, once per target
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace highway_plugin::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::uint32_t magnitude_max(const std::uint32_t* xs, std::size_t n) {
    const hn::ScalableTag<std::uint32_t> d;
    const std::size_t lanes = hn::Lanes(d);
    const auto magnitude = hn::Set(d, 0x7fffffffu);  // |x|'s bits order like |x|, NaNs above infinity
    auto best = hn::Zero(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) best = hn::Max(best, hn::And(hn::LoadU(d, xs + i), magnitude));
    std::uint32_t each[64] = {};
    hn::StoreU(best, d, each);
    std::uint32_t out = 0;
    for (std::size_t l = 0; l < 4 && l < lanes; ++l) out = std::max(out, each[l]);  // the bug: four lanes, as on SSE
    for (; i < n; ++i) out = std::max(out, xs[i] & 0x7fffffffu);
    return out;
}

}  // namespace highway_plugin::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "flipcheck/amax.hpp"
#include "flipcheck/plugin/export.hpp"

namespace highway_plugin {
HWY_EXPORT(magnitude_max);

struct four_lane_amax {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "four_lane_amax";
    static constexpr flipcheck::nan_policy declared = flipcheck::nan_policy::propagate;
    static std::uint32_t amax(std::span<const std::uint32_t> xs) { return HWY_DYNAMIC_DISPATCH(magnitude_max)(xs.data(), xs.size()); }
};
}  // namespace highway_plugin

FLIPCHECK_EXPORT_SUBJECTS(highway_plugin::four_lane_amax);
#endif
