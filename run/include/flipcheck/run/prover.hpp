// flipcheck-prove beside this program: the main job hands it the binary64 built-ins, whose 2^64
// keys no sweep covers, and shows its proofs in their rows where one is there; where none is (the
// README's first command builds only `flipcheck`; the GPU machine has no Z3), the rows stay samples.
#pragma once
#include <string>
#include <vector>

namespace flipcheck::run {

// One subject's verdict as flipcheck-prove's JSON gives it (docs/prove.md, "JSON").
struct proved_subject {
    std::string subject, format;
    std::string verdict;  // pass (every law proved), fail (a law refuted), unknown, refused
    std::vector<std::string> laws;  // the laws proved, in the prover's order
    std::string not_proved;         // the first law not proved and what the prover said of it, in words
    std::string equal_to;           // proved by being the same mapping as this subject (its encode and decode on every key)
    double seconds = 0;             // the solver's, this subject's laws (or its equality)
    bool passed() const { return verdict == "pass"; }
};

struct prover_answer {
    std::string why_not;  // why no verdicts came back (no prover, it could not run), in words; "" when they did
    std::string compile_command;
    std::vector<proved_subject> subjects;
    double seconds = 0;  // the prover's wall, clang's compile of the subjects included
    const proved_subject* find(const std::string& subject) const;
};

// flipcheck-prove in this executable's folder (a build tree's and an installed copy's layout), or
// FLIPCHECK_PROVER's path; "" where there is none or FLIPCHECK_PROVER is "none", and `why_not` says which.
std::string find_prover(std::string& why_not);

// The C++ name of a built-in mapping's type on a format: flipcheck::sign_flip<flipcheck::binary64>.
std::string builtin_type(const std::string& mapping, const std::string& format);

// Runs `prover` on `subjects`, types of flipcheck's own header `header` ("flipcheck/mapping.hpp"),
// each law within `timeout` seconds; its output is kept out of this program's and only its
// verdicts come back (or why_not, with the last lines it printed).
prover_answer prove_builtins(const std::string& prover, const std::string& header, const std::vector<std::string>& subjects,
                             double timeout);

}  // namespace flipcheck::run
