#include "decide.hpp"

#include <cstdio>
#include <cstdlib>

#include "flipcheck/check/describe.hpp"
#include "ir_terms.hpp"

namespace flipcheck::prove {

std::vector<law_verdict> decide(z3::context& c, const std::vector<law_statement>& laws, const proof_options& o) {
    z3::params params(c);
    params.set("timeout", o.timeout_ms);
    std::vector<law_verdict> out;
    for (const law_statement& law : laws) {
        law_verdict v;
        v.law = law.name;
        if (!out.empty() && out.front().result != outcome::proved) {  // not what the code computes
            out.push_back(v);
            continue;
        }
        const auto started = std::chrono::steady_clock::now();
        z3::solver s(c);
        s.set(params);
        s.add(!law.holds);
        z3::check_result r = s.check();
        if (std::getenv("FLIPCHECK_PROVE_TRACE")) std::fprintf(stderr, "%s: %s in %.2f s\n", law.name.c_str(), r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown", seconds_since(started));
        if (r == z3::sat) {
            // The smallest failing input, in the sweep's order; for a pair law the row a, then b
            // in it (`flipcheck pairs` reports each row's smallest b).
            // A search that runs out of time still holds a counterexample (its best model so
            // far): a refutation, said not to be shown the smallest.
            v.key = smallest_input(s, law.input, r);
            v.smallest = r == z3::sat;
            if (law.second) {
                s.add(law.input == c.bv_val(*v.key, law.input.get_sort().bv_size()));
                r = s.check();
                if (r == z3::sat) v.b = smallest_input(s, *law.second, r);
                v.smallest = v.smallest && r == z3::sat;
            }
            v.result = law.second && !v.b ? outcome::unknown : outcome::refuted;
            if (v.result == outcome::refuted) law.explain(v);
        } else {
            v.result = r == z3::unsat ? outcome::proved : outcome::unknown;
        }
        v.seconds = seconds_since(started);
        out.push_back(v);
    }
    return out;
}

law_statement defined_law(z3::context& c, const z3::expr& x, const std::vector<std::pair<std::string, const llvm::Function*>>& functions,
                          int width) {
    z3::expr defined = c.bool_val(true);
    for (const auto& [name, fn] : functions) defined = defined && term_of(c, *fn, {x}).defined;
    return {"defined", defined, x, std::nullopt, [&c, functions, width, w = x.get_sort().bv_size()](law_verdict& v) {
                std::string which = functions.front().first;
                for (const auto& [name, fn] : functions) {  // the first whose code is undefined there
                    z3::solver s(c);
                    s.add(!term_of(c, *fn, {c.bv_val(*v.key, w)}).defined);
                    if (s.check() == z3::sat) {
                        which = name;
                        break;
                    }
                }
                v.where = "input " + hex(*v.key, width);
                v.counterexample = which + "(" + hex(*v.key, width) +
                                   ") has undefined behaviour: a shift by the width or more, an nsw/nuw overflow, a division by zero "
                                   "or unreachable code reached (LLVM's poison)";
            }};
}

}  // namespace flipcheck::prove
