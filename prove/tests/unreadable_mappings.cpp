// Mappings the prover must not prove (prove_test.cpp): code it does not read, refused by name with
// the source line, and code with undefined behaviour, a failure of its own. Never compiled into a
// test binary: the prover compiles this file with clang.
#include <bit>
#include <cstdint>
#include <string_view>

#include "flipcheck/formats.hpp"

extern std::uint32_t opaque(std::uint32_t);  // defined nowhere: the prover reads one function's own code

struct calls_opaque {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "calls_opaque";
    static std::uint32_t encode(std::uint32_t b) { return opaque(b); }  // line 15
    static std::uint32_t decode(std::uint32_t k) { return k; }
};

// A loop whose trip count is the input's: clang cannot unroll it.
struct loops {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "loops";
    static std::uint32_t encode(std::uint32_t b) {
        std::uint32_t k = b;
        for (std::uint32_t i = 0; i < (b & 0xffu); ++i) k = k * 2654435761u + (k >> 7);
        return k;
    }
    static std::uint32_t decode(std::uint32_t k) { return k; }
};

// A shift by the input's top bits: 0x80000000 >> 32 and more is undefined (LLVM: poison).
struct shifts_too_far {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "shifts_too_far";
    static std::uint32_t encode(std::uint32_t b) { return b ^ (0x80000000u >> (b >> 26)); }
    static std::uint32_t decode(std::uint32_t k) { return k; }
};

// A format whose laws the prover does not state (it enumerates 256 codes instead).
struct byte_format {
    using format = flipcheck::float8_e4m3fn;
    static constexpr std::string_view name = "byte_format";
    static std::uint8_t encode(std::uint8_t b) { return b; }
    static std::uint8_t decode(std::uint8_t k) { return k; }
};

// Float arithmetic the compiler may reassociate (what -ffast-math allows): the code generator may
// still change the result's bits after the IR, so the IR does not fix them.
// A table indexed by the input: clang makes it a constant global, memory the prover does not read
// (it reads locals whose address is taken only by loads, stores and frexp).
struct table_key {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "table_key";
    static constexpr std::uint32_t flip[2] = {0x80000000u, 0xffffffffu};
    static std::uint32_t encode(std::uint32_t b) { return b ^ flip[b >> 31]; }  // line 55
    static std::uint32_t decode(std::uint32_t k) { return k ^ flip[(k >> 31) ^ 1]; }
};

struct reassociated {
    using format = flipcheck::binary32;
    static constexpr std::string_view name = "reassociated";
    static std::uint32_t encode(std::uint32_t b) {
#pragma clang fp reassociate(on)
        return std::bit_cast<std::uint32_t>(std::bit_cast<float>(b) * 3.0f);  // line 64
    }
    static std::uint32_t decode(std::uint32_t k) { return k; }
};
