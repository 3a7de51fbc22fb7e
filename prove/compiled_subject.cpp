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

std::string temporary_folder() {
    char dir[] = "/tmp/flipcheck-prove-XXXXXX";
    if (!::mkdtemp(dir)) throw input_error("cannot make a temporary folder under /tmp");
    return dir;
}

std::string clang_command(const std::vector<std::string>& user_flags) {
    std::string flags;
    for (const auto& f : user_flags) flags += " " + quote(f);
    return std::string(FLIPCHECK_PROVE_CLANG) + " -std=c++20 -O2 -g -fPIC -I" + quote(flipcheck_include()) + flags;
}

std::unique_ptr<llvm::Module> read_ir(const std::string& bitcode, llvm::LLVMContext& context) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> m = llvm::parseIRFile(bitcode, diagnostic, context);
    if (!m) throw input_error("cannot read the compiled code's IR: " + diagnostic.getMessage().str());
    return m;
}

}  // namespace

compiled_file::compiled_file(const std::string& file, const std::vector<std::string>& flags) : dir_(temporary_folder()) {
    const std::string bitcode = dir_ + "/file.bc";
    run("compiling " + file + " with clang", clang_command(flags) + " -emit-llvm -c " + quote(file) + " -o " + quote(bitcode));
    context_ = std::make_unique<llvm::LLVMContext>();
    module_ = read_ir(bitcode, *context_);
}

compiled_file::~compiled_file() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

const llvm::Function& compiled_file::function(const std::string& name) const {
    const llvm::Function* f = module_->getFunction(name);
    if (!f) throw input_error("the compiled file has no function " + name);
    return *f;
}

compiled_subject::compiled_subject(const subject_source& s) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(s.file, ec)) throw input_error("--source " + s.file + " is not a readable file");
    if (s.subject.empty()) throw input_error("--subject: name the mapping type (a struct with format, encode and decode)");
    dir_ = temporary_folder();
    const std::string wrapper = dir_ + "/subject.cpp", bitcode = dir_ + "/subject.bc", library = dir_ + "/subject.so";
    // The wrapper: the file, then C entry points that name the subject's functions and format. A
    // canonical key comes back as one word that compares as the key does (key_word: an integer as
    // itself, bytes big-endian); key_bits is -1 for a key that has no such word.
    std::ofstream w(wrapper);
    w << "#include \"" << std::filesystem::absolute(s.file).string() << "\"\n"
      << "#include <array>\n#include <cstdint>\n#include <type_traits>\n#include \"flipcheck/canonical_key.hpp\"\n"
      << "template <class T> struct flipcheck_prove_entry {\n"
      << "  using S = typename T::format::storage;\n"
      << "  static constexpr bool is_key = requires(S x) { T::key(x); };\n"
      << "  static constexpr bool is_quantizer = requires(S x) { typename T::element; T::declared; T::quantize(x); };\n"
      << "  static constexpr bool is_mapping = !is_key && !is_quantizer;\n"
      << "  static S encode(S b) { if constexpr (is_mapping) return T::encode(b); else return b; }\n"
      << "  static S decode(S k) { if constexpr (is_mapping) return T::decode(k); else return k; }\n"
      << "  static std::uint64_t quantize(S b) { if constexpr (is_quantizer) return std::uint64_t(T::quantize(b)); else return b; }\n"
      << "  static const char* element() { if constexpr (is_quantizer) return T::element::name.data(); else return \"\"; }\n"
      << "  static int policy() { if constexpr (is_quantizer) return int(T::declared.round) * 4 + int(T::declared.saturate); else return -1; }\n"
      << "  template <class K> static constexpr int bits() {\n"
      << "    if constexpr (std::is_integral_v<K> && std::is_unsigned_v<K>) return int(sizeof(K) * 8);\n"
      << "    else if constexpr (sizeof(K) <= 8 && std::is_same_v<K, std::array<std::uint8_t, sizeof(K)>>) return int(sizeof(K) * 8);\n"
      << "    else return -1; }\n"
      << "  static int key_bits() { if constexpr (is_key) return bits<decltype(T::key(S{}))>(); else return 0; }\n"
      << "  static std::uint64_t key(S b) {\n"
      << "    if constexpr (is_key) { if constexpr (bits<decltype(T::key(b))>() > 0) return flipcheck::key_word(T::key(b)); else return 0; }\n"
      << "    else return 0; }\n"
      << "  static int declared() { if constexpr (is_key) return int(T::declared); else return -1; }\n"
      << "};\n"
      << "using flipcheck_prove_subject = flipcheck_prove_entry<" << s.subject << ">;\n"
      << "using flipcheck_prove_storage = flipcheck_prove_subject::S;\n"
      << "extern \"C\" flipcheck_prove_storage flipcheck_prove_encode(flipcheck_prove_storage b) { return flipcheck_prove_subject::encode(b); }\n"
      << "extern \"C\" flipcheck_prove_storage flipcheck_prove_decode(flipcheck_prove_storage k) { return flipcheck_prove_subject::decode(k); }\n"
      << "extern \"C\" std::uint64_t flipcheck_prove_key(flipcheck_prove_storage b) { return flipcheck_prove_subject::key(b); }\n"
      << "extern \"C\" int flipcheck_prove_key_bits() { return flipcheck_prove_subject::key_bits(); }\n"
      << "extern \"C\" int flipcheck_prove_declared() { return flipcheck_prove_subject::declared(); }\n"
      << "extern \"C\" std::uint64_t flipcheck_prove_quantize(flipcheck_prove_storage b) { return flipcheck_prove_subject::quantize(b); }\n"
      << "extern \"C\" const char* flipcheck_prove_element() { return flipcheck_prove_subject::element(); }\n"
      << "extern \"C\" int flipcheck_prove_policy() { return flipcheck_prove_subject::policy(); }\n"
      << "extern \"C\" const char* flipcheck_prove_format() { return " << s.subject << "::format::name.data(); }\n";
    w.close();
    command_ = clang_command(s.flags);
    run("compiling the subject with clang", command_ + " -emit-llvm -c " + quote(wrapper) + " -o " + quote(bitcode));
    run("linking the subject into a shared library", std::string(FLIPCHECK_PROVE_CLANG) + " -shared " + quote(bitcode) + " -o " + quote(library));

    context_ = std::make_unique<llvm::LLVMContext>();
    module_ = read_ir(bitcode, *context_);
    encode_ = module_->getFunction("flipcheck_prove_encode");
    decode_ = module_->getFunction("flipcheck_prove_decode");
    key_ = module_->getFunction("flipcheck_prove_key");
    quantize_ = module_->getFunction("flipcheck_prove_quantize");
    if (!encode_ || !decode_ || !key_ || !quantize_) throw input_error("the compiled subject has no encode, decode, key or quantize entry point");

    // Lazily bound: a call the code makes to a function it does not define is refused when the IR
    // is read, which comes first; the library is only run once the IR was read.
    library_ = ::dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!library_) throw input_error(std::string("cannot load the compiled subject: ") + ::dlerror());
    native_encode_ = ::dlsym(library_, "flipcheck_prove_encode");
    native_decode_ = ::dlsym(library_, "flipcheck_prove_decode");
    native_key_ = ::dlsym(library_, "flipcheck_prove_key");
    native_quantize_ = ::dlsym(library_, "flipcheck_prove_quantize");
    auto* element = reinterpret_cast<const char* (*)()>(::dlsym(library_, "flipcheck_prove_element"));
    auto* policy = reinterpret_cast<int (*)()>(::dlsym(library_, "flipcheck_prove_policy"));
    auto* format = reinterpret_cast<const char* (*)()>(::dlsym(library_, "flipcheck_prove_format"));
    auto* key_bits = reinterpret_cast<int (*)()>(::dlsym(library_, "flipcheck_prove_key_bits"));
    auto* declared = reinterpret_cast<int (*)()>(::dlsym(library_, "flipcheck_prove_declared"));
    if (!native_encode_ || !native_decode_ || !native_key_ || !native_quantize_ || !format || !key_bits || !declared || !element || !policy)
        throw input_error("the compiled subject's library lacks its entry points");
    format_ = format();
    element_ = element();
    policy_ = policy();
    key_bits_ = key_bits();
    declared_ = declared();
    if (key_bits_ < 0)
        throw input_error(s.subject + "'s key is neither an unsigned integer nor a std::array of at most 8 bytes: the prover "
                                      "compares keys as one word");
    width_ = encode_->getReturnType()->getIntegerBitWidth();
}

compiled_subject::~compiled_subject() {
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

std::uint64_t compiled_subject::native_encode(std::uint64_t bits) const { return call_width(native_encode_, width_, bits); }
std::uint64_t compiled_subject::native_decode(std::uint64_t bits) const { return call_width(native_decode_, width_, bits); }
std::uint64_t compiled_subject::native_quantize(std::uint64_t bits) const {
    switch (width_) {
    case 16: return reinterpret_cast<std::uint64_t (*)(std::uint16_t)>(native_quantize_)(std::uint16_t(bits));
    case 32: return reinterpret_cast<std::uint64_t (*)(std::uint32_t)>(native_quantize_)(std::uint32_t(bits));
    default: return reinterpret_cast<std::uint64_t (*)(std::uint64_t)>(native_quantize_)(bits);
    }
}
std::uint64_t compiled_subject::native_key(std::uint64_t bits) const {
    switch (width_) {
    case 16: return reinterpret_cast<std::uint64_t (*)(std::uint16_t)>(native_key_)(std::uint16_t(bits));
    case 32: return reinterpret_cast<std::uint64_t (*)(std::uint32_t)>(native_key_)(std::uint32_t(bits));
    default: return reinterpret_cast<std::uint64_t (*)(std::uint64_t)>(native_key_)(bits);
    }
}

}  // namespace flipcheck::prove
