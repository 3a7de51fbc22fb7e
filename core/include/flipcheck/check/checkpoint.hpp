// Sweep checkpoints: which chunks of a key range are done and what they found, so that an
// interrupted sweep resumes with no range lost or counted twice. A small text format; it is
// written to a temporary file and renamed, so a crash mid-write never leaves a torn checkpoint.
// A checkpoint is believed only if it checks out: its last line before `end` is a checksum of
// everything above it (an edit by hand, or a torn copy, is refused), and what it says must hang
// together (validate(): counts consistent with each other and with the counterexamples, every
// counterexample inside the range and in a chunk marked done). A sweep holds `FILE.lock` (flock)
// while it uses a checkpoint, so a second flipcheck on the same file is refused, not interleaved.
//
// Laws are named, never numbered, so that adding or reordering a law cannot misread a checkpoint:
//
//   flipcheck-checkpoint 3
//   format binary32
//   mapping zeros_swapped
//   build 5f0c...   (the code that checked the keys: the flipcheck command writes its executable's
//                    digest, and a checkpoint of another build is refused; absent: none given)
//   laws round_trip_key,round_trip_bits,successor_order,zero_placement,nan_total_order,nan_propagate,nan_ignore
//   range 0 4294967296
//   chunk 4194304
//   failing_keys 2
//   by_law round_trip_key=0 round_trip_bits=0 successor_order=0 zero_placement=2 nan_total_order=0 ...
//   done 1100...
//   cx zero_placement KEY BITS OTHER EXPECTED ACTUAL EXPECTED_EMPTY ACTUAL_EMPTY
//   sum 0123456789abcdef
//   end
//
// `laws` is `none` for the empty set; `by_law` may leave a law out (its count is 0). A name that
// is not a mapping law, a law named twice, or a line that does not parse is refused as damaged;
// versions 1 and 2 (no checksum) are refused as too old.
#pragma once
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/error.hpp"
#include "flipcheck/check/report.hpp"

namespace flipcheck {

struct checkpoint {
    static constexpr const char* magic = "flipcheck-checkpoint 3";
    static constexpr std::string_view magic_prefix = "flipcheck-checkpoint ";
    // Identity: a checkpoint only resumes the very same sweep.
    std::string format, mapping;
    std::string build;  // who checked the keys done (sweep_options::build); empty: not said
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

    // The mapping law called `name`, if there is one.
    static std::optional<law_id> mapping_law_named(std::string_view name) {
        for (int l = 0; l < mapping_law_count; ++l)
            if (law_names[std::size_t(l)] == name) return law_id(l);
        return std::nullopt;
    }
    // "round_trip_key,successor_order" (law_id order), or "none".
    static std::string law_list(law_set set) {
        std::string s;
        for (int l = 0; l < mapping_law_count; ++l)
            if (set & law_bit(law_id(l))) s += (s.empty() ? "" : ",") + std::string(law_names[std::size_t(l)]);
        return s.empty() ? "none" : s;
    }

    // FNV-1a, 64 bits: enough to tell a hand edit or a torn copy from what flipcheck wrote.
    static std::uint64_t checksum(std::string_view text) {
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
        return h;
    }

    // What a checkpoint says must hang together; throws input_error naming what does not.
    void validate(const std::string& where) const {
        auto bad = [&](const std::string& why) { return input_error("checkpoint " + where + " is damaged: " + why); };
        if (chunk == 0 || range.size() == 0 || range.last() < range.begin) throw bad("bad range or chunk");
        if (done.size() != range.size() / chunk + (range.size() % chunk != 0)) throw bad("chunk count does not match range");
        std::uint64_t sum = 0, most = 0;
        for (int l = 0; l < mapping_law_count; ++l) {
            if (failures_by_law[std::size_t(l)] && !(laws & law_bit(law_id(l)))) throw bad("failures counted for a law not checked");
            sum += failures_by_law[std::size_t(l)];
            most = std::max(most, failures_by_law[std::size_t(l)]);
        }
        // Each failing key fails at least one law, and each law's failures are failing keys.
        if (failing_keys < most || failing_keys > sum) throw bad("failing_keys does not match the failures by law");
        if (counterexamples.size() > failing_keys * std::uint64_t(mapping_law_count))
            throw bad("more counterexamples than failures");
        for (const auto& c : counterexamples) {
            if (!failures_by_law[std::size_t(c.law)]) throw bad("a counterexample of a law with no failures counted");
            if (c.key - range.begin > range.last() - range.begin)
                throw bad("counterexample key " + std::to_string(c.key) + " is outside the range");
            if (!done[(c.key - range.begin) / chunk]) throw bad("counterexample key " + std::to_string(c.key) + " is in a chunk not done");
        }
    }

    void save(const std::filesystem::path& path) const {
        const std::string s = text();
        const std::filesystem::path tmp = path.string() + "." + std::to_string(::getpid()) + ".tmp";
        {
            std::ofstream out(tmp, std::ios::trunc);
            out << s;
            out.flush();
            if (!out) throw input_error("cannot write checkpoint " + tmp.string());
        }
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) throw input_error("cannot write checkpoint " + path.string() + ": " + ec.message());
    }

    // The checkpoint as save() writes it.
    std::string text() const {
        std::ostringstream s;
        s << magic << '\n' << "format " << format << '\n' << "mapping " << mapping << '\n';
        if (!build.empty()) s << "build " << build << '\n';
        s << "laws " << law_list(laws) << '\n' << "range " << range.begin << ' ' << range.end << '\n'
          << "chunk " << chunk << '\n' << "failing_keys " << failing_keys << '\n' << "by_law";
        for (int l = 0; l < mapping_law_count; ++l) s << ' ' << law_names[std::size_t(l)] << '=' << failures_by_law[std::size_t(l)];
        s << "\ndone ";
        for (bool d : done) s << (d ? '1' : '0');
        s << '\n';
        for (const auto& c : counterexamples)
            s << "cx " << to_string(c.law) << ' ' << c.key << ' ' << c.bits << ' ' << c.other << ' ' << c.expected
              << ' ' << c.actual << ' ' << unsigned(c.expected_empty) << ' ' << unsigned(c.actual_empty) << '\n';
        char sum[32];
        std::snprintf(sum, sizeof sum, "sum %016llx\n", static_cast<unsigned long long>(checksum(s.str())));
        s << sum << "end\n";
        return s.str();
    }

    static checkpoint load(const std::filesystem::path& path) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) throw input_error("checkpoint " + path.string() + " is a folder, not a checkpoint");
        std::ifstream in(path);
        if (!in) throw input_error("cannot read checkpoint " + path.string());
        return parse(in, path.string());
    }

    // A checkpoint's text (`where` names it in messages): the reader load() uses, and the fuzz
    // target user_inputs drives.
    static checkpoint parse(std::istream& in, const std::string& where) {
        auto bad = [&](const std::string& why) { return input_error("checkpoint " + where + " is damaged: " + why); };
        std::string line;
        if (!std::getline(in, line)) throw bad("missing header");
        if (line != magic) {
            if (line.rfind(magic_prefix, 0) == 0)
                throw input_error("checkpoint " + where + " has the header '" + line + "', and this flipcheck reads only '" +
                                  magic + "' (with a checksum): it cannot be resumed; remove it and rerun the sweep");
            throw bad("missing header");
        }
        std::string text = line + "\n";  // what the checksum covers
        auto law_named = [&](std::string_view name) {
            const std::optional<law_id> l = mapping_law_named(name);
            if (!l) throw bad("unknown law '" + std::string(name) + "'");
            return *l;
        };
        checkpoint c;
        bool by_law_seen = false;
        bool ended = false;
        bool summed = false;
        while (std::getline(in, line)) {
            std::istringstream l(line);
            std::string tag;
            l >> tag;
            if (summed && tag != "end") throw bad("a line after the checksum");
            if (tag == "sum") {
                std::string hex;
                l >> hex;
                char want[17];
                std::snprintf(want, sizeof want, "%016llx", static_cast<unsigned long long>(checksum(text)));
                if (hex != want) throw bad("its checksum does not match its contents (edited or torn)");
                summed = true;
                continue;
            }
            text += line + "\n";
            if (tag == "format") l >> c.format;
            else if (tag == "mapping") l >> c.mapping;
            else if (tag == "build") l >> c.build;
            else if (tag == "laws") {
                std::string names;
                l >> names;
                if (names != "none" && !l.fail()) {
                    std::istringstream list(names);
                    for (std::string name; std::getline(list, name, ',');) {
                        const law_set bit = law_bit(law_named(name));
                        if (c.laws & bit) throw bad("law '" + name + "' named twice in '" + line + "'");
                        c.laws |= bit;
                    }
                    if (names.back() == ',') throw bad("unreadable line '" + line + "'");
                }
            }
            else if (tag == "range") l >> c.range.begin >> c.range.end;
            else if (tag == "chunk") l >> c.chunk;
            else if (tag == "failing_keys") l >> c.failing_keys;
            else if (tag == "by_law") {
                if (by_law_seen) throw bad("two by_law lines");
                by_law_seen = true;
                law_set seen = 0;
                for (std::string item; l >> item;) {
                    const auto eq = item.find('=');
                    if (eq == std::string::npos) throw bad("unreadable line '" + line + "'");
                    const law_id id = law_named(std::string_view(item).substr(0, eq));
                    if (seen & law_bit(id)) throw bad("law '" + item.substr(0, eq) + "' counted twice in '" + line + "'");
                    seen |= law_bit(id);
                    const std::string digits = item.substr(eq + 1);
                    std::istringstream count(digits);
                    std::uint64_t n = 0;
                    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || !(count >> n))
                        throw bad("unreadable line '" + line + "'");
                    c.failures_by_law[std::size_t(id)] = n;
                }
                l.clear();  // the loop ends at the end of the line, which is not an error
            }
            else if (tag == "done") {
                std::string flags;
                l >> flags;
                for (char f : flags) {
                    if (f != '0' && f != '1') throw bad("bad done flags");
                    c.done.push_back(f == '1');
                }
            } else if (tag == "cx") {
                counterexample x;
                std::string law;
                unsigned ee = 0, ae = 0;
                l >> law >> x.key >> x.bits >> x.other >> x.expected >> x.actual >> ee >> ae;
                if (l.fail()) throw bad("unreadable line '" + line + "'");
                x.law = law_named(law);
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
        if (!summed) throw bad("no checksum");
        c.validate(where);
        return c;
    }
};

// Holds FILE.lock (flock) while a sweep uses the checkpoint FILE; a second holder is refused.
class checkpoint_lock {
public:
    explicit checkpoint_lock(const std::filesystem::path& path) {
        if (path.empty()) return;
        const std::string lock = path.string() + ".lock";
        fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw input_error("cannot write checkpoint lock " + lock + ": " + std::strerror(errno));
        // The holder removes the lock file as it ends (no .lock is left behind), so a lock taken on
        // a file that is no longer at that path was taken on a removed one: in use all the same.
        struct stat held{}, named{};
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd_, &held) != 0 || ::stat(lock.c_str(), &named) != 0 ||
            held.st_ino != named.st_ino || held.st_dev != named.st_dev) {
            ::close(fd_);
            fd_ = -1;
            throw input_error("checkpoint " + path.string() + " is in use by another flipcheck (it holds " + lock +
                              "): wait for it, or give this sweep its own --checkpoint");
        }
        lock_ = lock;
    }
    ~checkpoint_lock() {
        if (fd_ < 0) return;
        ::unlink(lock_.c_str());  // while still held: see above
        ::close(fd_);             // closing releases the lock
    }
    checkpoint_lock(const checkpoint_lock&) = delete;
    checkpoint_lock& operator=(const checkpoint_lock&) = delete;

private:
    int fd_ = -1;
    std::string lock_;
};

}  // namespace flipcheck
