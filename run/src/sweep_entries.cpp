#include "flipcheck/run/sweep_entries.hpp"

#include <algorithm>
#include <stdexcept>

#include "flipcheck/check/equal_mappings.hpp"
#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/pairs.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::run {
namespace {

template <class M>
sweep_report run_sweep(const sweep_options& o, backend b) {
    using F = typename M::format;
    if constexpr (F::width <= 8) {
        // A byte format has 256 codes: the CPU checks them in microseconds, and the GPU sweep
        // kernels are built for 16 bits and more (registry::sweepable), so these run on the CPU
        // whatever the backend (the report says so).
        return sweep<M>(o);
    } else {
        if (b == backend::gpu) return gpu_backend::sweep(F::name, M::name, o);
        return sweep_or_sample<M>(o);  // binary64 without a range: the sampled domain
    }
}

template <class M>
std::vector<std::string> run_cross_check(const sweep_options& o) {
    if constexpr (M::format::width <= 8) {
        throw input_error(std::string(M::format::name) + " is swept on the CPU only (256 codes): there is no GPU sweep to cross-check");
    } else {
        return gpu_backend::cross_check(M::format::name, M::name, o);
    }
}

template <class M>
pairs_report run_pairs(const pairs_options& o, backend b) {
    if (b == backend::gpu && M::format::width >= 16) return gpu_backend::pairs(M::format::name, M::name, o);
    return check_pairs<M>(o);
}

// Whether built-in M agrees on every key with the built-in of its format named `reference`.
template <class M>
std::optional<bool> run_agreement(std::string_view reference, const sweep_options& o) {
    using F = typename M::format;
    std::optional<std::optional<bool>> answer;
    registry::for_each<registry::all_sweepable>([&]<class I>() {
        if constexpr (std::is_same_v<typename I::format, F> && I::entry::info.what == registry::kind::mapping)
            if (!answer && I::type::name == reference) answer = agree_everywhere<M, typename I::type>(o.threads, o.stop);
    });
    if (!answer) throw std::logic_error("no built-in mapping " + std::string(reference) + " on " + std::string(F::name));
    return *answer;
}

// Format by format, in registry order, so that listings and the main job group by format.
std::vector<sweep_entry> make_entries() {
    std::vector<sweep_entry> out;
    registry::for_each<registry::all_formats>([&]<class FE>() {
        registry::for_each<registry::all_sweepable>([&]<class I>() {
            if constexpr (std::is_same_v<typename I::format, typename FE::type>) {
                using M = typename I::type;
                out.push_back({std::string(FE::name), std::string(M::name), I::entry::info, registry::expected_right<I>(),
                               &run_sweep<M>, &run_cross_check<M>, {}, nullptr, false});
                if constexpr (pairable<typename FE::type>) out.back().pairs = &run_pairs<M>;
                if constexpr (FE::type::width == 32 && I::entry::info.what == registry::kind::mapping) {
                    out.back().agrees_with = &run_agreement<M>;
                    bool first = requires { requires M::fused_filter; };
                    for (const auto& e : out)
                        if (e.format == FE::name && e.swept_first) first = false;
                    out.back().swept_first = first;
                }
            }
        });
    });
    return out;
}

}  // namespace

const std::vector<sweep_entry>& sweep_entries() {
    static const std::vector<sweep_entry> all = make_entries();
    return all;
}

const sweep_entry* find_sweep_entry(std::string_view format, std::string_view mapping) {
    for (const auto& s : sweep_entries())
        if (s.format == format && s.mapping == mapping) return &s;
    return nullptr;
}

std::vector<code_row> codes_of(std::string_view format) {
    std::vector<code_row> out;
    bool found = false;
    registry::with_name<registry::all_formats>(format, [&]<class E>() {
        using F = typename E::type;
        found = true;
        if constexpr (F::width > 16) {
            throw input_error(std::string(F::name) + " has 2^" + std::to_string(F::width) +
                              " codes: `codes` lists formats of 16 bits or fewer");
        } else {
            for (std::uint32_t b = 0; b <= F::value_mask; ++b) {
                const auto c = F::classify(typename F::storage(b));
                out.push_back({b, bit_cast<std::uint32_t>(float(F::to_value(typename F::storage(b)))),
                               std::string(to_string(c.kind)) + (c.negative ? "-" : "+")});
            }
        }
    });
    if (!found) throw input_error("unknown format " + std::string(format));
    return out;
}

int format_width(std::string_view format) {
    int width = 0;
    registry::with_name<registry::all_formats>(format, [&]<class E>() { width = E::type::width; });
    return width;
}

std::vector<std::string> format_names() {
    std::vector<std::string> names;
    registry::for_each<registry::all_formats>([&]<class E>() { names.emplace_back(E::name); });
    return names;
}

std::vector<std::string> mapping_names(bool builtin_only) {
    std::vector<std::string> names;
    for (const auto& s : sweep_entries())
        if ((s.builtin() || !builtin_only) && std::find(names.begin(), names.end(), s.mapping) == names.end())
            names.push_back(s.mapping);
    return names;
}

}  // namespace flipcheck::run
