#include "cpu_targets.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <sstream>

#if __has_include(<hwy/targets.h>)
#include <hwy/targets.h>  // TargetName: inline, nothing of libhwy is linked into flipcheck
#define FLIPCHECK_HAVE_HWY_NAMES 1
#endif

#include <fmt/format.h>

#include "flipcheck/error.hpp"

namespace flipcheck::cli {

std::optional<highway_dispatch> highway_dispatch_of(const std::string& plugin) {
    // The library is loaded already (RTLD_LOCAL, plugin/load.hpp): NOLOAD hands back its handle,
    // whose lookups search it and then the libraries it depends on, where a shared libhwy is.
    const std::filesystem::path path(plugin);
    const std::string where = path.has_parent_path() ? plugin : "./" + plugin;
    void* handle = dlopen(where.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (!handle) return std::nullopt;
    // Highway's C++ names (hwy/targets.h: HWY_DLLEXPORT), as the Itanium ABI spells them.
    void* supported = dlsym(handle, "_ZN3hwy16SupportedTargetsEv");
    void* set_supported = dlsym(handle, "_ZN3hwy26SetSupportedTargetsForTestEl");
    dlclose(handle);  // the reference NOLOAD took; the library stays loaded
    if (!supported || !set_supported) return std::nullopt;
    return highway_dispatch{reinterpret_cast<std::int64_t (*)()>(supported), reinterpret_cast<void (*)(std::int64_t)>(set_supported)};
}

std::string cpu_target_name(std::int64_t target) {
#ifdef FLIPCHECK_HAVE_HWY_NAMES
    const std::string name = hwy::TargetName(target);
    if (name != "Unknown" && !name.empty()) return name;
#endif
    return fmt::format("target {:#x}", std::uint64_t(target));
}

std::vector<std::int64_t> asked_cpu_targets(const std::string& option, std::int64_t supported) {
    std::vector<std::int64_t> all;  // Highway's order: the lowest bit is its best target
    for (std::int64_t ts = supported; ts != 0; ts &= ts - 1) all.push_back(ts & -ts);
    std::string names;
    for (std::int64_t t : all) names += (names.empty() ? "" : ", ") + cpu_target_name(t);
    if (option == "all") return all;
    std::vector<std::int64_t> out;
    std::stringstream in(option);
    for (std::string word; std::getline(in, word, ',');) {
        std::int64_t found = 0;
        for (std::int64_t t : all)
            if (cpu_target_name(t) == word) found = t;
        if (!found)
            throw input_error(fmt::format("--cpu-targets {}: {} is not a Highway target this CPU supports (it supports {}; or say all)",
                                          option, word.empty() ? "an empty name" : word, names));
        bool twice = false;
        for (std::int64_t t : out) twice |= t == found;
        if (!twice) out.push_back(found);
    }
    if (out.empty()) throw input_error("--cpu-targets: name a target (" + names + ") or say all");
    return out;
}

}  // namespace flipcheck::cli
