// Interrupting a sweep with SIGINT and rerunning it with the same checkpoint must finish with
// exactly 2^32 keys, each counted once. The mutant has exactly two failing keys, so a lost range
// would show fewer and a range counted twice would show more. And a checkpoint names its laws, so
// that adding a law can never misread one: unknown names, malformed lines and the old numbered
// format are refused (exit 2), and what is written is read back exactly.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

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
    // Wait until the first checkpoint is on disk (saved every 50 ms here), then interrupt. It waits
    // for the file or the child's end, not for a time, so a loaded machine only makes it slower
    // (bounded at 10 minutes, the test's own limit).
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 120000 && !std::filesystem::exists(ckpt); ++i) {
        if (waitpid(child, &status, WNOHANG) == child) {
            ended = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!ended) {
        kill(child, SIGINT);
        waitpid(child, &status, 0);
    }
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

namespace {

struct temp_dir {
    std::filesystem::path path;
    explicit temp_dir(const std::string& name)
        : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()))) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::trunc) << text; }

// text with its one occurrence of `from` replaced by `to` (empty if `from` is not there once).
std::string replace_once(const std::string& text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) return {};
    return text.substr(0, at) + to + text.substr(at + from.size());
}

// The JSON value of a top-level array or object field, as text ("" if there is none).
std::string section(const std::string& json, const std::string& name) {
    const auto at = json.find("\"" + name + "\": ");
    if (at == std::string::npos) return {};
    const char open = json[at + name.size() + 4], close = open == '[' ? ']' : '}';
    int depth = 0;
    for (auto i = at + name.size() + 4; i < json.size(); ++i) {
        depth += json[i] == open ? 1 : json[i] == close ? -1 : 0;
        if (depth == 0) return json.substr(at, i + 1 - at);
    }
    return {};
}

// A whole binary16 sweep of a mutant, so that its checkpoint holds failures and a counterexample.
const std::string small_sweep = "sweep --format binary16 --mapping zeros_swapped --all --checkpoint ";
// The checkpoint's text with its checksum made again, as if flipcheck had written the edit: so a
// test can reach the checks that come after the checksum. FNV-1a 64 over every line above `sum`.
std::string resum(const std::string& text) {
    const auto at = text.find("\nsum ");
    const std::string body = text.substr(0, at + 1);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : body) h = (h ^ ch) * 0x100000001b3ull;
    char sum[32];
    std::snprintf(sum, sizeof sum, "sum %016llx\nend\n", static_cast<unsigned long long>(h));
    return body + sum;
}

const std::string all_laws = "round_trip_key,round_trip_bits,successor_order,zero_placement,nan_total_order,nan_propagate,nan_ignore";

}  // namespace

TEST(checkpoint, laws_are_written_by_name_and_read_back_exactly) {
    const temp_dir dir("flipcheck_ckpt_names");
    const auto ckpt = dir.path / "c.ckpt", first = dir.path / "first.json", second = dir.path / "second.json";
    const auto r1 = run_flipcheck(small_sweep + ckpt.string() + " --json " + first.string());
    ASSERT_EQ(r1.exit_code, 1) << r1.output;
    const std::string written = read(ckpt);
    EXPECT_EQ(written.rfind("flipcheck-checkpoint 3\n", 0), 0u) << written;
    EXPECT_NE(written.find("\nlaws " + all_laws + "\n"), std::string::npos) << written;
    EXPECT_NE(written.find("\nby_law round_trip_key=0 round_trip_bits=0 successor_order="), std::string::npos) << written;
    EXPECT_NE(written.find(" zero_placement=1 "), std::string::npos) << written;
    EXPECT_NE(written.find("\ncx zero_placement 32768 "), std::string::npos) << written;
    // Resuming reads every chunk, count and counterexample back and writes the same text again.
    const auto r2 = run_flipcheck(small_sweep + ckpt.string() + " --json " + second.string());
    EXPECT_EQ(r2.exit_code, 1) << r2.output;
    const std::string resumed = read(second);
    EXPECT_EQ(field(resumed, "keys_resumed"), 65536u) << resumed;
    // Issue 59: the rate is of the keys this run checked (none), not of those it carried.
    EXPECT_EQ(field(resumed, "keys_per_second"), 0u) << resumed;
    EXPECT_EQ(field(resumed, "failing_keys"), field(read(first), "failing_keys")) << resumed;
    EXPECT_EQ(read(ckpt), written);
    EXPECT_EQ(section(resumed, "counterexamples"), section(read(first), "counterexamples")) << resumed;
    EXPECT_EQ(section(resumed, "failures_by_law"), section(read(first), "failures_by_law")) << resumed;

    // A subset of laws is named as such, and resumes only the sweep of that subset.
    const auto sub = dir.path / "sub.ckpt";
    const std::string sub_sweep = small_sweep + sub.string() + " --laws zero_placement,successor_order";
    ASSERT_EQ(run_flipcheck(sub_sweep).exit_code, 1);
    const std::string sub_text = read(sub);
    EXPECT_NE(sub_text.find("\nlaws successor_order,zero_placement\n"), std::string::npos) << sub_text;
    EXPECT_EQ(run_flipcheck(sub_sweep).exit_code, 1);
    EXPECT_EQ(read(sub), sub_text);
    const auto other = run_flipcheck(small_sweep + sub.string() + " --laws zero_placement");
    EXPECT_EQ(other.exit_code, 2) << other.output;
    EXPECT_NE(other.output.find("belongs to another sweep"), std::string::npos) << other.output;
}

TEST(checkpoint, unknown_law_names_and_malformed_lines_are_refused) {
    const temp_dir dir("flipcheck_ckpt_bad");
    const auto good = dir.path / "good.ckpt", bad = dir.path / "bad.ckpt";
    ASSERT_EQ(run_flipcheck(small_sweep + good.string()).exit_code, 1);
    const std::string text = read(good);
    struct edit {
        std::string from, to, message;
    };
    const std::vector<edit> edits{
        {"successor_order,", "successor_ordr,", "unknown law 'successor_ordr'"},         // in laws
        {" nan_ignore=0", " nan_bogus=0", "unknown law 'nan_bogus'"},                    // in by_law
        {"\ncx zero_placement ", "\ncx zero_placements ", "unknown law 'zero_placements'"},  // in cx
        {"\ncx zero_placement ", "\ncx reducer_agreement ", "unknown law 'reducer_agreement'"},
        {"zero_placement,", "zero_placement,zero_placement,", "named twice"},
        {" zero_placement=1", " zero_placement=one", "unreadable line"},
        {" zero_placement=1", " zero_placement=-1", "unreadable line"},
        {" nan_ignore=0", " nan_ignore", "unreadable line"},
        {" nan_ignore=0", " nan_ignore=0 nan_ignore=0", "counted twice"},
        {"nan_ignore\n", "nan_ignore,\n", "unreadable line"},
        {"\ncx zero_placement 32768 ", "\ncx zero_placement x ", "unreadable line"},
    };
    for (const edit& e : edits) {
        const std::string damaged = replace_once(text, e.from, e.to);
        ASSERT_FALSE(damaged.empty()) << "'" << e.from << "' is not in the checkpoint once:\n" << text;
        write(bad, damaged);
        const auto r = run_flipcheck(small_sweep + bad.string());
        EXPECT_EQ(r.exit_code, 2) << e.to << ": " << r.output;
        EXPECT_NE(r.output.find("is damaged: "), std::string::npos) << e.to << ": " << r.output;
        EXPECT_NE(r.output.find(e.message), std::string::npos) << e.to << ": " << r.output;
        EXPECT_EQ(read(bad), damaged) << "a refused checkpoint must be left as it was";
    }
    // by_law may leave a law out (count 0), so a law added later reads old counts right.
    write(bad, resum(replace_once(text, " nan_ignore=0", "")));
    EXPECT_EQ(run_flipcheck(small_sweep + bad.string()).exit_code, 1);
}

// Defect 4: a checkpoint is believed only if its checksum holds and what it says hangs together.
TEST(checkpoint, an_edited_or_inconsistent_checkpoint_is_refused) {
    const temp_dir dir("flipcheck_ckpt_edit");
    const auto good = dir.path / "good.ckpt", bad = dir.path / "bad.ckpt";
    ASSERT_EQ(run_flipcheck(small_sweep + good.string()).exit_code, 1);
    const std::string text = read(good);
    // Counts edited to zero: before, verdict=pass with rc 0 right above the counterexamples.
    const std::string zeroed = replace_once(replace_once(text, "\nfailing_keys 2\n", "\nfailing_keys 0\n"), " zero_placement=1", " zero_placement=0");
    ASSERT_FALSE(zeroed.empty()) << text;
    struct edit {
        std::string text, message;
    };
    const std::vector<edit> edits{
        {zeroed, "its checksum does not match its contents"},
        {resum(zeroed), "failing_keys does not match the failures by law"},
        {resum(replace_once(text, "\ncx zero_placement 32768 ", "\ncx zero_placement 99999999999 ")), "is outside the range"},
        {text.substr(0, text.find("\nsum ")) + "\nend\n", "no checksum"},
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        write(bad, edits[i].text);
        const auto r = run_flipcheck(small_sweep + bad.string());
        EXPECT_EQ(r.exit_code, 2) << edits[i].message << ": " << r.output;
        EXPECT_NE(r.output.find(edits[i].message), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("verdict: PASS"), std::string::npos) << r.output;
    }
}

TEST(checkpoint, a_second_flipcheck_on_the_same_checkpoint_is_refused) {
    const temp_dir dir("flipcheck_ckpt_lock");
    const auto ckpt = dir.path / "c.ckpt";
    // This test holds the lock a running sweep would hold.
    const int fd = ::open((ckpt.string() + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
    const auto r = run_flipcheck(small_sweep + ckpt.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("is in use by another flipcheck"), std::string::npos) << r.output;
    ::close(fd);
    EXPECT_EQ(run_flipcheck(small_sweep + ckpt.string()).exit_code, 1);  // released: it runs
}

TEST(checkpoint, a_version_1_checkpoint_is_refused_as_too_old) {
    const temp_dir dir("flipcheck_ckpt_v1");
    const auto ckpt = dir.path / "v1.ckpt";
    // What flipcheck wrote before laws were named: a mask and positional counts.
    write(ckpt, "flipcheck-checkpoint 1\nformat binary16\nmapping sign_flip\nlaws 127\nrange 0 65536\n"
                "chunk 4194304\nfailing_keys 0\nby_law 0 0 0 0 0 0 0\ndone 0\nend\n");
    const auto r = run_flipcheck("sweep --format binary16 --mapping sign_flip --checkpoint " + ckpt.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("'flipcheck-checkpoint 1'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cannot be resumed"), std::string::npos) << r.output;
}

// Issue 59: a checkpoint is not trusted for what it says was found, and a resumed sweep's verdict
// line says how many keys an earlier run checked.
TEST(checkpoint, a_forged_counterexample_is_refused_and_resumed_keys_are_named) {
    const temp_dir dir("flipcheck_ckpt_forged");
    const auto good = dir.path / "good.ckpt", forged = dir.path / "forged.ckpt";
    ASSERT_EQ(run_flipcheck(small_sweep + good.string()).exit_code, 1);
    const std::string text = read(good);
    // The failure moved to 1.0 (0x3c00 = 15360), where zeros_swapped keeps every law.
    write(forged, resum(replace_once(text, "\ncx zero_placement 32768 ", "\ncx zero_placement 15360 ")));
    const auto r = run_flipcheck(small_sweep + forged.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("says key 15360 breaks zero_placement, and it does not"), std::string::npos) << r.output;
    // The real one resumes, and its verdict line names the keys carried.
    const auto again = run_flipcheck(small_sweep + good.string());
    EXPECT_EQ(again.exit_code, 1) << again.output;
    EXPECT_NE(again.output.find("65536 keys checked (exhaustive), 65536 of them carried from the checkpoint (checked by an earlier run)"),
              std::string::npos)
        << again.output;
    EXPECT_FALSE(std::filesystem::exists(good.string() + ".lock")) << "a finished sweep leaves no lock file";
}
