// A subject's source compiled as it will run: clang at -O2 turns a small wrapper (the user's file
// included, and C entry points calling SUBJECT::encode and SUBJECT::decode) into LLVM IR, which the
// prover reads (ir_terms.hpp), and the same IR into a shared library, which the prover runs to
// confirm a counterexample natively before it prints FAIL.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
}  // namespace llvm

namespace flipcheck::prove {

struct subject_source {
    std::string file;                // the user's C++ file (or a flipcheck header)
    std::string subject;             // a type with format, encode and decode: my_key, flipcheck::sign_flip<flipcheck::binary64>
    std::vector<std::string> flags;  // the user's compile flags (-I, -D, -std, ...)
};

class compiled_mapping {
public:
    explicit compiled_mapping(const subject_source& s);  // input_error if it does not compile
    ~compiled_mapping();
    compiled_mapping(const compiled_mapping&) = delete;
    compiled_mapping& operator=(const compiled_mapping&) = delete;

    const llvm::Function& encode() const { return *encode_; }
    const llvm::Function& decode() const { return *decode_; }
    const std::string& format_name() const { return format_; }
    // The compiled functions, run natively on storage bits (zero-extended to 64).
    std::uint64_t native_encode(std::uint64_t bits) const;
    std::uint64_t native_decode(std::uint64_t bits) const;
    const std::string& compile_command() const { return command_; }

private:
    std::string dir_, format_, command_;
    std::unique_ptr<llvm::LLVMContext> context_;
    std::unique_ptr<llvm::Module> module_;
    const llvm::Function* encode_ = nullptr;
    const llvm::Function* decode_ = nullptr;
    void* library_ = nullptr;
    void* native_encode_ = nullptr;
    void* native_decode_ = nullptr;
    unsigned width_ = 0;
};

}  // namespace flipcheck::prove
