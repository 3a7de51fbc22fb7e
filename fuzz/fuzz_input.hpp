// Decoding fuzzer bytes. Floats are always raw bit patterns read straight from the bytes, never
// FuzzedDataProvider::ConsumeFloatingPoint, which cannot produce NaN or infinity.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace flipcheck::fuzz {

class input {
public:
    input(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

    std::size_t left() const { return std::size_t(end_ - p_); }
    std::uint8_t byte() { return p_ < end_ ? *p_++ : 0; }

    // A little-endian raw pattern; missing bytes read as zero so every input decodes.
    template <class S>
    S bits() {
        S v = 0;
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
