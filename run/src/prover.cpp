#include "flipcheck/run/prover.hpp"

#include <unistd.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "flipcheck/run/child_groups.hpp"
#include "flipcheck/run/shell_quote.hpp"

namespace flipcheck::run {

namespace {

std::filesystem::path own_folder() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

// flipcheck's headers: an installed copy's (PREFIX/include beside PREFIX/bin), else the source
// tree this program was built from: where flipcheck-prove finds them too.
std::string flipcheck_include() {
    std::error_code ec;
    const std::filesystem::path installed = own_folder().parent_path() / "include";
    if (std::filesystem::exists(installed / "flipcheck" / "law.hpp", ec)) return installed.string();
    return FLIPCHECK_SOURCE_INCLUDE;
}

// The last lines of what the prover printed: why it could not prove, in its own words.
std::string tail_of(const std::string& text) {
    std::string t = text;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    std::size_t at = t.size();
    for (int lines = 0; lines < 3 && at != std::string::npos && at > 0; ++lines) at = t.rfind('\n', at - 1);
    return at == std::string::npos ? t : t.substr(at + 1);
}

}  // namespace

const proved_subject* prover_answer::find(const std::string& subject) const {
    for (const auto& s : subjects)
        if (s.subject == subject) return &s;
    return nullptr;
}

std::string find_prover(std::string& why_not) {
    if (const char* p = std::getenv("FLIPCHECK_PROVER")) {
        if (std::string(p) != "none") return p;
        why_not = "FLIPCHECK_PROVER=none";
        return "";
    }
    const std::filesystem::path beside = own_folder() / "flipcheck-prove";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
    why_not = "no flipcheck-prove beside flipcheck (" + beside.string() + ")";
    return "";
}

std::string builtin_type(const std::string& mapping, const std::string& format) {
    return "flipcheck::" + mapping + "<flipcheck::" + format + ">";
}

prover_answer prove_builtins(const std::string& prover, const std::string& header, const std::vector<std::string>& subjects,
                             double timeout) {
    prover_answer a;
    char json[] = "/tmp/flipcheck-proofs-XXXXXX";
    const int fd = ::mkstemp(json);
    if (fd < 0) {
        a.why_not = "cannot make a temporary file under /tmp for the prover's report";
        return a;
    }
    ::close(fd);
    std::string command = shell_quote(prover) + " --source " + shell_quote(flipcheck_include() + "/" + header) + " --timeout " +
                          std::to_string(timeout) + " --json " + shell_quote(json);
    for (const auto& s : subjects) command += " --subject " + shell_quote(s);
    const auto started = std::chrono::steady_clock::now();
    shell_pipe p = open_shell_pipe(command + " 2>&1");
    std::string printed;
    if (p.out) {
        char buffer[4096];
        while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, p.out)) printed.append(buffer, n);
    }
    const int status = p.out ? close_shell_pipe(p) : -1;
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    nlohmann::json doc;
    try {
        std::ifstream in(json);
        doc = nlohmann::json::parse(in);
    } catch (const std::exception&) {
        doc = nullptr;
    }
    std::filesystem::remove(json);
    if (!doc.is_object() || !doc.contains("subjects")) {
        const std::string said = doc.is_object() && doc.contains("error") ? doc["error"].get<std::string>() : tail_of(printed);
        a.why_not = prover + " could not prove them (" +
                    (status == -1 ? std::string("it did not start") : WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                                                        : "stopped by a signal") +
                    (said.empty() ? ")" : "): " + said);
        return a;
    }
    for (const auto& j : doc["subjects"]) {
        proved_subject s;
        s.subject = j.value("subject", "");
        s.format = j.value("format", "");
        s.verdict = j.value("verdict", "");
        s.seconds = j.value("seconds", 0.0);
        if (j.contains("equal_to") && j["equal_to"].is_string()) s.equal_to = j["equal_to"].get<std::string>();
        if (j.contains("reason")) s.not_proved = j["reason"].get<std::string>();
        if (a.compile_command.empty()) a.compile_command = j.value("compile_command", "");
        for (const auto& l : j.value("laws", nlohmann::json::array())) {
            const std::string law = l.value("law", ""), result = l.value("result", "");
            if (result == "proved") s.laws.push_back(law);
            else if (s.not_proved.empty())
                s.not_proved = law + ": " + (result == "refuted" ? "FAIL at " + l.value("where", "") + ": " + l.value("counterexample", "")
                                                                 : "undecided within " + std::to_string(int(timeout)) + " s");
        }
        a.subjects.push_back(std::move(s));
    }
    return a;
}

}  // namespace flipcheck::run
