// `check --plugin --cpu-targets`: a plug-in that dispatches through Highway at run time, checked on
// each SIMD target this CPU supports, not only on the one Highway picks. The vector width decides
// bugs (a lane loop written for four lanes, a tail handled on one target only), so a verdict holds
// for the target it ran on, and each row names it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flipcheck::cli {

// Highway's run-time dispatch in a process that has loaded the plug-in: its SupportedTargets() and
// SetSupportedTargetsForTest(), found in the library or the libraries it links (a shared libhwy, or
// a static one whose symbols the library exports). nullopt where neither is there.
struct highway_dispatch {
    std::int64_t (*supported)();
    void (*set_supported)(std::int64_t);
};
std::optional<highway_dispatch> highway_dispatch_of(const std::string& plugin);

// Highway's name of one target bit ("AVX2", "SSE4", "EMU128"); "target 0x..." for a bit it does
// not name.
std::string cpu_target_name(std::int64_t target);

// The targets `--cpu-targets` asks for, best first, of those `supported` holds: "all", or names
// separated by commas. input_error for a name this CPU does not support, naming those it does.
std::vector<std::int64_t> asked_cpu_targets(const std::string& option, std::int64_t supported);

}  // namespace flipcheck::cli
