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
    // Its heading names the command that prints it (issue 59: it named one that printed twice as much).
    const std::string heading = "## CPU (`flipcheck audit --markdown --device cpu --no-default-adapters`, ";
    EXPECT_NE(r.output.find(heading), std::string::npos) << r.output.substr(0, 400);
    EXPECT_NE(doc.str().find(heading), std::string::npos) << "docs/audit.md's CPU heading";
}

// The conversion table's CPU rows need no GPU, so CI runs them: NumPy's astype(float16) on every
// binary32 input (its codes streamed from the adapter, judged on every core). What NumPy does is
// the row's finding, not asserted here (it may differ by machine); that it was classified and then
// judged on all 2^32 inputs is flipcheck's promise.
TEST(audit_cli, the_conversion_table_judges_numpy_on_every_binary32_input) {
    const auto r = run_flipcheck("audit --conversions --device cpu");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto at = r.output.find("\nnumpy astype(float16) (NumPy ");
    ASSERT_NE(at, std::string::npos) << "no NumPy row (python3-numpy is installed by scripts/bootstrap):\n" << r.output;
    const std::string row = r.output.substr(at + 1, r.output.find("\n\n", at + 1) - at - 1);
    EXPECT_NE(row.find("documents     nearest_even, saturation infinity"), std::string::npos) << row;
    EXPECT_NE(row.find("does          "), std::string::npos) << row;
    EXPECT_NE(row.find("every input   "), std::string::npos) << row;
    EXPECT_NE(row.find("every binary32 pattern (exhaustive)"), std::string::npos) << row;
    if (row.find("agrees on all") != std::string::npos) {
        EXPECT_NE(row.find("agrees on all 4294967296 inputs"), std::string::npos) << row;
    }
}

// The stream itself, on conversions this test controls: every binary32 input of a rounding that is
// right by construction agrees (a code out of place anywhere in the 2^32 would show), and
// truncation disagrees first where it must, the first NaN with its payload in the low half.
TEST(audit_cli, every_binary32_input_streams_through_an_adapter_in_order) {
    const auto r = run_flipcheck(std::string("audit --conversions --device cpu --no-default-adapters --adapter '/usr/bin/python3 ") +
                                 FLIPCHECK_TEST_ADAPTERS + "/bfloat16_bits_adapter.py'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto row = [&](const std::string& name) {
        const auto at = r.output.find("\n" + name + " (");
        return at == std::string::npos ? std::string() : r.output.substr(at + 1, r.output.find("\n\n", at + 1) - at - 1);
    };
    EXPECT_NE(row("rounded bfloat16").find("every input   under nearest_even, saturation infinity: agrees on all 4294967296 inputs"), std::string::npos)
        << r.output;
    EXPECT_NE(row("truncated bfloat16")
                  .find("every input   under toward_zero, saturation infinity: disagrees: quantize_special: quantize(0x7f800001 (nan snan)) = "
                        "0x7f80 (inf inf); the oracle's: 0x7fc0 (nan qnan)"),
              std::string::npos)
        << r.output;
}
