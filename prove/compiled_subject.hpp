// A subject's source compiled as it will run: clang at -O2 turns a small wrapper (the user's file
// included, and C entry points calling SUBJECT::encode and SUBJECT::decode, SUBJECT::key as one
// word that compares as the key does, or SUBJECT::quantize) into LLVM IR, which the prover reads (ir_terms.hpp), and the
// same IR into a shared library, which the prover runs to confirm a counterexample natively before
// it prints FAIL.
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
    std::string subject;             // a mapping (format, encode, decode) or a canonical key (format, declared, key):
                                     // my_key, flipcheck::sign_flip<flipcheck::binary64>
    std::vector<std::string> flags;  // the user's compile flags (-I, -D, -std, ...)
};

// Any C++ file compiled the same way (clang -O2, flipcheck's headers on the path), its functions
// by their (extern "C") names: what the prover's own checks read, such as flipcheck's C++ oracle.
class compiled_file {
public:
    compiled_file(const std::string& file, const std::vector<std::string>& flags);  // input_error if it does not compile
    ~compiled_file();
    compiled_file(const compiled_file&) = delete;
    compiled_file& operator=(const compiled_file&) = delete;
    const llvm::Function& function(const std::string& name) const;

private:
    std::string dir_;
    std::unique_ptr<llvm::LLVMContext> context_;
    std::unique_ptr<llvm::Module> module_;
};

class compiled_subject {
public:
    explicit compiled_subject(const subject_source& s);  // input_error if it does not compile
    // Several subjects of one file compiled once (one wrapper naming each), in the order given: the
    // main job proves its binary64 built-ins so, clang started once.
    static std::vector<compiled_subject> compile(const std::string& file, const std::vector<std::string>& subjects,
                                                 const std::vector<std::string>& flags);
    compiled_subject(compiled_subject&&) noexcept;
    ~compiled_subject();
    compiled_subject(const compiled_subject&) = delete;
    compiled_subject& operator=(const compiled_subject&) = delete;

    bool is_key() const { return key_bits_ != 0; }       // a canonical key
    bool is_quantizer() const { return policy_ >= 0; }  // a quantizer
    bool is_scale() const { return recipe_ >= 0; }      // an MX scale (scale_recipe.hpp); none of them: a mapping
    const llvm::Function& encode() const { return *encode_; }
    const llvm::Function& decode() const { return *decode_; }
    // A canonical key: key_word(SUBJECT::key(x)) (canonical_key.hpp), its key's width in bits (an
    // unsigned integer's, or 8 a byte of a byte key), and the equivalence it declares.
    const llvm::Function& key() const { return *key_; }
    unsigned key_bits() const { return unsigned(key_bits_); }
    int declared() const { return declared_; }
    const std::string& format_name() const { return format_; }
    // A quantizer (quantize.hpp): SUBJECT::quantize(x) zero-extended to 64 bits, the element's
    // name, and its declared policy as round * 4 + saturate.
    const llvm::Function& quantize() const { return *quantize_; }
    const std::string& element_name() const { return element_; }
    int policy() const { return policy_; }
    std::uint64_t native_quantize(std::uint64_t bits) const;
    // An MX scale (check/scales.hpp's mx scale subject): SUBJECT::scale(amax bits), the e8m0 code
    // of a binary32 amax for its element (element_name), under the recipe it declares.
    const llvm::Function& scale() const { return *scale_; }
    std::uint8_t native_scale(std::uint32_t amax_bits) const;
    bool recipe_ceil() const { return (recipe_ >> 32) != 0; }                // scale_rounding::ceil
    std::uint32_t recipe_amax_floor() const { return std::uint32_t(recipe_); }  // its amax floor's binary32 bits (0: none)
    // The compiled functions, run natively on storage bits (zero-extended to 64).
    std::uint64_t native_encode(std::uint64_t bits) const;
    std::uint64_t native_decode(std::uint64_t bits) const;
    std::uint64_t native_key(std::uint64_t bits) const;
    const std::string& compile_command() const;

private:
    struct build;
    compiled_subject(std::shared_ptr<const build> b, std::size_t index, const std::string& subject);

    std::shared_ptr<const build> build_;
    std::string format_, element_;
    const llvm::Function* encode_ = nullptr;
    const llvm::Function* decode_ = nullptr;
    const llvm::Function* key_ = nullptr;
    const llvm::Function* quantize_ = nullptr;
    const llvm::Function* scale_ = nullptr;
    void* native_encode_ = nullptr;
    void* native_decode_ = nullptr;
    void* native_key_ = nullptr;
    void* native_quantize_ = nullptr;
    void* native_scale_ = nullptr;
    int key_bits_ = 0, declared_ = -1, policy_ = -1;
    long long recipe_ = -1;
    unsigned width_ = 0;
};

}  // namespace flipcheck::prove
