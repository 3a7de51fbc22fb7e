// Hand-written bit patterns, straight from the IEEE layouts: never computed by code under test.
#pragma once
#include <cstdint>
#include <vector>

namespace flipcheck::test {

// One row: a pattern and the key that sign_flip (and every correct unsigned mapping) gives it.
template <class S>
struct known_key {
    const char* what;
    S bits;
    S key;
};

// Rows are listed in ascending totalOrder, so the keys must ascend too.
inline const std::vector<known_key<std::uint32_t>> binary32_keys{
    {"-qnan", 0xffc00000u, 0x003fffffu},  {"-snan", 0xff800001u, 0x007ffffeu},
    {"-inf", 0xff800000u, 0x007fffffu},   {"-max", 0xff7fffffu, 0x00800000u},
    {"-1", 0xbf800000u, 0x407fffffu},     {"-min_normal", 0x80800000u, 0x7f7fffffu},
    {"-max_sub", 0x807fffffu, 0x7f800000u}, {"-denorm_min", 0x80000001u, 0x7ffffffeu},
    {"-0", 0x80000000u, 0x7fffffffu},     {"+0", 0x00000000u, 0x80000000u},
    {"+denorm_min", 0x00000001u, 0x80000001u}, {"+max_sub", 0x007fffffu, 0x807fffffu},
    {"+min_normal", 0x00800000u, 0x80800000u}, {"+1", 0x3f800000u, 0xbf800000u},
    {"+max", 0x7f7fffffu, 0xff7fffffu},   {"+inf", 0x7f800000u, 0xff800000u},
    {"+snan", 0x7f800001u, 0xff800001u},  {"+qnan", 0x7fc00000u, 0xffc00000u},
};

inline const std::vector<known_key<std::uint16_t>> binary16_keys{
    {"-qnan", 0xfe00, 0x01ff},  {"-snan", 0xfc01, 0x03fe}, {"-inf", 0xfc00, 0x03ff},
    {"-max", 0xfbff, 0x0400},   {"-1", 0xbc00, 0x43ff},    {"-min_normal", 0x8400, 0x7bff},
    {"-max_sub", 0x83ff, 0x7c00}, {"-denorm_min", 0x8001, 0x7ffe}, {"-0", 0x8000, 0x7fff},
    {"+0", 0x0000, 0x8000},     {"+denorm_min", 0x0001, 0x8001}, {"+max_sub", 0x03ff, 0x83ff},
    {"+min_normal", 0x0400, 0x8400}, {"+1", 0x3c00, 0xbc00}, {"+max", 0x7bff, 0xfbff},
    {"+inf", 0x7c00, 0xfc00},   {"+snan", 0x7c01, 0xfc01}, {"+qnan", 0x7e00, 0xfe00},
};

inline const std::vector<known_key<std::uint16_t>> bfloat16_keys{
    {"-qnan", 0xffc0, 0x003f},  {"-snan", 0xff81, 0x007e}, {"-inf", 0xff80, 0x007f},
    {"-max", 0xff7f, 0x0080},   {"-1", 0xbf80, 0x407f},    {"-min_normal", 0x8080, 0x7f7f},
    {"-max_sub", 0x807f, 0x7f80}, {"-denorm_min", 0x8001, 0x7ffe}, {"-0", 0x8000, 0x7fff},
    {"+0", 0x0000, 0x8000},     {"+denorm_min", 0x0001, 0x8001}, {"+max_sub", 0x007f, 0x807f},
    {"+min_normal", 0x0080, 0x8080}, {"+1", 0x3f80, 0xbf80}, {"+max", 0x7f7f, 0xff7f},
    {"+inf", 0x7f80, 0xff80},   {"+snan", 0x7f81, 0xff81}, {"+qnan", 0x7fc0, 0xffc0},
};

inline const std::vector<known_key<std::uint64_t>> binary64_keys{
    {"-qnan", 0xfff8000000000000u, 0x0007ffffffffffffu}, {"-snan", 0xfff0000000000001u, 0x000ffffffffffffeu},
    {"-inf", 0xfff0000000000000u, 0x000fffffffffffffu},  {"-max", 0xffefffffffffffffu, 0x0010000000000000u},
    {"-1", 0xbff0000000000000u, 0x400fffffffffffffu},    {"-min_normal", 0x8010000000000000u, 0x7fefffffffffffffu},
    {"-max_sub", 0x800fffffffffffffu, 0x7ff0000000000000u}, {"-denorm_min", 0x8000000000000001u, 0x7ffffffffffffffeu},
    {"-0", 0x8000000000000000u, 0x7fffffffffffffffu},    {"+0", 0x0000000000000000u, 0x8000000000000000u},
    {"+denorm_min", 0x0000000000000001u, 0x8000000000000001u}, {"+max_sub", 0x000fffffffffffffu, 0x800fffffffffffffu},
    {"+min_normal", 0x0010000000000000u, 0x8010000000000000u}, {"+1", 0x3ff0000000000000u, 0xbff0000000000000u},
    {"+max", 0x7fefffffffffffffu, 0xffefffffffffffffu},  {"+inf", 0x7ff0000000000000u, 0xfff0000000000000u},
    {"+snan", 0x7ff0000000000001u, 0xfff0000000000001u}, {"+qnan", 0x7ff8000000000000u, 0xfff8000000000000u},
};

}  // namespace flipcheck::test
