// Where a command's results go besides the terminal: a --json FILE, and standard output itself.
// A result already computed is never lost silently and a previous file is never half-overwritten:
//   - the file's folder is checked before any work, so a bad path costs nothing computed;
//   - the document is written beside the file and renamed over it in one step, so a run that
//     fails or is stopped before its results leaves the previous file as it was;
//   - a write that fails (a full disk, /dev/full) is an error exit, never a pass;
//   - only a plain file is ever renamed onto: a standard stream, a device or a FIFO is written in
//     place (output.cpp says why), and two outputs of one run never share a file.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace flipcheck::cli {

// The version of the JSON documents' layout (docs/json.md): every document is an object with
// "schema" and "verdict" first.
inline constexpr int json_schema_version = 1;

class json_file {
public:
    // `option` names the flag in messages ("--json"); an empty path means no file.
    json_file(std::string option, std::string path);
    explicit operator bool() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    // Writes {"schema": 1, "verdict": verdict, ...doc} atomically; throws input_error if it cannot.
    void write(std::string_view verdict, const nlohmann::json& doc) const;

private:
    std::string option_, path_;
};

// How an output path is written: `file` through a temporary file renamed onto `path` (a link's
// target, resolved); the others in place.
struct output_target {
    enum kind { file, standard_output, standard_error, device, fifo } how;
    std::string path;
};
// Throws input_error (naming `what`, e.g. "--json out.json") for a path no output may take: a folder, a socket, a block
// device, a link to nothing, a missing or read-only folder, the file standard output goes to.
output_target classify_output(const std::string& what, const std::string& path);
// Throws input_error when two outputs of one run name the same file (a checkpoint and a report).
void refuse_same_output(const std::string& option_a, const std::string& a, const std::string& option_b, const std::string& b);

// Writes `text` to `path` as classify_output says (a plain file through a temporary file and a
// rename); throws input_error naming `what`.
void write_atomically(const std::string& what, const std::string& path, std::string_view text);

// Flushes standard output; false (after saying so on stderr) if anything written to it was lost.
bool stdout_intact();

}  // namespace flipcheck::cli
