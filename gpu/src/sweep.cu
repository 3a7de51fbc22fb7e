// The library's GPU sweep: the launcher (flipcheck/gpu/sweep_launch.cuh) instantiated for every
// (mapping, format) of registry::sweepable, reached by index through launcher_of, so that code
// built by another compiler (g++, for the CLI) calls gpu::sweep<M> through an ordinary symbol.
#include "flipcheck/gpu/sweep_launch.cuh"

#include "flipcheck/gpu/detail/registry_types.hpp"

namespace flipcheck::gpu {
namespace {

// The launcher of every instance of registry::sweepable, in its order: taking each address here
// instantiates run_on_device<M> for all of them, and launcher_of is an ordinary function of this
// library, so no template symbol crosses to the code that calls gpu::sweep<M>.
template <class... I>
constexpr std::array<detail::launcher, sizeof...(I)> launchers_of(registry::list<I...>*) {
    return {&detail::run_on_device<canonical_t<typename I::type>>...};
}
constexpr auto launchers = launchers_of(static_cast<registry::sweepable*>(nullptr));

}  // namespace

detail::launcher detail::launcher_of(std::size_t instance) {
    if (instance >= launchers.size()) throw std::out_of_range("gpu::detail::launcher_of: no such instance of registry::sweepable");
    return launchers[instance];
}

std::vector<std::string> compare_reports(const sweep_report& g, const sweep_report& c) {
    std::vector<std::string> d;
    auto same = [&](const std::string& what, const auto& a, const auto& b) {
        if (a == b) return;
        if constexpr (std::is_arithmetic_v<std::decay_t<decltype(a)>>)
            d.push_back(what + ": gpu " + std::to_string(a) + ", cpu " + std::to_string(b));
        else
            d.push_back(what + ": gpu " + std::string(a) + ", cpu " + std::string(b));
    };
    same("format", g.format, c.format);
    same("mapping", g.mapping, c.mapping);
    same("domain", g.domain, c.domain);
    same("laws", g.laws, c.laws);
    same("range.begin", g.range.begin, c.range.begin);
    same("range.end", g.range.end, c.range.end);
    same("keys_checked", g.keys_checked, c.keys_checked);
    same("failing_keys", g.failing_keys, c.failing_keys);
    for (int l = 0; l < mapping_law_count; ++l)
        same("failures_by_law." + std::string(law_names[l]), g.failures_by_law[l], c.failures_by_law[l]);
    same("counterexamples.size", g.counterexamples.size(), c.counterexamples.size());
    const std::size_t n = std::min(g.counterexamples.size(), c.counterexamples.size());
    int shown = 0;
    for (std::size_t i = 0; i < n && shown < 8; ++i) {
        const counterexample &a = g.counterexamples[i], &b = c.counterexamples[i];
        if (a == b) continue;
        ++shown;
        auto show = [](const counterexample& x) {
            return std::string(to_string(x.law)) + " key " + hex(x.key, 0) + " bits " + hex(x.bits, 0) + " other " +
                   hex(x.other, 0) + " expected " + hex(x.expected, 0) + " actual " + hex(x.actual, 0);
        };
        d.push_back("counterexample " + std::to_string(i) + ": gpu " + show(a) + "; cpu " + show(b));
    }
    same("stopped_early", int(g.stopped_early), int(c.stopped_early));
    same("interrupted", int(g.interrupted), int(c.interrupted));
    return d;
}

}  // namespace flipcheck::gpu
