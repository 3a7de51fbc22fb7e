// flipcheck-prove: the mapping laws proved by Z3 from the subject's own compiled code, for every key
// of binary16, bfloat16, binary32 and binary64, and the pair laws of `flipcheck pairs` for every
// pair of codes (mapping_proof.hpp); a canonical key's laws over every code (key_proof.hpp); or a
// quantizer's over every input (quantizer_proof.hpp). Its own executable: it links
// Z3 and LLVM, which the main command must not need (the GPU machine has neither).
//
//   flipcheck-prove --source my_key.cpp --subject my_key [--flag -DX] [--timeout 60]
//
// Exit status: 0 every law proved; 1 a law refuted (the smallest key, confirmed by running the
// compiled code); 2 bad input, or code the prover does not read (named, with its source line);
// 4 the solver and the native run disagree (a bug in flipcheck); 5 a law undecided in the time.
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "compiled_subject.hpp"
#include "flipcheck/error.hpp"
#include "ir_terms.hpp"
#include "prove_subject.hpp"

namespace fp = flipcheck::prove;

int main(int argc, char** argv) {
    CLI::App app{"flipcheck-prove: prove a float mapping's, canonical key's or quantizer's laws for every input from its compiled code (Z3, LLVM)"};
    fp::subject_source src;
    double timeout = 60;
    app.add_option("--source", src.file, "the C++ file that defines the subject: a mapping (a struct with format, encode, decode) "
                                         "a canonical key (format, declared, key) or a quantizer (format, element, declared, quantize)")
        ->required();
    app.add_option("--subject", src.subject, "its type as C++ names it: my_key, flipcheck::sign_flip<flipcheck::binary64>")
        ->required();
    app.add_option("--flag", src.flags, "a compile flag for the file, repeatable, written with '=' so that it is not read as an "
                                        "option: --flag=-I/my/include --flag=-DNAME=1");
    app.add_option("--timeout", timeout, "seconds the solver may spend on one law (default 60): past it the law is undecided, "
                                         "never proved")
        ->check(CLI::Range(0.001, 86400.0));
    app.footer("Exit status: 0 every law proved; 1 a law refuted (its smallest input printed, confirmed by running the compiled "
               "code); 2 bad input, or code the prover does not read (named, with its source line); 4 the solver and the native run "
               "disagree (a bug in flipcheck); 5 a law undecided within --timeout. docs/prove.md");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return e.get_exit_code() == 0 ? app.exit(e) : (app.exit(e), 2);
    }
    try {
        const fp::compiled_subject m(src);
        fp::proof_options o;
        o.timeout_ms = unsigned(timeout * 1000);
        const fp::proof r = fp::prove_subject(m, src.subject, o);
        if (m.is_key())
            fmt::print("{} ({} canonical key, compiled by `{}`): every neighbour pair of the declared order of all 2^{} codes, by Z3\n",
                       src.subject, r.format, m.compile_command(), r.width);
        else if (m.is_quantizer())
            fmt::print("{} ({} {}, compiled by `{}`): every input (2^{}), by Z3\n", src.subject, r.format, r.kind, m.compile_command(), r.width);
        else
            fmt::print("{} ({} mapping, compiled by `{}`): every key (2^{}) and every pair of codes (2^{}), by Z3\n", src.subject, r.format,
                       m.compile_command(), r.width, 2 * r.width);
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
        if (refuted) fmt::print("verdict: FAIL: {} of {} laws refuted\n", refuted, r.laws.size());
        else if (unknown) fmt::print("verdict: UNKNOWN: {} of {} laws undecided, none refuted\n", unknown, r.laws.size());
        else if (m.is_key()) fmt::print("verdict: PASS: {} laws proved over every code in {:.2f} s\n", r.laws.size(), r.seconds);
        else if (m.is_quantizer()) fmt::print("verdict: PASS: {} laws proved over every input in {:.2f} s\n", r.laws.size(), r.seconds);
        else fmt::print("verdict: PASS: {} laws proved over every key and every pair of codes in {:.2f} s\n", r.laws.size(), r.seconds);
        return refuted ? 1 : unknown ? 5 : 0;
    } catch (const fp::refusal& e) {
        fmt::print(stderr, "flipcheck-prove: cannot prove {}: {}\n", src.subject, e.what());
        return 2;
    } catch (const flipcheck::input_error& e) {
        fmt::print(stderr, "flipcheck-prove: {}\n", e.what());
        return 2;
    } catch (const fp::translation_error& e) {
        fmt::print(stderr, "flipcheck-prove: internal error: {}\n", e.what());
        return 4;
    } catch (const std::exception& e) {
        fmt::print(stderr, "flipcheck-prove: internal error: {}\n", e.what());
        return 4;
    }
}
