// core/atomic.hpp's Word on CUDA memory (global or shared), for 16-, 32- and 64-bit objects: the
// same strategy code that the CPU replays runs here on real atomics. CUDA has no 16-bit integer
// max/min atomics, so on 16 bits they are compare-and-swap loops (16-bit atomicCAS needs sm_70).
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

}  // namespace flipcheck::gpu
