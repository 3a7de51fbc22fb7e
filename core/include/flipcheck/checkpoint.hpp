// Sweep checkpoints: which chunks of a key range are done and what they found, so that an
// interrupted sweep resumes with no range lost or counted twice. A small text format; it is
// written to a temporary file and renamed, so a crash mid-write never leaves a torn checkpoint.
#pragma once
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flipcheck/error.hpp"
#include "flipcheck/report.hpp"

namespace flipcheck {

struct checkpoint {
    static constexpr const char* magic = "flipcheck-checkpoint 1";
    // Identity: a checkpoint only resumes the very same sweep.
    std::string format, mapping;
    law_set laws = 0;
    key_range range{};
    std::uint64_t chunk = 0;
    // Progress.
    std::vector<bool> done;  // one flag per chunk
    std::uint64_t failing_keys = 0;
    std::array<std::uint64_t, mapping_law_count> failures_by_law{};
    std::vector<counterexample> counterexamples;

    bool same_sweep(const checkpoint& o) const {
        return format == o.format && mapping == o.mapping && laws == o.laws && range == o.range && chunk == o.chunk;
    }

    void save(const std::filesystem::path& path) const {
        std::ostringstream s;
        s << magic << '\n' << "format " << format << '\n' << "mapping " << mapping << '\n'
          << "laws " << laws << '\n' << "range " << range.begin << ' ' << range.end << '\n'
          << "chunk " << chunk << '\n' << "failing_keys " << failing_keys << '\n' << "by_law";
        for (auto n : failures_by_law) s << ' ' << n;
        s << "\ndone ";
        for (bool d : done) s << (d ? '1' : '0');
        s << '\n';
        for (const auto& c : counterexamples)
            s << "cx " << unsigned(c.law) << ' ' << c.key << ' ' << c.bits << ' ' << c.other << ' ' << c.expected
              << ' ' << c.actual << ' ' << unsigned(c.expected_empty) << ' ' << unsigned(c.actual_empty) << '\n';
        s << "end\n";
        const std::filesystem::path tmp = path.string() + ".tmp";
        {
            std::ofstream out(tmp, std::ios::trunc);
            out << s.str();
            out.flush();
            if (!out) throw input_error("cannot write checkpoint " + tmp.string());
        }
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) throw input_error("cannot write checkpoint " + path.string() + ": " + ec.message());
    }

    static checkpoint load(const std::filesystem::path& path) {
        std::ifstream in(path);
        if (!in) throw input_error("cannot read checkpoint " + path.string());
        auto bad = [&](const std::string& why) {
            return input_error("checkpoint " + path.string() + " is damaged: " + why);
        };
        std::string line;
        if (!std::getline(in, line) || line != magic) throw bad("missing header");
        checkpoint c;
        bool ended = false;
        while (std::getline(in, line)) {
            std::istringstream l(line);
            std::string tag;
            l >> tag;
            if (tag == "format") l >> c.format;
            else if (tag == "mapping") l >> c.mapping;
            else if (tag == "laws") l >> c.laws;
            else if (tag == "range") l >> c.range.begin >> c.range.end;
            else if (tag == "chunk") l >> c.chunk;
            else if (tag == "failing_keys") l >> c.failing_keys;
            else if (tag == "by_law") for (auto& n : c.failures_by_law) l >> n;
            else if (tag == "done") {
                std::string flags;
                l >> flags;
                for (char f : flags) {
                    if (f != '0' && f != '1') throw bad("bad done flags");
                    c.done.push_back(f == '1');
                }
            } else if (tag == "cx") {
                counterexample x;
                unsigned law = 0, ee = 0, ae = 0;
                l >> law >> x.key >> x.bits >> x.other >> x.expected >> x.actual >> ee >> ae;
                if (law >= law_names.size()) throw bad("bad law id");
                x.law = law_id(law);
                x.expected_empty = std::uint8_t(ee);
                x.actual_empty = std::uint8_t(ae);
                c.counterexamples.push_back(x);
            } else if (tag == "end") {
                ended = true;
                break;
            } else {
                throw bad("unknown line '" + line + "'");
            }
            if (l.fail()) throw bad("unreadable line '" + line + "'");
        }
        if (!ended) throw bad("truncated");
        if (c.chunk == 0 || c.range.end < c.range.begin) throw bad("bad range or chunk");
        if (c.done.size() != (c.range.size() + c.chunk - 1) / c.chunk) throw bad("chunk count does not match range");
        return c;
    }
};

}  // namespace flipcheck
