// Loading a plug-in library (plugin/abi.h) and running its subjects with flipcheck's drivers: the
// loader behind `flipcheck check --plugin` and the plug-in fuzz target. Host only (dlopen).
//
// Loading either succeeds whole or throws input_error and leaves nothing loaded: a missing or
// unreadable file, a file that is not a shared library, one without the entry point, an ABI
// version this build does not speak (it speaks 2 and 1: a v1 library's subjects load without
// v2's functions, so its atomic strategies are replayed in whole updates only), and a table that
// is malformed (no name, an unknown kind or format id, a kind without its functions, two subjects
// with one name) are all refused.
#pragma once
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/check/exhaustive.hpp"
#include "flipcheck/check/interleaving.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/plugin/abi.h"
#include "flipcheck/formats.hpp"
#include "flipcheck/check/report.hpp"
#include "flipcheck/check/scaling.hpp"

namespace flipcheck::plugin {

inline std::string_view kind_name(std::uint32_t kind) {
    switch (kind) {
        case flipcheck_kind_mapping: return "mapping";
        case flipcheck_kind_reducer: return "reducer";
        case flipcheck_kind_arg_reducer: return "arg reducer";
        case flipcheck_kind_atomic: return "atomic strategy";
        case flipcheck_kind_arg_atomic: return "arg atomic strategy";
        case flipcheck_kind_amax: return "amax";
        case flipcheck_kind_mx_scale: return "mx scale";
        case flipcheck_kind_tensor_scale: return "tensor scale";
        case flipcheck_kind_decode: return "decoder";
        case flipcheck_kind_block_scale: return "block scale";
        case flipcheck_kind_nvfp4_scale: return "nvfp4 scale";
        case flipcheck_kind_lane_atomic: return "lane atomic strategy";
        case flipcheck_kind_pair_reducer: return "pair reducer";
        case flipcheck_kind_quantizer: return "quantizer";
        case flipcheck_kind_scale_value: return "scale value";
        case flipcheck_kind_canonical_key: return "canonical key";
        case flipcheck_kind_scaled_quantizer: return "scaled quantizer";
        default: return "?";
    }
}

inline bool is_mapping(const flipcheck_subject_v2& s) { return s.kind == flipcheck_kind_mapping; }
inline bool is_atomic(const flipcheck_subject_v2& s) {
    return s.kind == flipcheck_kind_atomic || s.kind == flipcheck_kind_arg_atomic || s.kind == flipcheck_kind_lane_atomic;
}
// The scaling path's shapes after amax, quantizers and canonical keys: one call per input (a
// block's for a block scale), judged by check/scaling.hpp.
inline bool is_scaling(const flipcheck_subject_v2& s) {
    return (s.kind >= flipcheck_kind_mx_scale && s.kind <= flipcheck_kind_nvfp4_scale) ||
           (s.kind >= flipcheck_kind_quantizer && s.kind <= flipcheck_kind_scaled_quantizer);
}
// Whose inputs are binary32 whatever format_id says (an amax; an NVFP4 scale's amax and global scale).
inline bool takes_binary32(const flipcheck_subject_v2& s) {
    return s.kind == flipcheck_kind_mx_scale || s.kind == flipcheck_kind_tensor_scale || s.kind == flipcheck_kind_scale_value ||
           s.kind == flipcheck_kind_nvfp4_scale;
}
// Whose format bits 8-15 of format_id name: a block scale's and a quantizer's element.
inline bool has_element(const flipcheck_subject_v2& s) {
    return s.kind == flipcheck_kind_block_scale || s.kind == flipcheck_kind_quantizer || s.kind == flipcheck_kind_scaled_quantizer;
}

// The element (bits 8-15 of format_id) of a block scale or quantizer: calls f.template operator()<E>().
template <class Fn>
void with_element(const flipcheck_subject_v2& s, Fn&& f) {
    if (registry::with_id<registry::all_formats>(std::uint8_t(s.format_id >> 8), [&]<class FE>() { f.template operator()<typename FE::type>(); }))
        return;
    throw input_error("subject " + std::string(s.name) + " has format id " + std::to_string(s.format_id) +
                      " (its element, in bits 8-15, is not a format)");
}

// What a canonical key's policy word (plugin/abi.h) says.
struct key_shape {
    equivalence declared;
    unsigned bytes;   // 1-8
    bool as_bytes;    // compared as bytes (big-endian in the word), not as an integer
};
inline key_shape key_shape_of(const flipcheck_subject_v2& s) {
    return {equivalence(s.policy & 0xff), (s.policy >> 8) & 0xff, ((s.policy >> 16) & 1) != 0};
}
inline quantize_policy quantize_policy_of(const flipcheck_subject_v2& s) {
    return {rounding(s.policy & 0xff), saturation((s.policy >> 8) & 0xff)};
}
inline scaled_policy scaled_policy_of(const flipcheck_subject_v2& s) {
    return {quantize_policy_of(s), scale_op((s.policy >> 16) & 0xff), intermediate((s.policy >> 24) & 0xff)};
}

// The format entry of a subject (any of formats.hpp's all_formats: the IEEE ones and the byte
// formats): calls f.template operator()<F>().
template <class Fn>
void with_format(const flipcheck_subject_v2& s, Fn&& f) {
    if (registry::with_id<registry::all_formats>(std::uint8_t(s.format_id), [&]<class FE>() { f.template operator()<typename FE::type>(); }))
        return;
    throw input_error("subject " + std::string(s.name) + " has unknown format id " + std::to_string(s.format_id));
}

inline std::string format_name(const flipcheck_subject_v2& s) {
    std::string n;
    with_format(s, [&]<class F>() { n = F::name; });
    return n;
}

// The subject called `name` among a library's (`path` names it in the message); input_error,
// listing them all, when there is none.
inline const flipcheck_subject_v2& find_subject(std::span<const flipcheck_subject_v2> subjects, std::string_view name,
                                                const std::string& path) {
    for (const auto& s : subjects)
        if (name == s.name) return s;
    std::string names;
    for (const auto& s : subjects) names += std::string(names.empty() ? "" : ", ") + s.name;
    throw input_error("plug-in library " + path + " has no subject named '" + std::string(name) + "' (it has: " + names + ")");
}

class library {
public:
    explicit library(const std::filesystem::path& path) : path_(path) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) throw input_error("plug-in library " + path.string() + " does not exist");
        if (std::filesystem::is_directory(path, ec)) throw input_error("plug-in library " + path.string() + " is a directory");
        // dlopen of a FIFO waits for a writer forever, and of a device reads it: only a file is a library.
        if (!std::filesystem::is_regular_file(path, ec)) throw input_error("plug-in library " + path.string() + " is not a regular file");
        // A path with a slash, so that dlopen does not search the library path for a bare name.
        const std::string where = path.has_parent_path() ? path.string() : "./" + path.string();
        handle_ = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            const char* why = dlerror();
            throw input_error("cannot load plug-in library " + path.string() + ": " + (why ? why : "unknown error"));
        }
        try {
            validate();
        } catch (...) {
            dlclose(handle_);
            throw;
        }
    }
    ~library() { dlclose(handle_); }
    library(const library&) = delete;
    library& operator=(const library&) = delete;

    std::span<const flipcheck_subject_v2> subjects() const { return subjects_; }
    std::uint32_t abi_version() const { return version_; }

    const flipcheck_subject_v2& find(std::string_view name) const { return find_subject(subjects(), name, path_.string()); }

private:
    void validate() {
        dlerror();
        void* entry = dlsym(handle_, FLIPCHECK_PLUGIN_ENTRY);
        if (!entry)
            throw input_error(path_.string() + " is not a flipcheck plug-in: it has no " FLIPCHECK_PLUGIN_ENTRY
                              " entry point (export subjects with FLIPCHECK_EXPORT_SUBJECTS, flipcheck/plugin/export.hpp)");
        // Every version's table starts with abi_version, then the count and the subjects.
        const auto* head = reinterpret_cast<flipcheck_plugin_entry_v1>(entry)();
        if (!head) throw input_error(path_.string() + ": " FLIPCHECK_PLUGIN_ENTRY " returned no table");
        version_ = head->abi_version;
        if (version_ != 1 && version_ != FLIPCHECK_PLUGIN_ABI_VERSION)
            throw input_error(path_.string() + " was built for plug-in ABI version " + std::to_string(version_) +
                              ", but this flipcheck speaks versions 1 and " + std::to_string(FLIPCHECK_PLUGIN_ABI_VERSION) +
                              ": rebuild the library against this flipcheck's headers");
        if (head->subject_count == 0 || !head->subjects) throw input_error(path_.string() + " exports no subjects");
        if (version_ == 1) {
            for (const flipcheck_subject_v1& o : std::span(head->subjects, head->subject_count))
                subjects_.push_back({o.name, o.kind, o.format_id, o.op, o.nan, o.zero, o.ties, o.encode, o.decode, o.sweep, o.run,
                                     nullptr, nullptr, 0, 0});
        } else {
            const auto* t = reinterpret_cast<const flipcheck_plugin_v2*>(head);
            subjects_.assign(t->subjects, t->subjects + t->subject_count);
        }
        std::vector<std::string> seen;
        for (const auto& s : subjects()) {
            if (!s.name || !*s.name) throw input_error(path_.string() + ": a subject has no name");
            const std::string n = s.name;
            for (const auto& o : seen)
                if (o == n) throw input_error(path_.string() + ": two subjects are named '" + n + "'");
            seen.push_back(n);
            if (kind_name(s.kind) == "?") throw input_error("subject " + n + " has unknown kind " + std::to_string(s.kind));
            format_name(s);  // throws on an unknown format id
            // Bits 8-15 name a block scale's or quantizer's element (which it must have), and nothing else's.
            const bool element = has_element(s);
            if (element ? s.format_id >> 16 || !registry::with_id<registry::all_formats>(std::uint8_t(s.format_id >> 8), []<class>() {})
                        : s.format_id >> 8 != 0)
                throw input_error("subject " + n + " has format id " + std::to_string(s.format_id) +
                                  (element ? " (its element, in bits 8-15, is not a format)" : " (not a format)"));
            validate_policy(s);
            // A shape over a format it cannot take is refused here, as bad input, not when it runs.
            with_format(s, [&]<class F>() {
                if (s.kind == flipcheck_kind_decode && F::width != 8)
                    throw input_error("subject " + n + " decodes " + std::string(F::name) + ": a decoder is of a byte format");
                if ((s.kind == flipcheck_kind_amax || s.kind == flipcheck_kind_block_scale) && !amax_format<F>)
                    throw input_error("subject " + n + " takes the amax of " + std::string(F::name) + ", which has no sign to clear");
            });
            with_format(s, [&]<class F>() {
                if (s.kind == flipcheck_kind_pair_reducer && !requires { F::packs_in_pairs; })
                    throw input_error("subject " + n + " reduces packed pairs of " + std::string(F::name) +
                                      ", which does not pack two per byte (float4_e2m1fn does)");
            });
            const bool lanes = s.kind == flipcheck_kind_lane_atomic;
            const bool functions = is_mapping(s) ? (s.encode && s.decode && s.sweep)
                                   : lanes       ? (s.run && s.run_steps && s.run_lanes)
                                                 : s.run != nullptr;
            if (!functions) throw input_error("subject " + n + " lacks the functions of a " + std::string(kind_name(s.kind)));
            if (lanes ? s.shared_word_bits != 16 && s.shared_word_bits != 32 && s.shared_word_bits != 64 : s.shared_word_bits != 0)
                throw input_error("subject " + n + " has a shared word of " + std::to_string(s.shared_word_bits) +
                                  " bits (a lane strategy's is 16, 32 or 64; every other kind's 0)");
            if (!is_mapping(s) && (s.op > 1 || s.nan > 3 || s.zero > 1 || s.ties > 2))
                throw input_error("subject " + n + " declares an unknown operation or policy");
        }
    }

    // The policy word (plugin/abi.h): what a quantizer, key or scale declares, and that its
    // formats can take it; 0 for every kind that has none.
    static void validate_policy(const flipcheck_subject_v2& s) {
        const std::string n = s.name;
        const std::uint32_t p = s.policy;
        auto refuse = [&](const std::string& why) { throw input_error("subject " + n + " declares " + why); };
        switch (s.kind) {
            case flipcheck_kind_mx_scale:
            case flipcheck_kind_scale_value:
                if (p >= std::size(all_recipes)) refuse("recipe " + std::to_string(p) + " (known: 0 ocp_floor, 1 rceil, 2 rceil_eps)");
                return;
            case flipcheck_kind_tensor_scale: {
                const float target = bit_cast<float>(p);
                if (p != 0 && !(target > 0 && target < std::numeric_limits<float>::infinity()))
                    refuse("a tensor scale target of " + show<binary32>(p) + " (a positive finite binary32, or 0 for the element's largest)");
                return;
            }
            case flipcheck_kind_quantizer:
            case flipcheck_kind_scaled_quantizer: {
                const bool scaled = s.kind == flipcheck_kind_scaled_quantizer;
                if ((p & 0xff) > 2 || ((p >> 8) & 0xff) > 2 || (scaled ? ((p >> 16) & 0xff) > 1 || p >> 24 > 1 : p >> 16 != 0))
                    refuse("policy word " + hex(p, 32) +
                           (scaled ? " (a scaled quantizer's: rounding 0-2 | saturation 0-2 << 8 | op 0-1 << 16 | intermediate 0-1 << 24)"
                                   : " (a quantizer's: rounding 0-2 | saturation 0-2 << 8)"));
                with_format(s, [&]<class F>() {
                    if constexpr (!quantizer_input<F>)
                        refuse("a quantizer from " + std::string(F::name) + " (its input is binary32, bfloat16 or binary16)");
                });
                with_element(s, [&]<class E>() {
                    if constexpr (!element_format<E>) {
                        refuse("a quantizer to " + std::string(E::name) + ", which is no element (signed fp8, fp6, fp4, binary16 or bfloat16)");
                    } else {
                        const quantize_policy q = quantize_policy_of(s);
                        if (!can_declare<E>(q))
                            refuse("saturation=" + std::string(to_string(q.saturate)) + ", which " + std::string(E::name) + " has no code for");
                    }
                });
                return;
            }
            case flipcheck_kind_canonical_key: {
                const key_shape k = key_shape_of(s);
                if ((p & 0xff) > 2 || k.bytes < 1 || k.bytes > 8 || p >> 17)
                    refuse("policy word " + hex(p, 32) + " (a canonical key's: equivalence 0-2 | bytes 1-8 << 8 | 1 << 16 for bytes)");
                with_format(s, [&]<class F>() {
                    if constexpr (!key_input<F>)
                        refuse("a key of " + std::string(F::name) + " (canonical keys are of binary16, bfloat16, binary32 or binary64)");
                });
                return;
            }
            default:
                if (p != 0) refuse("policy word " + hex(p, 32) + ", which a " + std::string(kind_name(s.kind)) + " does not have (0)");
        }
    }

    std::filesystem::path path_;
    void* handle_ = nullptr;
    std::uint32_t version_ = 0;
    std::vector<flipcheck_subject_v2> subjects_;  // a v1 table's as v2, without v2's functions
};

inline policy declared(const flipcheck_subject_v2& s) {
    return {nan_policy(s.nan), zero_policy(s.zero), tie_policy(s.ties)};
}

// A call's failure (r < 0) as an exception: for run_steps (`stepped`), -2 is a plan the call
// cannot follow (a --case's schedule: the caller's input), an input_error; any other is the
// subject's own error. The message buffer is cut at its end first, never read past.
inline void throw_for(const flipcheck_subject_v2& e, int r, char (&error)[512], bool stepped = false) {
    error[sizeof error - 1] = 0;
    // A status the ABI does not define is never read as one it does (a 5 is not "an answer").
    if (r > (stepped ? 2 : 1) || r < (stepped ? -2 : -1))
        throw subject_error("subject " + std::string(e.name) + " failed: it returned " + std::to_string(r) +
                            (stepped ? " (the ABI allows 1: an answer, 0: none, 2: stopped at the limit, -1: an error, -2: a plan it "
                                       "cannot follow)"
                                     : " (the ABI allows 1: an answer, 0: none, -1: an error)"));
    if (r >= 0) return;
    const std::string what = error[0] ? error : "(no message)";
    if (stepped && r == -2) throw input_error(what);
    throw subject_error("subject " + std::string(e.name) + " failed: " + what);
}

// One call of an exported subject's run on xs (In: the ABI's input words) in `order` (nullptr:
// index order): its out, or nothing where the subject answers nothing. An error inside the
// subject is a subject_error. Every caller of a subject's run goes through here.
template <class In>
std::optional<std::uint64_t> call_run(const flipcheck_subject_v2& e, std::span<const In> xs, const std::size_t* order = nullptr) {
    std::uint64_t out = 0;
    char error[512] = "";
    const int r = e.run(xs.data(), xs.size(), order, &out, error, sizeof error);
    throw_for(e, r, error);
    if (r == 0) return std::nullopt;
    return out;
}
// The same, for a subject that must answer (an amax, a scale).
template <class In>
std::uint64_t call(const flipcheck_subject_v2& e, std::span<const In> xs) {
    const std::optional<std::uint64_t> out = call_run(e, xs);
    if (!out) throw subject_error("subject " + std::string(e.name) + " failed: (it returned no answer)");
    return *out;
}

namespace detail {
// What a run reports through the ABI's sink: its steps (a trace) and a lane strategy's lanes.
struct run_reports {
    atomic::step_trace trace;
    std::vector<atomic::lane_value> lanes;
    static void step(void* c, std::size_t thread, const std::size_t* waiting, std::size_t count) {
        auto& r = *static_cast<run_reports*>(c);
        r.trace.steps.push_back(thread);
        if (waiting) r.trace.waiting.emplace_back(waiting, waiting + count);
    }
    static void lane(void* c, std::uint32_t own, std::uint32_t offset, std::uint32_t has_answer, std::uint64_t answer) {
        auto& r = *static_cast<run_reports*>(c);
        r.lanes.push_back({own, offset, has_answer ? std::optional(answer) : std::nullopt, has_answer != 0});
    }
    flipcheck_run_sink_v2 sink() { return {this, &step, &lane}; }
};

}  // namespace detail

// An exported atomic strategy's update on xs stepped as `plan` says (ABI v2's run_steps, inside
// the library): the answer (nothing for an empty input or a livelock) and the trace; a lane
// strategy's every lane into *lanes. A plan the run cannot follow is an input_error.
template <class In>
std::pair<std::optional<std::uint64_t>, atomic::step_trace> call_steps(const flipcheck_subject_v2& e, std::span<const In> xs,
                                                                       const atomic::step_plan& plan,
                                                                       std::vector<atomic::lane_value>* lanes = nullptr) {
    const flipcheck_step_plan_v2 q{plan.prefix.data(), plan.prefix.size(), plan.seed, plan.limit, plan.keep_waiting, plan.strict_prefix};
    detail::run_reports reports;
    const flipcheck_run_sink_v2 sink = reports.sink();
    std::uint64_t out = 0;
    char error[512] = "";
    const int r = e.run_steps(xs.data(), xs.size(), &q, &sink, &out, error, sizeof error);
    throw_for(e, r, error, true);
    reports.trace.finished = r != 2;
    if (lanes) *lanes = std::move(reports.lanes);
    return {r == 1 ? std::optional(out) : std::nullopt, std::move(reports.trace)};
}

// A lane strategy's whole updates in `order` (ABI v2's run_lanes): every lane of every placement.
template <class In>
std::vector<atomic::lane_value> call_lanes(const flipcheck_subject_v2& e, std::span<const In> xs, const std::size_t* order) {
    detail::run_reports reports;
    const flipcheck_run_sink_v2 sink = reports.sink();
    char error[512] = "";
    const int r = e.run_lanes(xs.data(), xs.size(), order, &sink, error, sizeof error);
    throw_for(e, r, error);
    return std::move(reports.lanes);
}

// A reducer subject over an exported one (a reducer, an atomic strategy of any shape). A v2
// strategy is stepped too (interleaved_steps); a v1 one only replays whole updates. An error
// inside the subject's code is a subject_error.
template <format F>
reducer_subject<F> reducer_of(const flipcheck_subject_v2& e) {
    using S = typename F::storage;
    reducer_subject<F> s;
    s.name = e.name;
    s.op = reduce_op(e.op);
    s.declared = declared(e);
    s.arg = e.kind == flipcheck_kind_arg_reducer || e.kind == flipcheck_kind_arg_atomic;
    s.interleaved = is_atomic(e);
    if (e.kind == flipcheck_kind_lane_atomic) {
        set_lane_runs(
            s, e.shared_word_bits,
            [e](std::span<const S> xs, std::span<const std::size_t> order) {
                return call_lanes(e, xs, order.empty() ? nullptr : order.data());
            },
            [e](std::span<const S> xs, const atomic::step_plan& plan) {
                std::vector<atomic::lane_value> all;
                atomic::step_trace trace = call_steps(e, xs, plan, &all).second;
                return std::pair{std::move(all), std::move(trace)};
            });
        return s;
    }
    s.run = [e](std::span<const S> xs, std::span<const std::size_t> order) {
        return call_run(e, xs, order.empty() ? nullptr : order.data());
    };
    if (e.run_steps)
        s.run_steps = [e](std::span<const S> xs, const atomic::step_plan& plan) { return call_steps(e, xs, plan); };
    return s;
}

// An exported reducer of packed pairs on every array of up to 3 bytes, a row per length up to the
// first that fails, or, with
// `replay` (a failure's case: "float4_e2m1fnx2: 0x21,0x0f"), on that array alone; `on_call` sees
// each array before the subject does.
inline std::vector<exhaustive_row> check_pairs(const flipcheck_subject_v2& e, const std::string& replay = "",
                                               const std::function<void(std::span<const std::uint8_t>)>& on_call = {}) {
    std::vector<exhaustive_row> rows;
    with_format(e, [&]<class F>() {
        if constexpr (requires { F::packs_in_pairs; }) {
            auto reduce = [&](std::span<const std::uint8_t> in) {
                if (on_call) on_call(in);
                const std::optional<std::uint64_t> r = call_run(e, in);
                // Judged whole: a right byte with junk above it is a wrong answer, not a truncated right one.
                if (r && *r > 0xff) {
                    char shown[24];
                    std::snprintf(shown, sizeof shown, "%#llx", static_cast<unsigned long long>(*r));
                    throw subject_error("subject " + std::string(e.name) + " failed: it answered " + shown +
                                        ", wider than the one byte of a packed pair");
                }
                return r ? std::optional(std::uint8_t(*r)) : std::nullopt;
            };
            if (!replay.empty()) {
                const std::vector<std::uint8_t> bytes = parse_case<packed_pair<F>>(replay).first;
                rows.push_back(check_pair_arrays<F>(e.name, declared(e), reduce_op(e.op), 0, reduce, std::span<const std::uint8_t>(bytes)));
            } else {
                for (int length = 0; length <= 3 && (rows.empty() || rows.back().passed()); ++length)  // fail fast
                    rows.push_back(check_pair_arrays<F>(e.name, declared(e), reduce_op(e.op), length, reduce));
            }
        }  // (load time refuses a pair reducer of a format that does not pack in pairs: plugin::library)
    });
    return rows;
}

// An exported scale, decoder, block scale, NVFP4 scale, quantizer or canonical key (is_scaling)
// checked as check/scaling.hpp checks the type it came from, on one thread (the ABI's callers are
// single-threaded); with `replay` (a failure's case, as its report's replay says it), on that
// case's inputs alone. A case that does not parse is an input_error. `on_call` sees each input
// (its bits, widened) before the subject does. Each call of the subject runs in rounding mode
// `mode` (check/rounding_modes.hpp), the oracle to nearest.
inline scaling_report check_scaling(const flipcheck_subject_v2& e, scaling_options o, const std::string& replay = "",
                                    const std::function<void(std::span<const std::uint64_t>)>& on_call = {},
                                    rounding_mode mode = rounding_mode::to_nearest) {
    scaling_report r;
    const ieee_environment ieee;  // a plug-in's -ffast-math start-up code may have set FTZ/DAZ (float_environment.hpp)
    o.threads = 1;
    // Every call goes through here: the inputs noted, then the subject's run.
    auto run = [&]<class In>(std::span<const In> xs) {
        if (on_call) {
            std::uint64_t bits[mx_block];
            const std::size_t n = std::min(xs.size(), std::size_t(mx_block));
            for (std::size_t i = 0; i < n; ++i) bits[i] = std::uint64_t(xs[i]);
            on_call(std::span<const std::uint64_t>(bits, n));
        }
        const rounding_scope scope(mode);  // the subject's call only: the oracle judges to nearest
        return call<In>(e, xs);
    };
    auto u32 = [&](std::uint32_t x) { return run(std::span<const std::uint32_t>(&x, 1)); };
    // The case's bits, in the format the subject's inputs are of; empty without a case.
    auto inputs = [&]<class In>() {
        std::vector<typename In::storage> v;
        if (replay.empty()) return v;
        v = parse_case<In>(replay).first;
        if (v.empty()) throw input_error("the case for " + std::string(e.name) + " lists no input");
        return v;
    };
    with_format(e, [&]<class F>() {
        switch (e.kind) {
            case flipcheck_kind_mx_scale:
                r = check_mx_scale_of<F>([&](std::uint32_t a) { return std::uint8_t(u32(a)); }, inputs.template operator()<binary32>(),
                                         all_recipes[e.policy], o.every_binary32, o.threads);
                break;
            case flipcheck_kind_scale_value:
                r = check_mx_scale_value_of<F>([&](float a) { return bit_cast<float>(std::uint32_t(u32(bit_cast<std::uint32_t>(a)))); },
                                               inputs.template operator()<binary32>(), all_recipes[e.policy], o.every_binary32, o.threads);
                break;
            case flipcheck_kind_quantizer:
                with_element(e, [&]<class E>() {
                    if constexpr (quantizer_input<F> && element_format<E>) {
                        using S = typename F::storage;
                        r = check_quantizer_of<F, E>(
                            quantize_policy_of(e), [&](S x) { return code_t<E>(run(std::span<const S>(&x, 1))); }, o,
                            inputs.template operator()<F>());
                    }  // (load time refuses other formats: plugin::library)
                });
                break;
            case flipcheck_kind_scaled_quantizer:
                with_element(e, [&]<class E>() {
                    if constexpr (quantizer_input<F> && element_format<E>) {
                        using S = typename F::storage;
                        r = check_scaled_quantizer_of<F, E>(
                            scaled_policy_of(e),
                            [&](S x, float s) {
                                const std::uint32_t words[2] = {std::uint32_t(x), bit_cast<std::uint32_t>(s)};
                                return code_t<E>(run(std::span<const std::uint32_t>(words)));
                            },
                            o, inputs.template operator()<binary32>());
                    }  // (load time refuses other formats: plugin::library)
                });
                break;
            case flipcheck_kind_canonical_key:
                if constexpr (key_input<F>) {
                    using S = typename F::storage;
                    const key_shape k = key_shape_of(e);
                    r = check_canonical_key_of<F>(
                        k.declared, [&](S x) { return run(std::span<const S>(&x, 1)); },
                        [k](std::uint64_t w) {
                            if (!k.as_bytes) return hex(w, int(8 * k.bytes));
                            std::string s = "bytes";
                            for (unsigned i = k.bytes; i-- > 0;) s += " " + hex(std::uint8_t(w >> (8 * i)), 8).substr(2);
                            return s;
                        },
                        o, inputs.template operator()<F>());
                }  // (load time refuses other formats: plugin::library)
                break;
            case flipcheck_kind_tensor_scale:
                r = check_tensor_scale_of<F>([&](float a) { return bit_cast<float>(std::uint32_t(u32(bit_cast<std::uint32_t>(a)))); },
                                             inputs.template operator()<binary32>(),
                                             e.policy ? bit_cast<float>(e.policy) : F::to_value(F::max_finite));
                break;
            case flipcheck_kind_decode:
                if constexpr (F::width == 8)
                    r = check_decode_of<F>([&](std::uint8_t c) { return bit_cast<float>(std::uint32_t(run(std::span<const std::uint8_t>(&c, 1)))); },
                                           inputs.template operator()<F>());
                break;  // (load time refuses a decoder of a wider format: plugin::library)
            case flipcheck_kind_nvfp4_scale: {
                const auto pairs = inputs.template operator()<binary32>();
                if (pairs.size() % 2) throw input_error("the case for " + std::string(e.name) + " lists (block amax, global scale) pairs: an even count");
                r = check_nvfp4_scale_of(
                    [&](float a, float g) {
                        const std::uint32_t in[2] = {bit_cast<std::uint32_t>(a), bit_cast<std::uint32_t>(g)};
                        return std::uint8_t(run(std::span<const std::uint32_t>(in)));
                    },
                    pairs);
                break;
            }
            case flipcheck_kind_block_scale:
                with_element(e, [&]<class EE>() {
                    using S = typename F::storage;
                    if constexpr (amax_format<F>) {
                        std::vector<std::vector<S>> only;
                        if (auto block = inputs.template operator()<F>(); !block.empty()) only.push_back(std::move(block));
                        r = check_block_scale_of<F, EE>(
                            nan_policy(e.nan), [&](std::span<const S> b) { return std::uint8_t(run(b)); }, o, only);
                    }
                });
                break;
            default: throw input_error("subject " + std::string(e.name) + " is a " + std::string(kind_name(e.kind)) + ", not of the scaling path");
        }
    });
    r.subject = e.name;
    return r;
}

// An exported amax as a function of an array's bits. An error inside it is a subject_error.
template <format F>
std::function<typename F::storage(std::span<const typename F::storage>)> amax_of(const flipcheck_subject_v2& e,
                                                                                 rounding_mode mode = rounding_mode::to_nearest) {
    using S = typename F::storage;
    return [e, mode](std::span<const S> xs) {
        const rounding_scope scope(mode);
        return S(call<S>(e, xs));
    };
}

// A sweep of an exported mapping, as a report.
inline sweep_report sweep_of(const flipcheck_subject_v2& e, const flipcheck_sweep_request_v1& q) {
    const ieee_environment ieee;  // a plug-in's -ffast-math start-up code may have set FTZ/DAZ (float_environment.hpp)
    flipcheck_sweep_result_v1 res{};
    char error[512] = "";
    const int status = e.sweep(&q, &res, error, sizeof error);
    error[sizeof error - 1] = 0;
    if (status < 0)
        throw subject_error("subject " + std::string(e.name) + "'s sweep failed: " + (error[0] ? error : "(no message)"));
    // The library's answer is validated before use: a garbage one is the subject's failure.
    auto garbage = [&](const std::string& what) {
        return subject_error("subject " + std::string(e.name) + "'s sweep answered garbage: " + what);
    };
    const std::string_view domain(res.domain, ::strnlen(res.domain, sizeof res.domain));
    if (domain.size() == sizeof res.domain) throw garbage("its domain is not a terminated string");
    if (domain != "exhaustive" && domain != "sampled" && domain != "range") throw garbage("domain '" + std::string(domain) + "'");
    if (res.counterexample_count > 64) throw garbage(std::to_string(res.counterexample_count) + " counterexamples (at most 64)");
    if (res.failing_keys > res.keys_checked) throw garbage("more failing keys than keys checked");
    for (std::uint32_t i = 0; i < res.counterexample_count; ++i)
        if (res.counterexamples[i].law >= std::uint32_t(mapping_law_count))
            throw garbage("a counterexample names law " + std::to_string(res.counterexamples[i].law));
    // What it claims to have covered is held against what was asked: a sweep that answers
    // "exhaustive" for one key of 2^32, or for another range, has not covered the space.
    with_format(e, [&]<class F>() {
        const std::uint64_t end = F::width == 64 ? 0 : std::uint64_t(1) << F::width;  // 0: 2^64, as key_range says
        const std::uint64_t begin = q.has_range ? q.range_begin : 0, last = q.has_range ? q.range_end : end;
        auto range_text = [](std::uint64_t b, std::uint64_t e2) { return "[" + std::to_string(b) + ", " + std::to_string(e2) + ")"; };
        if (q.has_range || F::width < 64) {
            if (res.range_begin != begin || res.range_end != last)
                throw garbage("it answered for keys " + range_text(res.range_begin, res.range_end) + " where " + range_text(begin, last) +
                              " was asked");
            const bool whole = begin == 0 && last == end && F::width < 64;
            if (domain != (whole ? "exhaustive" : "range"))
                throw garbage("it calls keys " + range_text(begin, last) + " of " + std::string(F::name) + " '" + std::string(domain) + "'");
        } else if (domain != "sampled" || res.range_begin != 0 || res.range_end == 0) {
            throw garbage("it answered '" + std::string(domain) + "' for keys " + range_text(res.range_begin, res.range_end) + " of " +
                          std::string(F::name) + ", whose whole space only a sample covers");
        }
        const std::uint64_t size = res.range_end - res.range_begin;
        if (res.keys_checked > size && size != 0) throw garbage(std::to_string(res.keys_checked) + " keys checked of " + std::to_string(size));
        if (!res.stopped_early && res.keys_checked != size)
            throw garbage("it checked " + std::to_string(res.keys_checked) + " of " + std::to_string(size) +
                          " keys without saying that it stopped early");
    });
    sweep_report r;
    r.format = format_name(e);
    r.mapping = e.name;
    r.domain = std::string(domain);
    with_format(e, [&]<class F>() { r.key_bits = F::width; });
    r.range = {res.range_begin, res.range_end};
    r.keys_checked = res.keys_checked;
    r.failing_keys = res.failing_keys;
    for (int l = 0; l < mapping_law_count; ++l) r.failures_by_law[l] = res.failures_by_law[l];
    r.stopped_early = res.stopped_early != 0;
    r.seconds = res.seconds;
    for (std::uint32_t i = 0; i < res.counterexample_count && i < 64; ++i) {
        const auto& c = res.counterexamples[i];
        counterexample x{};
        x.law = law_id(c.law);
        x.expected_empty = c.flags & 1;
        x.actual_empty = (c.flags >> 1) & 1;
        x.key = c.key;
        x.bits = c.bits;
        x.expected = c.expected;
        x.actual = c.actual;
        x.other = c.other;
        r.counterexamples.push_back(x);
    }
    return r;
}

}  // namespace flipcheck::plugin
