// flipcheck-prove: the mapping laws proved by Z3 from the subject's own compiled code, for every key
// of binary16, bfloat16, binary32 and binary64, and the pair laws of `flipcheck pairs` for every
// pair of codes (mapping_proof.hpp); a canonical key's laws over every code (key_proof.hpp); or a
// quantizer's over every input (quantizer_proof.hpp). Its own executable: it links
// Z3 and LLVM, which the main command must not need (the GPU machine has neither).
//
//   flipcheck-prove --source my_key.cpp --subject my_key [--subject other] [--flag -DX] [--timeout 60] [--json FILE]
//
// Exit status: 0 every law proved; 1 a law refuted (the smallest key, confirmed by running the
// compiled code); 2 bad input, or code the prover does not read (named, with its source line);
// 4 the solver and the native run disagree (a bug in flipcheck); 5 a law undecided in the time.
// Several subjects: the first of 4, 2, 1, 5 that any of them earns.
#include <algorithm>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiled_subject.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/error.hpp"
#include "ir_terms.hpp"
#include "prove_subject.hpp"

namespace fp = flipcheck::prove;

namespace {

const char* result_name(fp::outcome o) { return o == fp::outcome::proved ? "proved" : o == fp::outcome::refuted ? "refuted" : "unknown"; }

// One subject's verdict as text, in the order of its laws; returns its exit status (0, 1 or 5).
int print_proof(const fp::compiled_subject& m, const std::string& subject, const fp::proof& r, double timeout) {
    if (m.is_key())
        fmt::print("{} ({} canonical key, compiled by `{}`): every neighbour pair of the declared order of all 2^{} codes, by Z3\n",
                   subject, r.format, m.compile_command(), r.width);
    else if (m.is_quantizer())
        fmt::print("{} ({} {}, compiled by `{}`): every input (2^{}), by Z3\n", subject, r.format, r.kind, m.compile_command(), r.width);
    else if (m.is_scale())
        fmt::print("{} ({} of a binary32 amax, compiled by `{}`): every non-negative binary32 amax (2^31), by Z3\n", subject, r.kind,
                   m.compile_command());
    else
        fmt::print("{} ({} mapping, compiled by `{}`): every key (2^{}) and every pair of codes (2^{}), by Z3\n", subject, r.format,
                   m.compile_command(), r.width, 2 * r.width);
    if (!r.equal_to.empty()) {
        fmt::print("  equal to {}: encode and decode defined and agreeing with its on every key ({:.2f} s), so its {} proved laws\n"
                   "  hold here too\n",
                   r.equal_to, r.seconds, r.laws.size());
        fmt::print("verdict: PASS: {} laws proved (equal to {}) in {:.2f} s\n", r.laws.size(), r.equal_to, r.seconds);
        return 0;
    }
    int refuted = 0, unknown = 0;
    const bool undefined = r.laws.front().result == fp::outcome::refuted;
    for (const auto& l : r.laws) {
        if (l.result == fp::outcome::proved) fmt::print("  {}: proved ({:.2f} s)\n", l.law, l.seconds);
        if (l.result == fp::outcome::unknown) {
            ++unknown;
            if (undefined) fmt::print("  {}: not decided: the code's behaviour is undefined at some input (above)\n", l.law);
            else fmt::print("  {}: UNKNOWN: the solver did not decide it within --timeout {} s\n", l.law, timeout);
        }
        if (l.result == fp::outcome::refuted) {
            ++refuted;
            const std::string which = !l.smallest ? fmt::format("not shown the smallest within --timeout {} s", timeout)
                                      : l.b           ? "the smallest a, then its smallest b"
                                                      : "the smallest";
            fmt::print("  {}: FAIL at {} ({:.2f} s; {}, {})\n    {}\n", l.law, l.where, l.seconds, which,
                       l.law == "defined" ? "by the solver" : "confirmed by running the compiled code", l.counterexample);
        }
    }
    const char* over = m.is_key()         ? "every code"
                       : m.is_quantizer() ? "every input"
                       : m.is_scale()     ? "every non-negative amax"
                                          : "every key and every pair of codes";
    if (refuted) fmt::print("verdict: FAIL: {} of {} laws refuted\n", refuted, r.laws.size());
    else if (unknown) fmt::print("verdict: UNKNOWN: {} of {} laws undecided, none refuted\n", unknown, r.laws.size());
    else fmt::print("verdict: PASS: {} laws proved over {} in {:.2f} s\n", r.laws.size(), over, r.seconds);
    return refuted ? 1 : unknown ? 5 : 0;
}

// Several subjects' exit statuses as one: a bug in flipcheck (4), then code not read (2), a
// refutation (1), an undecided law (5).
int worse(int a, int b) {
    for (int s : {4, 2, 1, 5})
        if (a == s || b == s) return s;
    return 0;
}

// docs/prove.md, "JSON": the same words as the text, one object per subject.
nlohmann::ordered_json to_json(const fp::compiled_subject& m, const std::string& subject, const fp::proof& r) {
    nlohmann::ordered_json laws = nlohmann::ordered_json::array();
    for (const auto& l : r.laws) {
        nlohmann::ordered_json j{{"law", l.law}, {"result", result_name(l.result)}, {"seconds", l.seconds}};
        if (l.result == fp::outcome::refuted) {
            j["input"] = flipcheck::hex(*l.key, int(r.width));
            if (l.b) j["b"] = flipcheck::hex(*l.b, int(r.width));
            j["smallest"] = l.smallest;
            j["where"] = l.where;
            j["counterexample"] = l.counterexample;
        }
        laws.push_back(j);
    }
    const bool refuted = std::any_of(r.laws.begin(), r.laws.end(), [](const auto& l) { return l.result == fp::outcome::refuted; });
    return {{"subject", subject},
            {"kind", r.kind},
            {"format", r.format},
            {"width", r.width},
            {"domain", "proved"},
            {"verdict", r.passed() ? "pass" : refuted ? "fail" : "unknown"},
            {"compile_command", m.compile_command()},
            {"seconds", r.seconds},
            {"equal_to", r.equal_to.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.equal_to)},
            {"laws", laws}};
}

// The file --json names, as it is written: a link's target (the link stays a link). A path that
// exists and is not a plain file (a folder, a device such as /dev/stdout, a FIFO), a link to
// nothing or a missing folder is refused before any work: the report is renamed into place, and a
// rename must never replace a device or another program's file type. (cli/output.cpp guards
// flipcheck's own --json so; it lives in the command, whose library brings the GPU's runtime.)
std::filesystem::path json_target(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = path;
    if (fs::is_symlink(p, ec)) {
        p = fs::canonical(p, ec);
        if (ec) throw flipcheck::input_error("cannot write --json " + path + ": it is a link to nothing, or to something that is not a plain file (a pipe)");
    }
    if (fs::exists(p, ec) && !fs::is_regular_file(p, ec))
        throw flipcheck::input_error("cannot write --json " + path + ": it is not a plain file (a folder, a device or a FIFO)");
    if (!fs::is_directory(fs::absolute(p).parent_path(), ec))
        throw flipcheck::input_error("cannot write --json " + path + ": its folder does not exist");
    return p;
}

// Written once at the end, into a new file beside the target (mkstemp: never a path another
// program made) renamed onto it: a run that dies leaves the previous file as it was.
void write_json(const std::string& path, const std::string& verdict, nlohmann::ordered_json body) {
    nlohmann::ordered_json doc{{"schema", 1}, {"verdict", verdict}};
    doc.update(body);
    const std::filesystem::path target = json_target(path);
    std::string temporary = target.string() + ".XXXXXX";
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) throw flipcheck::input_error("cannot write --json " + path + ": " + std::strerror(errno));
    const std::string text = doc.dump(2) + "\n";
    const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    std::error_code ec;
    if (written) std::filesystem::rename(temporary, target, ec);
    if (!written || ec) {
        std::filesystem::remove(temporary, ec);
        throw flipcheck::input_error("cannot write --json " + path + (written ? "" : ": the disk is full or failing"));
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"flipcheck-prove: prove a float mapping's, canonical key's or quantizer's laws for every input from its compiled code (Z3, LLVM)"};
    std::string file, json;
    std::vector<std::string> subjects, flags;
    double timeout = 60;
    app.add_option("--source", file, "the C++ file that defines the subject: a mapping (a struct with format, encode, decode), "
                                     "a canonical key (format, declared, key), a quantizer (format, element, declared, quantize) or an "
                                     "MX scale (element, scale, optionally recipe)")
        ->required();
    app.add_option("--subject", subjects, "its type as C++ names it: my_key, flipcheck::sign_flip<flipcheck::binary64>; repeatable: "
                                          "the subjects of one file are compiled once and proved in turn")
        ->required();
    app.add_option("--flag", flags, "a compile flag for the file, repeatable, written with '=' so that it is not read as an "
                                    "option: --flag=-I/my/include --flag=-DNAME=1");
    app.add_option("--timeout", timeout, "seconds the solver may spend on one law (default 60): past it the law is undecided, "
                                         "never proved")
        ->check(CLI::Range(0.001, 86400.0));
    app.add_option("--json", json, "also write the verdicts to FILE as JSON (docs/prove.md, \"JSON\"); a run that cannot prove "
                                   "writes its reason there");
    app.footer("Exit status: 0 every law proved; 1 a law refuted (its smallest input printed, confirmed by running the compiled "
               "code); 2 bad input, or code the prover does not read (named, with its source line); 4 the solver and the native run "
               "disagree (a bug in flipcheck); 5 a law undecided within --timeout. Several subjects: the first of 4, 2, 1, 5 "
               "that any of them earns. docs/prove.md");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return e.get_exit_code() == 0 ? app.exit(e) : (app.exit(e), 2);
    }
    if (!json.empty()) {  // a path that cannot take the report fails before any work
        try {
            json_target(json);
        } catch (const flipcheck::input_error& e) {
            fmt::print(stderr, "flipcheck-prove: {}\n", e.what());
            return 2;
        }
    }
    auto failed = [&](const std::string& words, int status) {
        fmt::print(stderr, "flipcheck-prove: {}\n", words);
        if (!json.empty()) {
            try {
                write_json(json, "error", {{"error", words}, {"exit_status", status}});
            } catch (const std::exception& e) {
                fmt::print(stderr, "flipcheck-prove: {}\n", e.what());
            }
        }
        return status;
    };
    try {
        const std::vector<fp::compiled_subject> compiled = fp::compiled_subject::compile(file, subjects, flags);
        fp::proof_options o;
        o.timeout_ms = unsigned(timeout * 1000);
        int status = 0;
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        std::vector<std::optional<fp::proof>> proofs(compiled.size());  // each subject's own proof, for the equalities
        for (std::size_t i = 0; i < compiled.size(); ++i) {
            if (i) fmt::print("\n");
            int s = 2;
            try {
                // A mapping equal to one proved before it (the built-ins of one format are) is
                // proved by the equality, in milliseconds.
                std::optional<fp::proof> equal;
                for (std::size_t j = 0; j < i && !equal; ++j)
                    if (proofs[j]) equal = fp::prove_equal(compiled[i], subjects[i], compiled[j], *proofs[j], o);
                const fp::proof r = equal ? *equal : fp::prove_subject(compiled[i], subjects[i], o);
                if (!equal) proofs[i] = r;
                s = print_proof(compiled[i], subjects[i], r, timeout);
                rows.push_back(to_json(compiled[i], subjects[i], r));
            } catch (const fp::refusal& e) {  // this subject only: the others are still proved
                fmt::print(stderr, "flipcheck-prove: cannot prove {}: {}\n", subjects[i], e.what());
                rows.push_back({{"subject", subjects[i]}, {"verdict", "refused"}, {"reason", e.what()}});
            }
            status = worse(status, s);
            std::fflush(stdout);
        }
        if (!json.empty())
            write_json(json, status == 0 ? "pass" : status == 1 ? "fail" : status == 2 ? "refused" : "unknown", {{"subjects", rows}});
        return status;
    } catch (const flipcheck::input_error& e) {
        return failed(e.what(), 2);
    } catch (const fp::translation_error& e) {
        return failed(fmt::format("internal error: {}", e.what()), 4);
    } catch (const std::exception& e) {
        return failed(fmt::format("internal error: {}", e.what()), 4);
    }
}
