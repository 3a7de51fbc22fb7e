// Interrupting a sweep with SIGINT and rerunning it with the same checkpoint must finish with
// exactly 2^32 keys, each counted once. The mutant has exactly two failing keys, so a lost range
// would show fewer and a range counted twice would show more.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "run_command.hpp"

using flipcheck::test::run_flipcheck;

static std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    return {(std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()};
}

static std::uint64_t field(const std::string& json, const std::string& name) {
    const auto at = json.find("\"" + name + "\": ");
    return at == std::string::npos ? ~0ull : std::stoull(json.substr(at + name.size() + 4));
}

TEST(checkpoint, sigint_then_resume_counts_every_key_exactly_once) {
    const auto dir = std::filesystem::temp_directory_path() / ("flipcheck_ckpt_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const auto ckpt = dir / "sweep.ckpt", first = dir / "first.json", second = dir / "second.json";
    const std::string args = "sweep --format binary32 --mapping zeros_swapped --all --threads 1 --checkpoint-every 0.05 --checkpoint " + ckpt.string();

    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const std::string cmd = std::string(FLIPCHECK_BINARY) + " " + args + " --json " + first.string() + " > /dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Wait until the first checkpoint is on disk (saved every 50 ms here), then interrupt.
    for (int i = 0; i < 2000 && !std::filesystem::exists(ckpt); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(child, SIGINT);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 130) << "the sweep finished before it could be interrupted";
    const std::string partial = read(first);
    const std::uint64_t done_first = field(partial, "keys_checked");
    ASSERT_GT(done_first, 0u);
    ASSERT_LT(done_first, 1ull << 32);

    const auto r = run_flipcheck(args + " --json " + second.string());
    EXPECT_EQ(r.exit_code, 1) << r.output;  // the mutant fails: the verdict is not lost on resume
    const std::string done = read(second);
    EXPECT_EQ(field(done, "keys_checked"), 1ull << 32) << done;
    EXPECT_GE(field(done, "keys_resumed"), done_first) << done;
    EXPECT_LT(field(done, "keys_resumed"), 1ull << 32) << done;
    EXPECT_EQ(field(done, "failing_keys"), 2u) << done;
    EXPECT_NE(done.find("\"interrupted\": false"), std::string::npos);
    std::filesystem::remove_all(dir);
}
