#include "output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "flipcheck/error.hpp"

namespace flipcheck::cli {

namespace fs = std::filesystem;

json_file::json_file(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
    if (path_.empty()) return;
    std::error_code ec;
    if (fs::is_directory(path_, ec)) throw input_error(fmt::format("{} {} is a folder: give a file name", option_, path_));
    const fs::path folder = fs::path(path_).has_parent_path() ? fs::path(path_).parent_path() : fs::path(".");
    if (!fs::is_directory(folder, ec))
        throw input_error(fmt::format("cannot write {} {}: the folder {} does not exist", option_, path_, folder.string()));
    // A character device (/dev/stdout, /dev/null, /dev/full) cannot take a rename: it is written
    // in place, and its write is checked all the same.
    if (fs::exists(path_, ec) && !fs::is_regular_file(path_, ec)) return;
    if (::access(folder.c_str(), W_OK) != 0)
        throw input_error(fmt::format("cannot write {} {}: the folder {} is not writable", option_, path_, folder.string()));
}

void json_file::write(std::string_view verdict, const nlohmann::json& doc) const {
    if (path_.empty()) return;
    nlohmann::ordered_json out{{"schema", json_schema_version}, {"verdict", verdict}};
    for (const auto& [k, v] : doc.items()) out[k] = v;
    write_atomically(option_ + " " + path_, path_, out.dump(2) + "\n");
}

void write_atomically(const std::string& what, const std::string& path, std::string_view text) {
    std::error_code ec;
    const bool in_place = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
    const std::string tmp = in_place ? path : fmt::format("{}.{}.tmp", path, ::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) throw input_error(fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !closed) {
        const int why = wrote ? errno : err;
        if (!in_place) fs::remove(tmp, ec);
        throw input_error(fmt::format("cannot write {}: {} (the previous file, if any, is unchanged)", what, std::strerror(why)));
    }
    if (in_place) return;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw input_error(fmt::format("cannot write {}: {}", what, ec.message()));
    }
}

bool stdout_intact() {
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    std::fprintf(stderr, "flipcheck: the report could not be written to standard output (%s): the run's results are lost\n",
                 std::strerror(errno));
    return false;
}

}  // namespace flipcheck::cli
