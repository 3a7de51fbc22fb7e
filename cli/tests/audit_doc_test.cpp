// docs/audit.md's CPU section kept current: it is generated (scripts/update_readme), and a change
// to a subject, a question or a witness must reach the document.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

// docs/audit.md's CPU section is `flipcheck audit --markdown --device cpu --no-default-adapters`
// (scripts/update_readme): only code flipcheck compiles, so its rows are the same on every machine.
// The environment list (host CPU, compiler, versions) and the date are not compared, nor is the
// frameworks' per-machine section (its rows depend on the CPU; the test above holds its promises).
TEST(audit_cli, the_cpu_section_of_docs_audit_md_is_current) {
    const auto r = run_flipcheck("audit --device cpu --markdown --no-default-adapters");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(FLIPCHECK_AUDIT_DOC);
    std::stringstream doc;
    doc << in.rdbuf();
    const auto section = [](const std::string& text) {
        const auto b = text.find("<!-- audit:CPU:begin -->"), e = text.find("<!-- audit:CPU:end -->");
        if (b == std::string::npos || e == std::string::npos) return std::string("(no CPU section)");
        const std::string s = text.substr(b, e - b);
        const auto rows = s.find("\n### Reducers");
        return rows == std::string::npos ? std::string("(no reducer table)") : s.substr(rows);
    };
    EXPECT_EQ(section(doc.str()), section(r.output)) << "docs/audit.md is stale: run scripts/update_readme";
}
