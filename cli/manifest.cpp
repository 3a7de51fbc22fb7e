#include "manifest.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define XXH_INLINE_ALL  // header-only: the command stays free of project .so files
#include <xxhash.h>
#include <fmt/format.h>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "output.hpp"

#ifndef FLIPCHECK_COMMIT
#define FLIPCHECK_COMMIT "unknown"
#endif
#ifndef FLIPCHECK_VERSION
#define FLIPCHECK_VERSION "unknown"
#endif
#ifndef FLIPCHECK_BUILD_TYPE
#define FLIPCHECK_BUILD_TYPE "unknown"
#endif

namespace flipcheck::cli {

namespace fs = std::filesystem;

namespace {

std::string hex128(XXH128_hash_t h) { return fmt::format("{:016x}{:016x}", h.high64, h.low64); }

// XXH3-128 of a file's bytes, streamed.
std::string file_digest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "unreadable";
    XXH3_state_t* s = XXH3_createState();
    XXH3_128bits_reset(s);
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        XXH3_128bits_update(s, buf.data(), std::size_t(in.gcount()));
    }
    const auto h = XXH3_128bits_digest(s);
    XXH3_freeState(s);
    return hex128(h);
}

// Whether this thread flushes subnormal results (FTZ) or reads subnormal inputs as zero (DAZ):
// a library the command loads could set them (checks run in IEEE's default regardless:
// float_environment.hpp), and a merge refuses shards whose processes differed.
nlohmann::json float_modes() {
    const float_environment e = current_float_environment();
    return {{"ftz", e.ftz}, {"daz", e.daz}};
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

std::string executable_digest() { return file_digest("/proc/self/exe"); }

nlohmann::json build_identity() {
    std::string flags = FLIPCHECK_BUILD_TYPE;
#if defined(__SANITIZE_ADDRESS__)
    flags += ", AddressSanitizer";
#endif
#if defined(__FAST_MATH__)
    flags += ", -ffast-math";
#endif
#if defined(__AVX512F__)
    flags += ", AVX-512 baseline";
#elif defined(__AVX2__)
    flags += ", AVX2 baseline";
#endif
    nlohmann::json j{{"version", FLIPCHECK_VERSION},
                     {"commit", FLIPCHECK_COMMIT},
                     {"compiler", __VERSION__},
                     {"flags", flags},
                     {"float_modes", float_modes()},
                     {"executable_digest", executable_digest()}};
    return j;
}

fs::path manifest_path(const fs::path& dir, shard part) {
    return dir / fmt::format("shard-{:05}-of-{:05}.json", part.index, part.count);
}

void check_manifest_dir(const fs::path& dir) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw input_error(fmt::format("--manifest {} is a file: give a folder (one manifest per shard goes in it)", dir.string()));
    fs::create_directories(dir, ec);
    if (ec) throw input_error(fmt::format("cannot make the --manifest folder {}: {}", dir.string(), ec.message()));
    if (::access(dir.c_str(), W_OK) != 0) throw input_error(fmt::format("cannot write in the --manifest folder {}", dir.string()));
}

std::string range_end_text(const key_range& r, int key_bits) {
    // A 64-bit range whose end wrapped to 0 ends at 2^64 (report.hpp's key_range).
    if (key_bits == 64 && r.end == 0 && r.begin != 0) return "0x10000000000000000";
    return fmt::format("{:#x}", r.end);
}

std::string results_digest(const nlohmann::json& m) {
    nlohmann::json what{{"workload", m.at("workload")}, {"subject", m.at("subject")}, {"key_bits", m.at("key_bits")}, {"space", m.at("space")},
                        {"shard", m.at("shard")},       {"range", m.at("range")},     {"verdict", m.at("verdict")}};
    nlohmann::json result = m.at("result");
    for (const char* timing : {"seconds", "keys_per_second", "pairs_per_second", "backend", "keys_resumed"}) result.erase(timing);
    what["result"] = result;
    const std::string text = what.dump();  // nlohmann sorts object keys: canonical
    return hex128(XXH3_128bits(text.data(), text.size()));
}

void write_manifest(const fs::path& dir, const shard_result& r) {
    nlohmann::json m{{"manifest", manifest_version},
                     {"workload", r.workload},
                     {"subject", r.subject},
                     {"key_bits", r.key_bits},
                     {"space", {{"begin", fmt::format("{:#x}", r.space.begin)}, {"end", range_end_text(r.space, r.key_bits)}}},
                     {"shard", {{"index", r.part.index}, {"count", r.part.count}}},
                     {"range", {{"begin", fmt::format("{:#x}", r.range.begin)}, {"end", range_end_text(r.range, r.key_bits)}}},
                     {"verdict", r.verdict},
                     {"result", r.result},
                     {"build", build_identity()},
                     {"device", r.device},
                     {"engine", r.engine},
                     {"rerun", r.rerun},
                     {"written", utc_now()}};
    m["digest"] = results_digest(m);
    const fs::path path = manifest_path(dir, r.part);
    write_atomically("the manifest " + path.string(), path.string(), m.dump(2) + "\n");
}

}  // namespace flipcheck::cli
