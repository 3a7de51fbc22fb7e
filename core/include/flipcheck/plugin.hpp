// Loading a plug-in library (plugin_abi.h) and running its subjects with flipcheck's drivers: the
// loader behind `flipcheck check --plugin` and the plug-in fuzz target. Host only (dlopen).
//
// Loading either succeeds whole or throws input_error and leaves nothing loaded: a missing or
// unreadable file, a file that is not a shared library, one without the entry point, an ABI
// version other than this build's, and a table that is malformed (no name, an unknown kind or
// format id, a kind without its functions, two subjects with one name) are all refused.
#pragma once
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/check.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/plugin_abi.h"
#include "flipcheck/registry.hpp"
#include "flipcheck/report.hpp"
#include "flipcheck/scaling_check.hpp"

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
        default: return "?";
    }
}

inline bool is_mapping(const flipcheck_subject_v1& s) { return s.kind == flipcheck_kind_mapping; }
// The scaling path's shapes after amax: one call per input, judged by scaling_check.hpp.
inline bool is_scale(const flipcheck_subject_v1& s) {
    return s.kind >= flipcheck_kind_mx_scale && s.kind <= flipcheck_kind_nvfp4_scale;
}

// The format entry of a subject (any of registry.hpp's all_formats: the IEEE ones and the byte
// formats): calls f.template operator()<F>().
template <class Fn>
void with_format(const flipcheck_subject_v1& s, Fn&& f) {
    if (registry::with_id<registry::all_formats>(std::uint8_t(s.format_id), [&]<class FE>() { f.template operator()<typename FE::type>(); }))
        return;
    throw input_error("subject " + std::string(s.name) + " has unknown format id " + std::to_string(s.format_id));
}

inline std::string format_name(const flipcheck_subject_v1& s) {
    std::string n;
    with_format(s, [&]<class F>() { n = F::name; });
    return n;
}

class library {
public:
    explicit library(const std::filesystem::path& path) : path_(path) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) throw input_error("plug-in library " + path.string() + " does not exist");
        if (std::filesystem::is_directory(path, ec)) throw input_error("plug-in library " + path.string() + " is a directory");
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

    std::span<const flipcheck_subject_v1> subjects() const { return {table_->subjects, table_->subject_count}; }

    const flipcheck_subject_v1& find(std::string_view name) const {
        for (const auto& s : subjects())
            if (name == s.name) return s;
        std::string names;
        for (const auto& s : subjects()) names += std::string(names.empty() ? "" : ", ") + s.name;
        throw input_error("plug-in library " + path_.string() + " has no subject named '" + std::string(name) +
                          "' (it has: " + names + ")");
    }

private:
    void validate() {
        dlerror();
        void* entry = dlsym(handle_, FLIPCHECK_PLUGIN_ENTRY);
        if (!entry)
            throw input_error(path_.string() + " is not a flipcheck plug-in: it has no " FLIPCHECK_PLUGIN_ENTRY
                              " entry point (export subjects with FLIPCHECK_EXPORT_SUBJECTS, flipcheck/export.hpp)");
        table_ = reinterpret_cast<flipcheck_plugin_entry_v1>(entry)();
        if (!table_) throw input_error(path_.string() + ": " FLIPCHECK_PLUGIN_ENTRY " returned no table");
        if (table_->abi_version != FLIPCHECK_PLUGIN_ABI_VERSION)
            throw input_error(path_.string() + " was built for plug-in ABI version " + std::to_string(table_->abi_version) +
                              ", but this flipcheck speaks version " + std::to_string(FLIPCHECK_PLUGIN_ABI_VERSION) +
                              ": rebuild the library against this flipcheck's headers");
        if (table_->subject_count == 0 || !table_->subjects)
            throw input_error(path_.string() + " exports no subjects");
        std::vector<std::string> seen;
        for (const auto& s : subjects()) {
            if (!s.name || !*s.name) throw input_error(path_.string() + ": a subject has no name");
            const std::string n = s.name;
            for (const auto& o : seen)
                if (o == n) throw input_error(path_.string() + ": two subjects are named '" + n + "'");
            seen.push_back(n);
            if (kind_name(s.kind) == "?") throw input_error("subject " + n + " has unknown kind " + std::to_string(s.kind));
            format_name(s);  // throws on an unknown format id
            // Bits 8-15 name a block scale's element (which it must have), and nothing else's.
            const bool element = s.kind == flipcheck_kind_block_scale;
            if (element ? s.format_id >> 16 || !registry::with_id<registry::all_formats>(std::uint8_t(s.format_id >> 8), []<class>() {})
                        : s.format_id >> 8 != 0)
                throw input_error("subject " + n + " has format id " + std::to_string(s.format_id) +
                                  (element ? " (a block scale's element, in bits 8-15, is not a format)" : " (not a format)"));
            // A shape over a format it cannot take is refused here, as bad input, not when it runs.
            with_format(s, [&]<class F>() {
                if (s.kind == flipcheck_kind_decode && F::width != 8)
                    throw input_error("subject " + n + " decodes " + std::string(F::name) + ": a decoder is of a byte format");
                if ((s.kind == flipcheck_kind_amax || s.kind == flipcheck_kind_block_scale) && !amax_format<F>)
                    throw input_error("subject " + n + " takes the amax of " + std::string(F::name) + ", which has no sign to clear");
            });
            const bool functions = is_mapping(s) ? (s.encode && s.decode && s.sweep) : s.run != nullptr;
            if (!functions) throw input_error("subject " + n + " lacks the functions of a " + std::string(kind_name(s.kind)));
            if (!is_mapping(s) && (s.op > 1 || s.nan > 3 || s.zero > 1 || s.ties > 2))
                throw input_error("subject " + n + " declares an unknown operation or policy");
        }
    }

    std::filesystem::path path_;
    void* handle_ = nullptr;
    const flipcheck_plugin_v1* table_ = nullptr;
};

inline policy declared(const flipcheck_subject_v1& s) {
    return {nan_policy(s.nan), zero_policy(s.zero), tie_policy(s.ties)};
}

// One call of an exported subject's run on xs (In: the ABI's input words) in `order` (nullptr:
// index order): its out, or nothing where the subject answers nothing. An error inside the
// subject is a subject_error. Every caller of a subject's run goes through here.
template <class In>
std::optional<std::uint64_t> call_run(const flipcheck_subject_v1& e, std::span<const In> xs, const std::size_t* order = nullptr) {
    std::uint64_t out = 0;
    char error[512] = "";
    const int r = e.run(xs.data(), xs.size(), order, &out, error, sizeof error);
    error[sizeof error - 1] = 0;  // a message that fills the buffer is cut, never read past
    if (r < 0) throw subject_error("subject " + std::string(e.name) + " failed: " + (error[0] ? error : "(no message)"));
    if (r == 0) return std::nullopt;
    return out;
}
// The same, for a subject that must answer (an amax, a scale).
template <class In>
std::uint64_t call(const flipcheck_subject_v1& e, std::span<const In> xs) {
    const std::optional<std::uint64_t> out = call_run(e, xs);
    if (!out) throw subject_error("subject " + std::string(e.name) + " failed: (it returned no answer)");
    return *out;
}

// A reducer subject over an exported one. An error inside the subject's code is a subject_error.
template <format F>
reducer_subject<F> reducer_of(const flipcheck_subject_v1& e) {
    using S = typename F::storage;
    reducer_subject<F> s;
    s.name = e.name;
    s.op = reduce_op(e.op);
    s.declared = declared(e);
    s.arg = e.kind == flipcheck_kind_arg_reducer || e.kind == flipcheck_kind_arg_atomic;
    s.interleaved = e.kind == flipcheck_kind_atomic || e.kind == flipcheck_kind_arg_atomic;
    s.run = [e](std::span<const S> xs, std::span<const std::size_t> order) {
        return call_run(e, xs, order.empty() ? nullptr : order.data());
    };
    return s;
}

// An exported scale, decoder, block scale or NVFP4 scale (is_scale) checked as scaling_check.hpp
// checks the type it came from; with `replay` (a failure's case, as its report's replay says it),
// on that case's inputs alone. A case that does not parse is an input_error.
inline scaling_report check_scale(const flipcheck_subject_v1& e, const scaling_options& o, const std::string& replay = "") {
    scaling_report r;
    auto u32 = [&](std::uint32_t x) { return call<std::uint32_t>(e, std::span(&x, 1)); };
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
                r = check_mx_scale_of<F>([&](std::uint32_t a) { return std::uint8_t(u32(a)); }, inputs.template operator()<binary32>());
                break;
            case flipcheck_kind_tensor_scale:
                r = check_tensor_scale_of<F>([&](float a) { return bit_cast<float>(std::uint32_t(u32(bit_cast<std::uint32_t>(a)))); },
                                             inputs.template operator()<binary32>());
                break;
            case flipcheck_kind_decode:
                if constexpr (F::width == 8)
                    r = check_decode_of<F>([&](std::uint8_t c) { return bit_cast<float>(std::uint32_t(call<std::uint8_t>(e, std::span(&c, 1)))); },
                                           inputs.template operator()<F>());
                break;  // (load time refuses a decoder of a wider format: plugin::library)
            case flipcheck_kind_nvfp4_scale: {
                const auto pairs = inputs.template operator()<binary32>();
                if (pairs.size() % 2) throw input_error("the case for " + std::string(e.name) + " lists (block amax, global scale) pairs: an even count");
                r = check_nvfp4_scale_of(
                    [&](float a, float g) {
                        const std::uint32_t in[2] = {bit_cast<std::uint32_t>(a), bit_cast<std::uint32_t>(g)};
                        return std::uint8_t(call<std::uint32_t>(e, std::span(in)));
                    },
                    pairs);
                break;
            }
            case flipcheck_kind_block_scale:
                registry::with_id<registry::all_formats>(std::uint8_t(e.format_id >> 8), [&]<class EE>() {
                    using S = typename F::storage;
                    if constexpr (amax_format<F>) {
                        std::vector<std::vector<S>> only;
                        if (auto block = inputs.template operator()<F>(); !block.empty()) only.push_back(std::move(block));
                        r = check_block_scale_of<F, typename EE::type>(
                            nan_policy(e.nan), [&](std::span<const S> b) { return std::uint8_t(call<S>(e, b)); }, o, only);
                    }
                });
                break;
            default: throw input_error("subject " + std::string(e.name) + " is a " + std::string(kind_name(e.kind)) + ", not a scale");
        }
    });
    r.subject = e.name;
    return r;
}

// An exported amax as a function of an array's bits. An error inside it is a subject_error.
template <format F>
std::function<typename F::storage(std::span<const typename F::storage>)> amax_of(const flipcheck_subject_v1& e) {
    using S = typename F::storage;
    return [e](std::span<const S> xs) { return S(call<S>(e, xs)); };
}

// A sweep of an exported mapping, as a report.
inline sweep_report sweep_of(const flipcheck_subject_v1& e, const flipcheck_sweep_request_v1& q) {
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
