// Decoding fuzzer bytes. Floats are always raw bit patterns read straight from the bytes, never
// FuzzedDataProvider::ConsumeFloatingPoint, which cannot produce NaN or infinity.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// For code that only decodes or judges: libFuzzer gets no coverage feedback from it, and it costs
// no comparison callbacks or counters (ASan and UBSan still instrument it). Calls it makes that
// are not inlined are instrumented unless the coverage ignore list names them. GCC, which builds
// the replay binaries, has no coverage to turn off.
#if defined(__clang__)
#define FLIPCHECK_FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FLIPCHECK_FUZZ_NO_COVERAGE
#endif

namespace flipcheck::fuzz {

class input {
public:
    input(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

    std::size_t left() const { return std::size_t(end_ - p_); }
    std::uint8_t byte() { return p_ < end_ ? *p_++ : 0; }

    // A little-endian raw pattern; missing bytes read as zero so every input decodes.
    // One bounds check a pattern (and, on a little-endian host, one load), not one a byte.
    template <class S>
    S bits() {
        S v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (left() >= sizeof(S)) {
            std::memcpy(&v, p_, sizeof(S));
            p_ += sizeof(S);
            return v;
        }
#endif
        for (std::size_t i = 0; i < sizeof(S); ++i) v = S(v | S(S(byte()) << (8 * i)));
        return v;
    }

    // The rest of the input as patterns (a final partial pattern is zero-padded).
    template <class S>
    std::vector<S> all_bits() {
        std::vector<S> out;
        while (left()) out.push_back(bits<S>());
        return out;
    }

private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
};

// Fuzz targets report a broken law loudly and abort, which libFuzzer records as a crash with its
// input and the replay test turns into a failure.
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "flipcheck fuzz: %s\n", what);
    std::abort();
}

}  // namespace flipcheck::fuzz
