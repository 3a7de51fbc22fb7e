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

#include "compile_cache.hpp"
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

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
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

// The wrapper's folder, IR and shared library, held by every subject compiled with it.
struct compiled_subject::build {
    std::string dir, command;
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;  // destroyed before its context
    void* library = nullptr;
    ~build() {
        module.reset();
        if (library) ::dlclose(library);
        std::error_code ec;
        if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
};

compiled_subject::compiled_subject(const subject_source& s) : compiled_subject(std::move(compile(s.file, {s.subject}, s.flags).front())) {}

compiled_subject::compiled_subject(compiled_subject&&) noexcept = default;
compiled_subject::~compiled_subject() = default;

std::vector<compiled_subject> compiled_subject::compile(const std::string& file, const std::vector<std::string>& subjects,
                                                        const std::vector<std::string>& flags) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) throw input_error("--source " + file + " is not a readable file");
    if (subjects.empty()) throw input_error("--subject: name the mapping type (a struct with format, encode and decode)");
    for (const auto& s : subjects)
        if (s.empty()) throw input_error("--subject: name the mapping type (a struct with format, encode and decode)");
    auto b = std::make_shared<build>();
    b->dir = temporary_folder();
    const std::string wrapper = b->dir + "/subject.cpp";
    std::string bitcode = b->dir + "/subject.bc", library = b->dir + "/subject.so";
    // The wrapper: the file, then C entry points that name each subject's functions and format,
    // suffixed by its place in the list. A canonical key comes back as one word that compares as
    // the key does (key_word: an integer as itself, bytes big-endian); key_bits is -1 for a key
    // that has no such word.
    std::ofstream w(wrapper);
    w << "#include \"" << std::filesystem::absolute(file).string() << "\"\n"
      << "#include <array>\n#include <cstdint>\n#include <type_traits>\n"
      // key_word declared, not its header included: canonical_key.hpp brings every format's
      // definition (formats.hpp), half of clang's time on a mapping's wrapper (0.27 of 0.55 s),
      // and a canonical key's own file includes it already (its `declared` is that header's).
      << "namespace flipcheck { template <class K> constexpr std::uint64_t key_word(const K& k) noexcept; }\n"
      << "#include <bit>\n"
      << "template <class U> auto flipcheck_prove_storage_of() {\n"
      << "  if constexpr (requires { typename U::format; }) return typename U::format::storage{}; else return std::uint32_t{}; }\n"
      << "template <class T> struct flipcheck_prove_entry {\n"
      << "  using S = decltype(flipcheck_prove_storage_of<T>());  // a scale's input: a binary32 amax's bits\n"
      << "  static constexpr bool is_key = requires(S x) { T::key(x); };\n"
      << "  static constexpr bool is_quantizer = requires(S x) { typename T::element; T::declared; T::quantize(x); };\n"
      << "  static constexpr bool is_scale = !is_quantizer && requires(std::uint32_t a) { typename T::element; T::scale(a); };\n"
      << "  static constexpr bool is_mapping = !is_key && !is_quantizer && !is_scale;\n"
      << "  static S encode(S b) { if constexpr (is_mapping) return T::encode(b); else return b; }\n"
      << "  static S decode(S k) { if constexpr (is_mapping) return T::decode(k); else return k; }\n"
      << "  static std::uint64_t quantize(S b) { if constexpr (is_quantizer) return std::uint64_t(T::quantize(b)); else return b; }\n"
      << "  static const char* element() { if constexpr (is_quantizer || is_scale) return T::element::name.data(); else return \"\"; }\n"
      << "  static std::uint64_t scale(S b) { if constexpr (is_scale) return std::uint64_t(T::scale(b)); else return b; }\n"
      << "  // A scale's recipe (scale_recipe.hpp; OCP's where it declares none): its rounding in bits 32 and\n"
      << "  // up, its amax floor's binary32 bits below; -1 for a subject that is no scale.\n"
      << "  static long long recipe() {\n"
      << "    if constexpr (!is_scale) return -1;\n"
      << "    else if constexpr (requires { T::recipe; }) return (long long)(int(T::recipe.round)) << 32 | std::bit_cast<std::uint32_t>(T::recipe.amax_floor);\n"
      << "    else return 0; }  // OCP's floor, no amax floor\n"
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
      << "  static const char* format() { if constexpr (requires { typename T::format; }) return T::format::name.data(); else return \"binary32\"; }\n"
      << "};\n";
    for (std::size_t i = 0; i < subjects.size(); ++i) {
        const std::string e = "flipcheck_prove_entry<" + subjects[i] + ">", n = "_" + std::to_string(i);
        w << "extern \"C\" " << e << "::S flipcheck_prove_encode" << n << "(" << e << "::S b) { return " << e << "::encode(b); }\n"
          << "extern \"C\" " << e << "::S flipcheck_prove_decode" << n << "(" << e << "::S k) { return " << e << "::decode(k); }\n"
          << "extern \"C\" std::uint64_t flipcheck_prove_key" << n << "(" << e << "::S b) { return " << e << "::key(b); }\n"
          << "extern \"C\" std::uint64_t flipcheck_prove_quantize" << n << "(" << e << "::S b) { return " << e << "::quantize(b); }\n"
          << "extern \"C\" std::uint64_t flipcheck_prove_scale" << n << "(" << e << "::S b) { return " << e << "::scale(b); }\n"
          << "extern \"C\" long long flipcheck_prove_recipe" << n << "() { return " << e << "::recipe(); }\n"
          << "extern \"C\" int flipcheck_prove_key_bits" << n << "() { return " << e << "::key_bits(); }\n"
          << "extern \"C\" int flipcheck_prove_declared" << n << "() { return " << e << "::declared(); }\n"
          << "extern \"C\" const char* flipcheck_prove_element" << n << "() { return " << e << "::element(); }\n"
          << "extern \"C\" int flipcheck_prove_policy" << n << "() { return " << e << "::policy(); }\n"
          << "extern \"C\" const char* flipcheck_prove_format" << n << "() { return " << e << "::format(); }\n";
    }
    w.close();
    b->command = clang_command(flags);
    // Preprocessed first: that text (every header in it) keys the compile cache; what is compiled
    // on a miss is that same text.
    const std::string preprocessed = b->dir + "/subject.ii";
    run("compiling the subject with clang", b->command + " -E " + quote(wrapper) + " -o " + quote(preprocessed));
    const std::string key = compile_key(b->command, FLIPCHECK_PROVE_CLANG, read_text(preprocessed), b->dir);
    if (const std::string entry = cached_compile(key); !entry.empty()) {
        bitcode = entry + "/subject.bc";
        library = entry + "/subject.so";
    } else {
        run("compiling the subject with clang", b->command + " -emit-llvm -c " + quote(preprocessed) + " -o " + quote(bitcode));
        run("linking the subject into a shared library", std::string(FLIPCHECK_PROVE_CLANG) + " -shared " + quote(bitcode) + " -o " + quote(library));
        keep_compile(key, bitcode, library);
    }
    b->context = std::make_unique<llvm::LLVMContext>();
    b->module = read_ir(bitcode, *b->context);
    // Lazily bound: a call the code makes to a function it does not define is refused when the IR
    // is read, which comes first; the library is only run once the IR was read.
    b->library = ::dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!b->library) throw input_error(std::string("cannot load the compiled subject: ") + ::dlerror());
    std::vector<compiled_subject> out;
    for (std::size_t i = 0; i < subjects.size(); ++i) out.push_back(compiled_subject(b, i, subjects[i]));
    return out;
}

compiled_subject::compiled_subject(std::shared_ptr<const build> b, std::size_t index, const std::string& subject) : build_(std::move(b)) {
    const std::string n = "_" + std::to_string(index);
    const llvm::Module& module = *build_->module;
    encode_ = module.getFunction("flipcheck_prove_encode" + n);
    decode_ = module.getFunction("flipcheck_prove_decode" + n);
    key_ = module.getFunction("flipcheck_prove_key" + n);
    quantize_ = module.getFunction("flipcheck_prove_quantize" + n);
    scale_ = module.getFunction("flipcheck_prove_scale" + n);
    if (!encode_ || !decode_ || !key_ || !quantize_ || !scale_)
        throw input_error("the compiled subject has no encode, decode, key, quantize or scale entry point");
    auto symbol = [&](const char* name) {
        void* f = ::dlsym(build_->library, (name + n).c_str());
        if (!f) throw input_error("the compiled subject's library lacks its entry points");
        return f;
    };
    native_encode_ = symbol("flipcheck_prove_encode");
    native_decode_ = symbol("flipcheck_prove_decode");
    native_key_ = symbol("flipcheck_prove_key");
    native_quantize_ = symbol("flipcheck_prove_quantize");
    native_scale_ = symbol("flipcheck_prove_scale");
    recipe_ = reinterpret_cast<long long (*)()>(symbol("flipcheck_prove_recipe"))();
    format_ = reinterpret_cast<const char* (*)()>(symbol("flipcheck_prove_format"))();
    element_ = reinterpret_cast<const char* (*)()>(symbol("flipcheck_prove_element"))();
    policy_ = reinterpret_cast<int (*)()>(symbol("flipcheck_prove_policy"))();
    key_bits_ = reinterpret_cast<int (*)()>(symbol("flipcheck_prove_key_bits"))();
    declared_ = reinterpret_cast<int (*)()>(symbol("flipcheck_prove_declared"))();
    if (key_bits_ < 0)
        throw input_error(subject + "'s key is neither an unsigned integer nor a std::array of at most 8 bytes: the prover "
                                    "compares keys as one word");
    width_ = encode_->getReturnType()->getIntegerBitWidth();
}

const std::string& compiled_subject::compile_command() const { return build_->command; }

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
std::uint8_t compiled_subject::native_scale(std::uint32_t amax_bits) const {
    return std::uint8_t(reinterpret_cast<std::uint64_t (*)(std::uint32_t)>(native_scale_)(amax_bits));
}
std::uint64_t compiled_subject::native_key(std::uint64_t bits) const {
    switch (width_) {
    case 16: return reinterpret_cast<std::uint64_t (*)(std::uint16_t)>(native_key_)(std::uint16_t(bits));
    case 32: return reinterpret_cast<std::uint64_t (*)(std::uint32_t)>(native_key_)(std::uint32_t(bits));
    default: return reinterpret_cast<std::uint64_t (*)(std::uint64_t)>(native_key_)(bits);
    }
}

}  // namespace flipcheck::prove
