// A standalone main for every fuzz target, so any compiler can build it and ctest can replay its
// corpus in every CI run. Arguments are files or folders; an empty corpus is an error, since a
// replay of nothing would pass without testing anything.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// A target that can skip (no device) defines this; it is true when it checked nothing.
extern "C" __attribute__((weak)) bool flipcheck_fuzz_skipped();
// Under ASan/UBSan, which end the process with their own report: called before it ends.
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*)(void));

namespace {
// The input being replayed, for a crash (an abort, a fault) to name before it ends the process.
char current[4096] = "";
extern "C" void name_the_input(int sig) {
    const char prefix[] = "replay: crashed while replaying ";
    (void)!::write(2, prefix, sizeof prefix - 1);
    (void)!::write(2, current, std::strlen(current));
    (void)!::write(2, "\n", 1);
    if (sig) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
}
extern "C" void name_the_input_at_death() { name_the_input(0); }
}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        if (fs::is_directory(argv[i], ec)) {
            for (const auto& e : fs::directory_iterator(argv[i], ec))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(argv[i], ec)) {
            files.emplace_back(argv[i]);
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "no inputs to replay\n");
        return 2;
    }
    std::sort(files.begin(), files.end());
    // An abort (std::terminate, an assert) is named here; the sanitizers' own faults and reports
    // through their death callback, so that their handlers keep their report.
    std::signal(SIGABRT, name_the_input);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(name_the_input_at_death);
    for (const auto& f : files) {
        std::snprintf(current, sizeof current, "%s", f.string().c_str());
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        try {
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        } catch (const std::exception& e) {  // under libFuzzer this is a crash; here, a clear failure
            std::fprintf(stderr, "%s: %s\n", f.string().c_str(), e.what());
            return 1;
        }
    }
    if (flipcheck_fuzz_skipped && flipcheck_fuzz_skipped()) {
        std::printf("checked none of the %zu inputs (skipped)\n", files.size());
        return 0;
    }
    std::printf("replayed %zu inputs\n", files.size());
    return 0;
}
