// What users type or hand flipcheck as files, read by the same code the command uses: numbers
// (number.hpp: --key, --keys, --shard, counts), case files (check/reducers.hpp's parse_case, every format
// of the registry) and checkpoints (checkpoint.hpp). The first byte picks the reader (low 2 bits:
// 0 a number, its limit 2^(high 6 bits) - 1; 1 a case, of the format whose registry id is the high
// bits + 1; 2 and 3 a checkpoint); the rest is the text. A reader may only accept or throw input_error (anything else fails the run), and what
// it accepts must come back unchanged through its writer:
//   a number: its decimal text reads back as the same value;
//   a case: format_case of it reads back as the same bits and order;
//   a checkpoint: it is consistent (validate) and its text() reads back as the same text.
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/checkpoint.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"
#include "flipcheck/catalog/registry.hpp"

namespace fc = flipcheck;

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::logic_error("user_inputs: " + what); }

void number(std::string_view text, std::uint8_t limit_bits) {
    const std::uint64_t max = limit_bits % 64 == 0 ? ~std::uint64_t(0) : (std::uint64_t(1) << (limit_bits % 64)) - 1;
    std::uint64_t v = 0;
    try {
        v = fc::parse_number(text, "n", max);
    } catch (const fc::input_error&) {
        return;
    }
    if (v > max || fc::parse_number(std::to_string(v), "n", max) != v) fail("number '" + std::string(text) + "' does not read back");
}

template <fc::format F>
void case_text(std::string_view text) {
    std::pair<std::vector<typename F::storage>, std::vector<std::size_t>> c;
    try {
        c = fc::parse_case<F>(text);
    } catch (const fc::input_error&) {
        return;
    }
    const auto again = fc::parse_case<F>(fc::format_case<F>(c.first, c.second));
    bool identity = c.second.size() == c.first.size();  // an order that is the index order is not written
    for (std::size_t i = 0; identity && i < c.second.size(); ++i) identity = c.second[i] == i;
    const bool same_order = again.second == c.second || (again.second.empty() && (c.second.empty() || identity));
    if (again.first != c.first || !same_order) fail("case '" + std::string(text.substr(0, 80)) + "' does not read back");
}

void checkpoint_text(std::string_view text) {
    std::istringstream in{std::string(text)};
    fc::checkpoint c;
    try {
        c = fc::checkpoint::parse(in, "fuzz");
    } catch (const fc::input_error&) {
        return;
    }
    c.validate("fuzz");  // parse validated it: an input_error here is a bug, and fails the run
    std::istringstream again(c.text());
    if (fc::checkpoint::parse(again, "fuzz again").text() != c.text()) fail("checkpoint does not read back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t what = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (what & 3) {  // the reader in the low 2 bits, its parameter in the high 6
            case 0: number(text, std::uint8_t(what >> 2)); break;
            case 1: {
                namespace reg = fc::registry;
                const std::uint8_t id = std::uint8_t(what >> 2) % 16 + 1;
                reg::with_id<reg::all_formats>(id, [&]<class E>() { case_text<typename E::type>(text); });
                break;
            }
            default: checkpoint_text(text); break;
        }
    } catch (const fc::input_error& e) {
        fail(std::string("an input_error escaped a writer's read-back: ") + e.what());
    }
    return 0;
}
