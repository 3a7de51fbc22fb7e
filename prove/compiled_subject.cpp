#include "compiled_subject.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>

#include "flipcheck/error.hpp"

namespace flipcheck::prove {

namespace {

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs a shell command; its output on failure is the error's text.
void run(const std::string& what, const std::string& command) {
    const std::string full = command + " 2>&1";
    FILE* p = ::popen(full.c_str(), "r");
    if (!p) throw input_error("cannot run " + what);
    std::string out;
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, p)) out.append(buffer, n);
    const int status = ::pclose(p);
    if (status != 0) {
        if (out.size() > 4000) out = out.substr(0, 4000) + "\n...";
        throw input_error(what + " failed (" + command + "):\n" + out);
    }
}

// flipcheck's headers for the wrapper: an installed copy's (PREFIX/include, beside PREFIX/bin where
// this program is), else the source tree this program was built from.
std::string flipcheck_include() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = self.parent_path().parent_path() / "include";
        if (std::filesystem::exists(installed / "flipcheck" / "law.hpp", ec)) return installed.string();
    }
    return FLIPCHECK_PROVE_INCLUDE;
}

}  // namespace

compiled_mapping::compiled_mapping(const subject_source& s) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(s.file, ec)) throw input_error("--source " + s.file + " is not a readable file");
    if (s.subject.empty()) throw input_error("--subject: name the mapping type (a struct with format, encode and decode)");
    char dir[] = "/tmp/flipcheck-prove-XXXXXX";
    if (!::mkdtemp(dir)) throw input_error("cannot make a temporary folder under /tmp");
    dir_ = dir;
    const std::string wrapper = dir_ + "/subject.cpp", bitcode = dir_ + "/subject.bc", library = dir_ + "/subject.so";
    // The wrapper: the file, then C entry points that name the subject's functions and format.
    std::ofstream w(wrapper);
    w << "#include \"" << std::filesystem::absolute(s.file).string() << "\"\n"
      << "#include <cstdint>\n"
      << "using flipcheck_prove_subject = " << s.subject << ";\n"
      << "using flipcheck_prove_storage = typename flipcheck_prove_subject::format::storage;\n"
      << "extern \"C\" flipcheck_prove_storage flipcheck_prove_encode(flipcheck_prove_storage b) { return flipcheck_prove_subject::encode(b); }\n"
      << "extern \"C\" flipcheck_prove_storage flipcheck_prove_decode(flipcheck_prove_storage k) { return flipcheck_prove_subject::decode(k); }\n"
      << "extern \"C\" const char* flipcheck_prove_format() { return flipcheck_prove_subject::format::name.data(); }\n";
    w.close();
    std::string flags;
    for (const auto& f : s.flags) flags += " " + quote(f);
    command_ = std::string(FLIPCHECK_PROVE_CLANG) + " -std=c++20 -O2 -g -fPIC -I" + quote(flipcheck_include()) + flags;
    run("compiling the subject with clang", command_ + " -emit-llvm -c " + quote(wrapper) + " -o " + quote(bitcode));
    run("linking the subject into a shared library", std::string(FLIPCHECK_PROVE_CLANG) + " -shared " + quote(bitcode) + " -o " + quote(library));

    context_ = std::make_unique<llvm::LLVMContext>();
    llvm::SMDiagnostic diagnostic;
    module_ = llvm::parseIRFile(bitcode, diagnostic, *context_);
    if (!module_) throw input_error("cannot read the compiled subject's IR: " + diagnostic.getMessage().str());
    encode_ = module_->getFunction("flipcheck_prove_encode");
    decode_ = module_->getFunction("flipcheck_prove_decode");
    if (!encode_ || !decode_) throw input_error("the compiled subject has no encode or decode entry point");

    // Lazily bound: a call the code makes to a function it does not define is refused when the IR
    // is read, which comes first; the library is only run once the IR was read.
    library_ = ::dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!library_) throw input_error(std::string("cannot load the compiled subject: ") + ::dlerror());
    native_encode_ = ::dlsym(library_, "flipcheck_prove_encode");
    native_decode_ = ::dlsym(library_, "flipcheck_prove_decode");
    auto* format = reinterpret_cast<const char* (*)()>(::dlsym(library_, "flipcheck_prove_format"));
    if (!native_encode_ || !native_decode_ || !format) throw input_error("the compiled subject's library lacks its entry points");
    format_ = format();
    width_ = encode_->getReturnType()->getIntegerBitWidth();
}

compiled_mapping::~compiled_mapping() {
    if (library_) ::dlclose(library_);
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

namespace {
template <class S>
std::uint64_t call(void* fn, std::uint64_t bits) {
    return std::uint64_t(reinterpret_cast<S (*)(S)>(fn)(S(bits)));
}
std::uint64_t call_width(void* fn, unsigned width, std::uint64_t bits) {
    switch (width) {
    case 8: return call<std::uint8_t>(fn, bits);
    case 16: return call<std::uint16_t>(fn, bits);
    case 32: return call<std::uint32_t>(fn, bits);
    default: return call<std::uint64_t>(fn, bits);
    }
}
}  // namespace

std::uint64_t compiled_mapping::native_encode(std::uint64_t bits) const { return call_width(native_encode_, width_, bits); }
std::uint64_t compiled_mapping::native_decode(std::uint64_t bits) const { return call_width(native_decode_, width_, bits); }

}  // namespace flipcheck::prove
