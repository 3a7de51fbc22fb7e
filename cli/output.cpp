#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "flipcheck/run/machine.hpp"
#include "flipcheck/error.hpp"

namespace flipcheck::cli {

namespace fs = std::filesystem;

namespace {

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// The standard stream (1 or 2) that `st` is, if any.
std::optional<int> standard_stream(const struct stat& st) {
    for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
        struct stat s{};
        if (::fstat(fd, &s) == 0 && same_file(s, st)) return fd;
    }
    return std::nullopt;
}

const char* kind_text(mode_t m) {
    return S_ISDIR(m) ? "a folder" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file flipcheck can write";
}

}  // namespace

// Where an output goes decides how it is written. flipcheck renames a temporary file only onto a
// plain file (new, or an existing regular file, through a link when the path is one): a rename
// onto /dev/stdout, a link the system owns, would replace the link itself (as root it did, with
// `--json /dev/stdout > file`). A path that is one of flipcheck's own standard streams (/dev/stdout,
// /dev/fd/1, /proc/self/fd/2) is written through that stream, in order with the report; a
// character device (/dev/null, /dev/full) or a FIFO (a named pipe, `>(jq .)`) is written in place,
// and a FIFO nobody reads is refused rather than waited on.
output_target classify_output(const std::string& what, const std::string& path) {
    struct stat link{}, st{};
    if (::lstat(path.c_str(), &link) != 0) {
        if (errno != ENOENT) throw input_error(fmt::format("cannot write {}: {}", what, std::strerror(errno)));
        const fs::path folder = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
        std::error_code ec;
        if (!fs::is_directory(folder, ec))
            throw input_error(fmt::format("cannot write {}: the folder {} does not exist", what, folder.string()));
        if (::access(folder.c_str(), W_OK) != 0)
            throw input_error(fmt::format("cannot write {}: the folder {} is not writable", what, folder.string()));
        return {output_target::file, path};
    }
    if (::stat(path.c_str(), &st) != 0)
        throw input_error(fmt::format("cannot write {}: it is a link to nothing ({})", what, std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) throw input_error(fmt::format("{} is a folder: give a file name", what));
    const auto stream = standard_stream(st);
    if (stream && (S_ISLNK(link.st_mode) || !S_ISREG(st.st_mode)))
        return {*stream == STDOUT_FILENO ? output_target::standard_output : output_target::standard_error, path};
    if (S_ISREG(st.st_mode)) {
        if (stream)
            throw input_error(fmt::format("{} is the file standard {} already goes to: give another file (or /dev/std{})", what,
                                          *stream == STDOUT_FILENO ? "output" : "error", *stream == STDOUT_FILENO ? "out" : "err"));
        std::error_code ec;
        const fs::path target = S_ISLNK(link.st_mode) ? fs::canonical(path, ec) : fs::path(path);
        if (ec) throw input_error(fmt::format("cannot write {}: {}", what, ec.message()));
        const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
        if (::access(folder.c_str(), W_OK) != 0)
            throw input_error(fmt::format("cannot write {}: the folder {} is not writable", what, folder.string()));
        return {output_target::file, target.string()};
    }
    if (S_ISCHR(st.st_mode)) return {output_target::device, path};
    if (S_ISFIFO(st.st_mode)) return {output_target::fifo, path};
    throw input_error(fmt::format("{} is {}: give a file name", what, kind_text(st.st_mode)));
}

void refuse_same_output(const std::string& option_a, const std::string& a, const std::string& option_b, const std::string& b) {
    if (a.empty() || b.empty()) return;
    std::error_code ea, eb;
    const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
    struct stat sa{}, sb{};
    const bool both_exist = ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0;
    // Two outputs in one file: the later would overwrite the earlier (a report over a checkpoint).
    // Devices that take any number of writers (/dev/null) are not one result's file.
    if (both_exist && same_file(sa, sb) && !S_ISREG(sa.st_mode)) return;
    if ((both_exist && same_file(sa, sb)) || (!ea && !eb && ca == cb))
        throw input_error(fmt::format("{} and {} name the same file ({}): each output needs its own", option_a, option_b, a));
}

json_file::json_file(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
    if (path_.empty()) return;
    classify_output(option_ + " " + path_, path_);  // a bad path fails here, before any work
}

void json_file::write(std::string_view verdict, const nlohmann::json& doc) const {
    if (path_.empty()) return;
    nlohmann::ordered_json out{{"schema", json_schema_version}, {"verdict", verdict}};
    for (const auto& [k, v] : doc.items()) out[k] = v;
    if (!out.contains("environment")) out["environment"] = run::environment_json();
    write_atomically(option_ + " " + path_, path_, out.dump(2) + "\n");
}

namespace {

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t w = ::write(fd, text.data(), text.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        text.remove_prefix(std::size_t(w));
    }
    return true;
}

[[noreturn]] void cannot(const std::string& what, int err, const char* after = "") {
    throw input_error(fmt::format("cannot write {}: {}{}", what, std::strerror(err), after));
}

void write_stream(const std::string& what, std::FILE* stream, std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), stream) != text.size() || std::fflush(stream) != 0) cannot(what, errno);
}

void write_in_place(const std::string& what, const std::string& path, int flags, std::string_view text) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO) throw input_error(fmt::format("cannot write {}: no process is reading that FIFO", what));
        cannot(what, errno);
    }
    if (flags & O_NONBLOCK) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a reader is there: wait for it as a pipe does
    const bool wrote = write_all(fd, text);
    const int err = errno;
    if (::close(fd) != 0 && wrote) cannot(what, errno);
    if (!wrote) cannot(what, err);
}

void write_file(const std::string& what, const std::string& path, std::string_view text) {
    const std::string tmp = fmt::format("{}.{}.tmp", path, ::getpid());
    std::error_code ec;
    fs::remove(tmp, ec);  // a crashed run's, of the same process id: "x" below never writes through a link
    std::FILE* f = std::fopen(tmp.c_str(), "wx");
    if (!f) cannot(what, errno);
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !closed) {
        const int why = wrote ? errno : err;
        fs::remove(tmp, ec);
        cannot(what, why, " (the previous file, if any, is unchanged)");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw input_error(fmt::format("cannot write {}: {}", what, ec.message()));
    }
}

}  // namespace

void write_atomically(const std::string& what, const std::string& path, std::string_view text) {
    const output_target t = classify_output(what, path);
    switch (t.how) {
        case output_target::standard_output: return write_stream(what, stdout, text);
        case output_target::standard_error: return write_stream(what, stderr, text);
        case output_target::device: return write_in_place(what, t.path, O_WRONLY, text);
        case output_target::fifo: return write_in_place(what, t.path, O_WRONLY | O_NONBLOCK, text);
        case output_target::file: return write_file(what, t.path, text);
    }
}

bool stdout_intact() {
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    std::fprintf(stderr, "flipcheck: the report could not be written to standard output (%s): the run's results are lost\n",
                 std::strerror(errno));
    return false;
}

}  // namespace flipcheck::cli
