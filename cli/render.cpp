#include "render.hpp"

#include <stdexcept>

#include "flipcheck/run/machine.hpp"
#include "flipcheck/catalog/registry.hpp"

#include <fmt/format.h>

#include "flipcheck/format.hpp"

namespace flipcheck::cli {
namespace {

std::string line(const described& d) { return fmt::format("{} = {} ({})", d.hex, d.value, d.kind); }

// The bits of a format's storage that are not its value's (fp6 and fp4 in a byte), and its last key.
struct value_bits_of {
    std::uint64_t unused = 0, last_key = 0;
};
value_bits_of value_bits(const std::string& format) {
    value_bits_of v;
    registry::with_name<registry::all_formats>(format, [&]<class E>() {
        v = {std::uint64_t(E::type::unused_mask), std::uint64_t(E::type::value_mask)};
    });
    return v;
}
std::string hex_key(const sweep_report& r, std::uint64_t k) { return describe(r.format, k).hex; }

}  // namespace

std::string law_list(law_set laws) {
    if ((laws & all_mapping_laws) == all_mapping_laws) return "all";
    std::string s;
    for (int l = 0; l < mapping_law_count; ++l)
        if (laws & law_bit(law_id(l))) s += (s.empty() ? "" : ",") + std::string(law_names[l]);
    return s;
}

// The same verdict as JSON spells every verdict (docs/json.md): lower case, "pass" only for a pass.
std::string json_verdict(const sweep_report& r) {
    if (r.interrupted) return "interrupted";
    return r.passed() ? "pass" : r.failing_keys ? "fail" : "incomplete";
}

std::string verdict(const sweep_report& r) {
    if (r.failing_keys) return "FAIL";
    if (r.interrupted) return "INTERRUPTED";
    if (r.keys_checked != r.range.size()) return "INCOMPLETE";
    return r.equal_to.empty() ? "pass" : "pass (equal)";
}

std::string repro_command(const sweep_report& r, const counterexample& c) {
    return fmt::format("flipcheck sweep --format {} --mapping {} --laws {} --key {}", r.format, r.mapping,
                       to_string(c.law), hex_key(r, c.key));
}

std::string render_counterexample(const sweep_report& r, const counterexample& c) {
    const described bits = describe(r.format, c.bits), other = describe(r.format, c.other);
    const std::string key = hex_key(r, c.key);
    std::string what, expected, actual;
    switch (c.law) {
        case law_id::round_trip_key:
            what = fmt::format("decode(key {}) = {}", key, line(bits));
            expected = fmt::format("encode(decode(key)) = {}", key);
            actual = hex_key(r, c.actual);
            break;
        case law_id::round_trip_bits: {
            const value_bits_of v = value_bits(r.format);
            what = fmt::format("bits {}", line(bits));
            if (c.bits & v.unused) {  // a code with unused container bits set
                what += fmt::format(" (unused bits set); encode(bits) = {}", hex_key(r, c.other));
                expected = fmt::format("{}, the key of its canonical code {} (masked), or a key above {} (rejected)",
                                       hex_key(r, c.expected), describe(r.format, c.bits & ~v.unused).hex, hex_key(r, v.last_key));
                actual = hex_key(r, c.actual);
            } else {
                if (v.unused) what += fmt::format("; encode(bits) = {}", hex_key(r, c.other));
                expected = fmt::format("decode(encode(bits)) = {}", bits.hex) +
                           (v.unused ? fmt::format(", through one of the format's keys 0..{}", hex_key(r, v.last_key)) : "");
                actual = line(describe(r.format, c.actual)) +
                         (v.unused && c.other > v.last_key ? fmt::format(", through key {}, outside them", hex_key(r, c.other)) : "");
            }
            break;
        }
        case law_id::successor_order:
            what = fmt::format("decode(key {}) = {}; decode(key+1) = {}", key, line(bits), line(other));
            expected = fmt::format("{} < {} in IEEE totalOrder", bits.value, other.value);
            actual = "not less: the keys sort these two the wrong way";
            break;
        case law_id::zero_placement:
            what = fmt::format("decode(key {}) = {}", key, line(bits));
            expected = "decode(key+1) = +0 (the zeros are adjacent, -0 below)";
            actual = c.other ? "-0 has the last key" : fmt::format("decode(key+1) = {}", line(describe(r.format, c.actual)));
            break;
        case law_id::nan_total_order:
        case law_id::nan_propagate:
        case law_id::nan_ignore: {
            what = fmt::format("decode(key {}) = {}", key, line(bits));
            const bool above = c.actual > c.expected;
            expected = c.law == law_id::nan_total_order
                           ? fmt::format("key {} {}", above ? "<" : ">", hex_key(r, c.expected))
                           : fmt::format("key within the bound {}", hex_key(r, c.expected));
            expected += c.law == law_id::nan_total_order   ? " (a NaN beyond every number of its sign)"
                        : c.law == law_id::nan_propagate ? " (the canonical NaN's key)"
                                                         : " (the greatest or least number: infinity where there is one)";
            actual = fmt::format("key {}", key);
            break;
        }
        default:
            what = fmt::format("bits {}", line(bits));
            expected = hex_key(r, c.expected);
            actual = hex_key(r, c.actual);
    }
    return fmt::format("  {} broken at key {}\n    {}\n    expected: {}\n    actual:   {}\n    repro:    {}\n",
                       to_string(c.law), key, what, expected, actual, repro_command(r, c));
}

void print_verdict_line(const std::string& text) {
    fmt::print("{}\nverdict: {}\n", run::environment_line(), text);
}

std::string tally_verdict(const std::string& noun, std::size_t failed, std::size_t checked, std::size_t asked, bool stopped) {
    const auto some = [&](std::size_t n) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); };
    if (stopped)
        return fmt::format("INTERRUPTED: {} of {} checked{}, {} not checked", checked, some(asked),
                           failed ? fmt::format(" ({} failed)", failed) : "", asked - checked);
    if (failed) return fmt::format("FAIL: {} of {} failed", failed, some(checked));
    return fmt::format("PASS: {} checked, none failed", some(checked));
}

std::string human_rate(double v) {
    if (v >= 1e9) return fmt::format("{:.2f} G/s", v / 1e9);
    if (v >= 1e6) return fmt::format("{:.1f} M/s", v / 1e6);
    return fmt::format("{:.0f} /s", v);
}

std::string human_seconds(double s) {
    if (s < 1e-3) return fmt::format("{:.0f} us", s * 1e6);
    return s < 1 ? fmt::format("{:.1f} ms", s * 1e3) : fmt::format("{:.2f} s", s);
}

std::string human_share(double share) { return share == 1 ? "1" : fmt::format("{:.2g}", share); }

std::string render_summary(const sweep_report& r) {
    std::string s = fmt::format("{} {} [{} {}] laws={} keys={}{} coverage={} verdict={} time={} rate={}\n", r.format,
                                r.mapping, r.backend, r.domain, law_list(r.laws), r.keys_checked,
                                r.keys_resumed ? fmt::format(" (resumed {})", r.keys_resumed) : "",
                                human_share(r.coverage()), verdict(r),
                                human_seconds(r.seconds), human_rate(r.keys_per_second()));
    if (!r.unused_bits.empty())
        s += fmt::format("  codes with unused container bits set: the mapping {}\n",
                         r.unused_bits == "neither" ? "neither masks nor rejects them all (round_trip_bits fails there)"
                                                    : r.unused_bits + " them");
    if (r.failing_keys) {
        s += fmt::format("  {} failing key(s){}; by law:", r.failing_keys, r.stopped_early ? " before stopping early" : "");
        for (int l = 0; l < mapping_law_count; ++l)
            if (r.failures_by_law[l]) s += fmt::format(" {}={}", law_names[l], r.failures_by_law[l]);
        s += "\n";
    }
    return s;
}

std::string verdict_counts(const sweep_report& r) {
    const std::uint64_t asked = r.range.size() ? r.range.size() : r.keys_checked;
    std::string walk = r.domain;
    if (r.keys_checked != asked || r.stopped_early || r.interrupted)
        walk = fmt::format("not {}: {} after {} of the {} keys asked for{}",
                           r.domain == "sampled" ? "the whole sample" : r.domain == "range" ? "the whole range" : "exhaustive",
                           r.interrupted ? "interrupted" : r.stopped_early ? "stopped at --limit" : "ended", r.keys_checked, asked,
                           r.stopped_early ? "; --all checks them all" : "");
    const std::string resumed =
        r.keys_resumed ? fmt::format(", {} of them carried from the checkpoint (checked by an earlier run)", r.keys_resumed) : "";
    return fmt::format("{} keys checked ({}){}, {} failing", r.keys_checked, walk, resumed, r.failing_keys);
}

nlohmann::json to_json(const sweep_report& r) {
    nlohmann::json j{{"format", r.format},
                     {"mapping", r.mapping},
                     {"backend", r.backend},
                     {"domain", r.domain},
                     {"coverage", r.coverage()},
                     {"laws", law_list(r.laws)},
                     {"range", {r.range.begin, r.range.end}},
                     {"keys_checked", r.keys_checked},
                     {"keys_resumed", r.keys_resumed},
                     {"failing_keys", r.failing_keys},
                     {"stopped_early", r.stopped_early},
                     {"interrupted", r.interrupted},
                     {"verdict", json_verdict(r)},
                     {"seconds", r.seconds},
                     {"keys_per_second", r.keys_per_second()}};
    if (!r.equal_to.empty()) j["equal_to"] = r.equal_to;  // proved by agreeing with it on every key
    nlohmann::json by_law = nlohmann::json::object();
    for (int l = 0; l < mapping_law_count; ++l) by_law[std::string(law_names[l])] = r.failures_by_law[l];
    j["failures_by_law"] = by_law;
    j["counterexamples"] = nlohmann::json::array();
    for (const auto& c : r.counterexamples) {
        const described b = describe(r.format, c.bits);
        j["counterexamples"].push_back({{"law", to_string(c.law)},
                                        {"key", hex_key(r, c.key)},
                                        {"bits", b.hex},
                                        {"value", b.value},
                                        {"class", b.kind},
                                        {"other", describe(r.format, c.other).hex},
                                        {"expected", hex_key(r, c.expected)},
                                        {"actual", hex_key(r, c.actual)},
                                        {"repro", repro_command(r, c)}});
    }
    return j;
}

std::string json_verdict(const pairs_report& r) {
    if (r.interrupted) return "interrupted";
    return r.passed() ? "pass" : r.failing_pairs ? "fail" : "incomplete";
}

std::string render_summary(const pairs_report& r) {
    std::string s = fmt::format("{} {} pairs, op {} [{}]: rows (first operands) [{}, {}) of {}, {} rows checked ({:.6g} pairs), "
                                "{} failing pairs{}, time={} rate={}\n",
                                r.format, r.mapping, r.op, r.backend, describe(r.format, r.rows.begin).hex,
                                r.rows.end == (std::uint64_t(1) << r.key_bits) ? fmt::format("2^{}", r.key_bits) : describe(r.format, r.rows.end).hex,
                                fmt::format("2^{}", r.key_bits), r.rows_checked, r.pairs_checked(), r.failing_pairs,
                                r.stopped_early ? " (stopped after the first failing rows: --all counts them all)" : "",
                                human_seconds(r.seconds), human_rate(r.pairs_per_second()));
    return s;
}

std::string render_counterexample(const pairs_report& r, const pair_counterexample& c) {
    return fmt::format("  {}({}, {}) through the keys gives {}\n    totalOrder's {}: {}\n    repro: flipcheck pairs --format {} --mapping {} --op {} "
                       "--rows {}:{:#x} --device cpu\n",
                       r.op, line(describe(r.format, c.a)), line(describe(r.format, c.b)), line(describe(r.format, c.actual)), r.op,
                       line(describe(r.format, c.expected)), r.format, r.mapping, r.op, describe(r.format, c.a).hex, c.a + 1);
}

nlohmann::json to_json(const pairs_report& r) {
    nlohmann::json j{{"format", r.format},
                     {"mapping", r.mapping},
                     {"op", r.op},
                     {"backend", r.backend},
                     {"key_bits", r.key_bits},
                     {"rows", {r.rows.begin, r.rows.end}},
                     {"rows_checked", r.rows_checked},
                     {"pairs_checked", r.pairs_checked()},
                     {"failing_pairs", r.failing_pairs},
                     {"stopped_early", r.stopped_early},
                     {"interrupted", r.interrupted},
                     {"verdict", json_verdict(r)},
                     {"seconds", r.seconds},
                     {"pairs_per_second", r.pairs_per_second()}};
    j["counterexamples"] = nlohmann::json::array();
    for (const auto& c : r.counterexamples)
        j["counterexamples"].push_back({{"a", describe(r.format, c.a).hex},
                                        {"b", describe(r.format, c.b).hex},
                                        {"expected", describe(r.format, c.expected).hex},
                                        {"actual", describe(r.format, c.actual).hex}});
    return j;
}

}  // namespace flipcheck::cli
