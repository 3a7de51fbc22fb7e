// Every CPU mutant must be killed (a 100% kill rate), each by a named law and driver with a
// counterexample; docs/mutants.md's kill table must be the generated one.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

TEST(mutants, every_cpu_mutant_is_killed) {
    const auto r = run_flipcheck("mutants --device cpu");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("SURVIVED"), std::string::npos) << r.output;
    const auto at = r.output.rfind(" killed\nenvironment: ");  // "N/M killed", then where it ran, then the verdict line
    EXPECT_NE(r.output.find("\nverdict: PASS: ", at), std::string::npos) << r.output;
    ASSERT_NE(at, std::string::npos) << r.output;
    const auto line = r.output.substr(r.output.rfind('\n', at - 1) + 1);
    const auto slash = line.find('/');
    ASSERT_NE(slash, std::string::npos);
    EXPECT_EQ(std::stoi(line), std::stoi(line.substr(slash + 1))) << line;
    EXPECT_GE(std::stoi(line), 18) << line;
    // The one-pattern mutant off the edges is only found by the exhaustive sweep.
    EXPECT_NE(r.output.find("wrong_at_pi"), std::string::npos);
    EXPECT_NE(r.output.find("exhaustive"), std::string::npos) << r.output;
}

TEST(mutants, the_documented_kill_table_is_the_generated_one) {
    const auto r = run_flipcheck("mutants --device cpu --markdown");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(FLIPCHECK_DOCS "/mutants.md");
    std::stringstream page;
    page << in.rdbuf();
    ASSERT_FALSE(page.str().empty()) << FLIPCHECK_DOCS "/mutants.md is missing";
    EXPECT_NE(page.str().find(r.output), std::string::npos)
        << "docs/mutants.md's kill table is stale: regenerate it with scripts/update_readme\n" << r.output;
}

// With a device, the GPU-only mutants (YAMR's kernel run on it) must be killed too.
TEST(mutants, every_mutant_is_killed_on_the_gpu) {
    const auto list = run_flipcheck("list");
    if (list.output.find("gpu (present)") == std::string::npos) GTEST_SKIP() << "no CUDA device";
    const auto r = run_flipcheck("mutants --device gpu");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("yamr_gpu"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("SURVIVED"), std::string::npos) << r.output;
}
