// Words for the shell: the repro lines flipcheck prints and the commands it runs. Single quotes,
// with a quote inside written '\'' (the one way a POSIX shell reads any byte back unchanged).
#pragma once
#include <string>

namespace flipcheck::run {

// Always quoted: a path or command the shell must take as one word whatever it holds.
inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Quoted only where the shell would split or expand it: repro lines stay readable.
inline std::string quote(const std::string& s) {
    return s.find_first_of(" '\"\\$`") == std::string::npos ? s : shell_quote(s);
}

}  // namespace flipcheck::run
