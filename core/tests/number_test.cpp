// number.hpp: the one parser of the numbers users write.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"

namespace fc = flipcheck;

TEST(number, decimal_and_hex_read_whole_and_exactly) {
    EXPECT_EQ(fc::parse_number("0", "n"), 0u);
    EXPECT_EQ(fc::parse_number("010", "n"), 10u);  // decimal, never octal
    EXPECT_EQ(fc::parse_number("09", "n"), 9u);
    EXPECT_EQ(fc::parse_number("0x10", "n"), 16u);
    EXPECT_EQ(fc::parse_number("0XfF", "n"), 255u);
    EXPECT_EQ(fc::parse_number("0xffffffffffffffff", "n"), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(fc::parse_number("18446744073709551615", "n"), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(fc::parse_number("255", "n", 255), 255u);
}

TEST(number, anything_else_is_bad_input_naming_the_number_and_its_limit) {
    for (const char* bad : {"", "-1", "+1", " 1", "1 ", "0x", "0x-1", "1e3", "12abc", "0b101", "18446744073709551616",
                            "0x10000000000000000", "1.5", "nan"})
        EXPECT_THROW(fc::parse_number(bad, "--key"), fc::input_error) << bad;
    EXPECT_THROW(fc::parse_number("256", "n", 255), fc::input_error);
    try {
        fc::parse_number("0x100000000", "--key (a key of binary32)", 0xffffffffu);
        ADD_FAILURE() << "accepted";
    } catch (const fc::input_error& e) {
        EXPECT_STREQ(e.what(), "--key (a key of binary32) '0x100000000' is not a number from 0 to 4294967295 (decimal or 0x-hex)");
    }
}

TEST(number, a_long_text_is_cut_in_the_message) {
    try {
        fc::parse_number(std::string(100000, '9'), "n");
        ADD_FAILURE() << "accepted";
    } catch (const fc::input_error& e) {
        EXPECT_LT(std::string(e.what()).size(), 200u);
    }
}
