// The audit's P3008 rows: flipcheck's own p3008 operations, CCCL's cuda::atomic_ref fetch_max and
// fetch_min (a CAS loop on floats), on the host here and on the device through gpu/, judged by the
// permitted-set oracle of core's audit/p3008.hpp. The standard library's std::atomic<float>::
// fetch_max is C++26: where the library lacks it, the audit says so.
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "flipcheck/run/p3008_rows.hpp"
#include "flipcheck/atomic.hpp"
#include "flipcheck/run/audit_subjects.hpp"
#include "flipcheck/run/describe.hpp"
#include "flipcheck/run/gpu_backend.hpp"
#if FLIPCHECK_HAVE_THRUST
#include <cuda/atomic>
#include <cuda/version>
#endif
#include <atomic>

namespace flipcheck::run {
namespace {

using audit::fetch_pair;
using audit::fetch_result;

template <format F, p3008::operation K>
std::vector<fetch_result> own(const std::vector<fetch_pair>& pairs) {
    using S = typename F::storage;
    std::vector<fetch_result> out;
    for (const auto& [old, v] : pairs) {
        atomic::sequential_word<S> w{S(old)};
        const S returned = p3008::fetch<F, K>::apply(w, S(v));
        out.push_back({returned, w.value});
    }
    return out;
}

template <format F>
void add_own(std::vector<audit::p3008_subject>& s, const char* format, const char* type) {
    s.push_back({fmt::format("flipcheck p3008 fetch_max <{}>", type), "flipcheck", p3008::operation::max, own<F, p3008::operation::max>, format});
    s.push_back({fmt::format("flipcheck p3008 fetch_min <{}>", type), "flipcheck", p3008::operation::min, own<F, p3008::operation::min>, format});
    s.push_back({fmt::format("flipcheck p3008 fetch_fmaximum <{}>", type), "flipcheck", p3008::operation::fmaximum, own<F, p3008::operation::fmaximum>, format});
    s.push_back({fmt::format("flipcheck p3008 fetch_fminimum <{}>", type), "flipcheck", p3008::operation::fminimum, own<F, p3008::operation::fminimum>, format});
    s.push_back({fmt::format("flipcheck p3008 fetch_fmaximum_num <{}>", type), "flipcheck", p3008::operation::fmaximum_num,
                 own<F, p3008::operation::fmaximum_num>, format});
    s.push_back({fmt::format("flipcheck p3008 fetch_fminimum_num <{}>", type), "flipcheck", p3008::operation::fminimum_num,
                 own<F, p3008::operation::fminimum_num>, format});
}

#if FLIPCHECK_HAVE_THRUST
template <class T, bool Max>
std::vector<fetch_result> cccl_host(const std::vector<fetch_pair>& pairs) {
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    std::vector<fetch_result> out;
    for (const auto& [old, v] : pairs) {
        T object, operand;
        const U o = U(old), x = U(v);
        std::memcpy(&object, &o, sizeof(T));
        std::memcpy(&operand, &x, sizeof(T));
        cuda::atomic_ref<T> ref(object);
        const T returned = Max ? ref.fetch_max(operand) : ref.fetch_min(operand);
        U r, s;
        std::memcpy(&r, &returned, sizeof(T));
        std::memcpy(&s, &object, sizeof(T));
        out.push_back({r, s});
    }
    return out;
}
#endif

std::string render_value(const std::string& format, audit::word w) { return describe(format, w).value; }

}  // namespace

std::vector<audit::p3008_subject> p3008_subjects(backend b) {
    std::vector<audit::p3008_subject> s;
    add_own<binary32>(s, "binary32", "float");
    add_own<binary64>(s, "binary64", "double");
    add_own<binary16>(s, "binary16", "binary16");
#if FLIPCHECK_HAVE_THRUST
    s.push_back({"cuda::atomic_ref<float>::fetch_max (host)", "CCCL", p3008::operation::max, cccl_host<float, true>, "binary32"});
    s.push_back({"cuda::atomic_ref<float>::fetch_min (host)", "CCCL", p3008::operation::min, cccl_host<float, false>, "binary32"});
    s.push_back({"cuda::atomic_ref<double>::fetch_max (host)", "CCCL", p3008::operation::max, cccl_host<double, true>, "binary64"});
    s.push_back({"cuda::atomic_ref<double>::fetch_min (host)", "CCCL", p3008::operation::min, cccl_host<double, false>, "binary64"});
#endif
    if (b == backend::gpu) {
        s.clear();  // the device's own: CCCL's atomic_ref and flipcheck's p3008.cuh in a kernel
        for (auto& g : gpu_backend::p3008_subjects()) s.push_back(std::move(g));
    }
    return s;
}

std::string p3008_std_note() {
#if defined(__cpp_lib_atomic_min_max)
    return fmt::format("std::atomic<float>::fetch_max: present (__cpp_lib_atomic_min_max = {}) but not yet audited", __cpp_lib_atomic_min_max);
#else
    return "std::atomic<float>::fetch_max (C++26, P3008): absent from this standard library (__cpp_lib_atomic_min_max undefined)";
#endif
}

p3008_row run_p3008(const audit::p3008_subject& s, std::size_t randoms) {
    p3008_row r;
    audit::p3008_report v;
    with_audit_format(s.format, [&]<class F>() {
        const auto pairs = audit::p3008_pairs<F>(randoms);
        v = audit::judge_p3008<F>(s.kind, pairs, s.run(pairs), randoms);
    });
    const auto show = [&](const audit::fetch_observation& o) {
        return fmt::format("old {}, operand {} -> returned {}, stored {} = {} (P3008 permits {})", render_value(s.format, o.in.first),
                           render_value(s.format, o.in.second), render_value(s.format, o.got.returned), describe(s.format, o.got.stored).hex,
                           render_value(s.format, o.got.stored), o.permitted);
    };
    const std::string edges = fmt::format("{} edge pairs and {} random (sampled, not every pair)", v.pairs - v.random_pairs, v.random_pairs);
    r.conforms = !v.violation;
    r.verdict = r.conforms ? "conforms on " + edges : "VIOLATES: " + show(*v.violation);
    r.lines.push_back(fmt::format("  {:<13} {}", "P3008R6", r.verdict));
    if (!r.conforms)
        r.lines.push_back(fmt::format("        replay: flipcheck audit --subject '{}' --input {},{}{}", s.name, describe(s.format, v.violation->in.first).hex,
                                      describe(s.format, v.violation->in.second).hex, s.replay_options.empty() ? "" : " " + s.replay_options));
    for (const auto& o : v.telling) {
        r.lines.push_back("    " + show(o));
        r.cells.push_back(fmt::format("{}", render_value(s.format, o.got.stored)));
    }
    r.json = {{"subject", s.name}, {"library", s.library}, {"format", s.format}, {"operation", to_string(s.kind)},
              {"conforms", r.conforms}, {"verdict", r.verdict}};
    return r;
}

std::string replay_p3008(const audit::p3008_subject& s, audit::word old, audit::word operand) {
    const auto got = s.run({{old, operand}})[0];
    std::string why;
    bool ok = false;
    with_audit_format(s.format, [&]<class F>() {
        using S = typename F::storage;
        ok = audit::p3008_oracle<F>::permitted(s.kind, S(old), S(operand), S(got.stored), why) && got.returned == old;
    });
    return fmt::format("{} ({}, {}): old {}, operand {} -> returned {}, stored {} = {}\n  P3008R6 permits {}: {}\n", s.name, s.library, s.format,
                       describe(s.format, old).hex, describe(s.format, operand).hex, describe(s.format, got.returned).hex,
                       describe(s.format, got.stored).hex, render_value(s.format, got.stored), why, ok ? "agrees" : "DIFFERS");
}

}  // namespace flipcheck::run
