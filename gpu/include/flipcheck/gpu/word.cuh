// core/atomic.hpp's Word on CUDA memory (global or shared), for 8-, 16-, 32- and 64-bit objects:
// the same strategy code that the CPU replays runs here on real atomics. CUDA has no 16-bit integer
// max/min atomics, so on 16 bits they are compare-and-swap loops (16-bit atomicCAS needs sm_70);
// it has no 8-bit atomics at all, so a byte is updated in place by a CAS on its aligned 32-bit
// containing word, leaving the other three bytes (other objects) as they are.
#pragma once
#include <cstdint>

namespace flipcheck::gpu {

template <class S>
struct cuda_word;

template <>
struct cuda_word<std::uint32_t> {
    unsigned* p;
    __device__ unsigned load() const { return *static_cast<volatile unsigned*>(p); }
    __device__ unsigned fetch_max(unsigned v) { return atomicMax(p, v); }
    __device__ unsigned fetch_min(unsigned v) { return atomicMin(p, v); }
    __device__ unsigned fetch_max_signed(unsigned v) { return unsigned(atomicMax(reinterpret_cast<int*>(p), int(v))); }
    __device__ unsigned fetch_min_signed(unsigned v) { return unsigned(atomicMin(reinterpret_cast<int*>(p), int(v))); }
    __device__ unsigned cas(unsigned expected, unsigned desired) { return atomicCAS(p, expected, desired); }
};

template <>
struct cuda_word<std::uint64_t> {
    using ull = unsigned long long;
    std::uint64_t* p;
    __device__ ull* u() const { return reinterpret_cast<ull*>(p); }
    __device__ long long* s() const { return reinterpret_cast<long long*>(p); }
    __device__ std::uint64_t load() const { return *static_cast<volatile ull*>(u()); }
    __device__ std::uint64_t fetch_max(std::uint64_t v) { return atomicMax(u(), ull(v)); }
    __device__ std::uint64_t fetch_min(std::uint64_t v) { return atomicMin(u(), ull(v)); }
    __device__ std::uint64_t fetch_max_signed(std::uint64_t v) { return std::uint64_t(atomicMax(s(), (long long)v)); }
    __device__ std::uint64_t fetch_min_signed(std::uint64_t v) { return std::uint64_t(atomicMin(s(), (long long)v)); }
    __device__ std::uint64_t cas(std::uint64_t e, std::uint64_t d) { return atomicCAS(u(), ull(e), ull(d)); }
};

template <>
struct cuda_word<std::uint16_t> {
    std::uint16_t* p;
    __device__ std::uint16_t load() const { return *static_cast<volatile unsigned short*>(u()); }
    __device__ unsigned short* u() const { return reinterpret_cast<unsigned short*>(p); }
    __device__ std::uint16_t cas(std::uint16_t e, std::uint16_t d) { return atomicCAS(u(), e, d); }
    template <class Better>
    __device__ std::uint16_t update_if(std::uint16_t v, Better better) {
        std::uint16_t old = load();
        while (better(v, old)) {
            const std::uint16_t seen = cas(old, v);
            if (seen == old) break;
            old = seen;
        }
        return old;
    }
    __device__ std::uint16_t fetch_max(std::uint16_t v) { return update_if(v, [](auto a, auto b) { return a > b; }); }
    __device__ std::uint16_t fetch_min(std::uint16_t v) { return update_if(v, [](auto a, auto b) { return a < b; }); }
    __device__ std::uint16_t fetch_max_signed(std::uint16_t v) {
        return update_if(v, [](auto a, auto b) { return std::int16_t(a) > std::int16_t(b); });
    }
    __device__ std::uint16_t fetch_min_signed(std::uint16_t v) {
        return update_if(v, [](auto a, auto b) { return std::int16_t(a) < std::int16_t(b); });
    }
};

template <>
struct cuda_word<std::uint8_t> {
    std::uint8_t* p;
    __device__ unsigned* container() const { return reinterpret_cast<unsigned*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t(3)); }
    __device__ unsigned shift() const { return unsigned(reinterpret_cast<std::uintptr_t>(p) & 3) * 8; }
    __device__ std::uint8_t byte_of(unsigned word) const { return std::uint8_t(word >> shift()); }
    __device__ unsigned with_byte(unsigned word, std::uint8_t v) const {
        return (word & ~(0xffu << shift())) | (unsigned(v) << shift());
    }
    // Reads of the containing word are atomic too: its other bytes may be another thread's object,
    // being updated at the same moment.
    __device__ unsigned read() const { return atomicOr(container(), 0u); }
    __device__ std::uint8_t load() const { return byte_of(read()); }
    // Replace the byte by v while keep(v, byte) says so; the old byte. A neighbour's update makes
    // the CAS fail and the loop re-read: it never overwrites their bytes.
    template <class Replace>
    __device__ std::uint8_t update_if(std::uint8_t v, Replace replace) {
        unsigned old = read();
        while (replace(v, byte_of(old))) {
            const unsigned seen = atomicCAS(container(), old, with_byte(old, v));
            if (seen == old) break;
            old = seen;
        }
        return byte_of(old);
    }
    __device__ std::uint8_t fetch_max(std::uint8_t v) { return update_if(v, [](auto a, auto b) { return a > b; }); }
    __device__ std::uint8_t fetch_min(std::uint8_t v) { return update_if(v, [](auto a, auto b) { return a < b; }); }
    __device__ std::uint8_t fetch_max_signed(std::uint8_t v) {
        return update_if(v, [](auto a, auto b) { return std::int8_t(a) > std::int8_t(b); });
    }
    __device__ std::uint8_t fetch_min_signed(std::uint8_t v) {
        return update_if(v, [](auto a, auto b) { return std::int8_t(a) < std::int8_t(b); });
    }
    __device__ std::uint8_t cas(std::uint8_t expected, std::uint8_t desired) {
        unsigned old = read();
        while (byte_of(old) == expected) {
            const unsigned seen = atomicCAS(container(), old, with_byte(old, desired));
            if (seen == old) break;
            old = seen;
        }
        return byte_of(old);
    }
};

}  // namespace flipcheck::gpu
