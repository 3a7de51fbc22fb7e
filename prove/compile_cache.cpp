#include "compile_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace flipcheck::prove {

namespace fs = std::filesystem;

std::string compile_cache_folder() {
    if (const char* c = std::getenv("FLIPCHECK_PROVE_CACHE")) return std::string(c) == "none" ? "" : c;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/flipcheck/prove";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/flipcheck/prove";
    return "";
}

std::string compile_key(const std::string& command, const std::string& compiler, std::string preprocessed, const std::string& scratch) {
    for (std::size_t at = preprocessed.find(scratch); !scratch.empty() && at != std::string::npos; at = preprocessed.find(scratch, at))
        preprocessed.erase(at, scratch.size());
    // The compiler's identity: its resolved file, size and time (an upgraded clang is a new key).
    std::error_code ec;
    const fs::path real = fs::canonical(compiler, ec);
    const std::string identity = real.string() + "|" + std::to_string(ec ? 0 : fs::file_size(real, ec)) + "|" +
                                 std::to_string(ec ? 0 : fs::last_write_time(real, ec).time_since_epoch().count());
    XXH3_state_t* s = XXH3_createState();
    XXH3_128bits_reset(s);
    for (const std::string_view part : {std::string_view(command), std::string_view(identity), std::string_view(preprocessed)}) {
        XXH3_128bits_update(s, part.data(), part.size());
        XXH3_128bits_update(s, "", 1);  // a separator no part holds
    }
    const XXH128_hash_t h = XXH3_128bits_digest(s);
    XXH3_freeState(s);
    char hex[33];
    std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64), static_cast<unsigned long long>(h.low64));
    return hex;
}

std::string cached_compile(const std::string& key) {
    const std::string folder = compile_cache_folder();
    if (folder.empty()) return "";
    const fs::path entry = fs::path(folder) / key;
    // Its library is loaded and run: only an entry this user made that no one else may change
    // (owned by this user, not group- or world-writable, nor its folder) is used.
    auto trusted = [](const fs::path& p) {
        struct stat st{};
        return ::lstat(p.c_str(), &st) == 0 && st.st_uid == ::geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)) && !S_ISLNK(st.st_mode);
    };
    std::error_code ec;
    return trusted(folder) && trusted(entry) && trusted(entry / "subject.bc") && trusted(entry / "subject.so") ? entry.string() : "";
}

void keep_compile(const std::string& key, const std::string& bitcode, const std::string& library) {
    const std::string folder = compile_cache_folder();
    if (folder.empty()) return;
    std::error_code ec;
    fs::create_directories(folder, ec);
    const fs::path entry = fs::path(folder) / key, partial = fs::path(folder) / (key + ".partial." + std::to_string(::getpid()));
    fs::create_directory(partial, ec);
    if (ec) return;
    fs::copy_file(bitcode, partial / "subject.bc", ec);
    if (!ec) fs::copy_file(library, partial / "subject.so", ec);
    if (!ec) fs::rename(partial, entry, ec);  // fails where another run kept it first: theirs is the same
    fs::remove_all(partial, ec);
    // The oldest entries past 256 go (a few hundred kilobytes each).
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    for (const auto& e : fs::directory_iterator(folder, ec))
        if (e.is_directory(ec) && e.path().filename().string().find('.') == std::string::npos) entries.emplace_back(e.last_write_time(ec), e.path());
    if (entries.size() <= 256) return;
    std::sort(entries.begin(), entries.end());
    for (std::size_t i = 0; i + 256 < entries.size(); ++i) fs::remove_all(entries[i].second, ec);
}

}  // namespace flipcheck::prove
