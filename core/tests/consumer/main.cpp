#include <flipcheck/sweep.hpp>

#include <cstdio>

struct users_map {
    using format = flipcheck::binary16;
    static constexpr std::string_view name = "users_map";
    static constexpr std::uint16_t encode(std::uint16_t b) { return (b & 0x8000) ? std::uint16_t(~b) : std::uint16_t(b | 0x8000); }
    static constexpr std::uint16_t decode(std::uint16_t k) { return (k & 0x8000) ? std::uint16_t(k & 0x7fff) : std::uint16_t(~k); }
};

int main() {
    const flipcheck::sweep_report r = flipcheck::sweep<users_map>({});
    std::printf("%s: %llu keys, %llu failing\n", r.mapping.c_str(), (unsigned long long)r.keys_checked,
                (unsigned long long)r.failing_keys);
    return r.passed() && r.keys_checked == 65536 ? 0 : 1;
}
