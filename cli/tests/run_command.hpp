// Runs the flipcheck binary as a user would, capturing exit code and output.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace flipcheck::test {

struct command_result {
    int exit_code;
    std::string output;  // stdout and stderr together
};

// With `env` ("NAME=VALUE ...") set for the command.
inline command_result run_flipcheck_env(const std::string& env, const std::string& args) {
    const std::string cmd = env + " " + std::string(FLIPCHECK_BINARY) + " " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return {-1, "popen failed"};
    std::string out;
    std::array<char, 4096> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}
inline command_result run_flipcheck(const std::string& args) { return run_flipcheck_env("", args); }

// A file a command wrote (a JSON report, a case); empty if it is not there.
inline std::string read_file(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace flipcheck::test
