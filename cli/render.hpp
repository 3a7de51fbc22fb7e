// Turning reports into text and JSON. Counterexamples always carry hex bits, the decimal value,
// the class, the law, expected and actual, and a command that reproduces just that key.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "flipcheck/check/pairs.hpp"
#include "flipcheck/check/report.hpp"
#include "flipcheck/run/describe.hpp"

namespace flipcheck::cli {

using run::describe;
using run::described;

std::string law_list(law_set laws);
std::string verdict(const sweep_report& r);
std::string json_verdict(const sweep_report& r);
std::string repro_command(const sweep_report& r, const counterexample& c);
std::string render_counterexample(const sweep_report& r, const counterexample& c);
std::string render_summary(const sweep_report& r);
// The verdict line's counts: "N keys checked (exhaustive), F failing". The walk's word is the
// domain's ("exhaustive", "range", "sampled") only when every key asked for was checked; an early
// stop or an interruption says so and how far it got, and keys a checkpoint carried are counted apart.
std::string verdict_counts(const sweep_report& r);
nlohmann::json to_json(const sweep_report& r);
// A pair check's report (check/pairs.hpp): its summary line, each counterexample with a repro, JSON.
std::string render_summary(const pairs_report& r);
std::string render_counterexample(const pairs_report& r, const pair_counterexample& c);
std::string json_verdict(const pairs_report& r);
nlohmann::json to_json(const pairs_report& r);
// The verdict line of a check of several things: "PASS: 17 subjects checked, none failed",
// "FAIL: 2 of 6 subjects failed", "INTERRUPTED: 3 of 5 subjects checked (1 failed), 2 not checked".
// `noun` is one of them ("subject", "workgroup size"); `asked` how many were to be checked.
std::string tally_verdict(const std::string& noun, std::size_t failed, std::size_t checked, std::size_t asked, bool stopped);
// The last two lines of every command's report: where it ran (run/machine.hpp: the CPU, the
// floating-point environment the checks ran in and the process's own, the GPU), then
// "verdict: TEXT".
void print_verdict_line(const std::string& text);
std::string human_rate(double per_second);
std::string human_seconds(double s);
std::string human_share(double share);  // "1" for the whole, else like "6.8e-13"

}  // namespace flipcheck::cli
