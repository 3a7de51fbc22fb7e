#include "flipcheck/run/describe.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/describe.hpp"

namespace flipcheck::run {
namespace {

template <format F>
described describe_as(std::uint64_t raw) {
    using S = typename F::storage;
    const S b = S(raw);
    const classification c = F::classify(b);
    described d;
    d.hex = hex(raw, F::width);
    d.kind = fmt::format("{}{}", to_string(c.kind), c.negative ? "-" : "+");
    if (c.is_nan()) {
        d.value = fmt::format("{}nan(payload=0x{:x})", c.negative ? "-" : "+", std::uint64_t(F::mantissa_field(b)));
    } else {
        d.value = fmt::format("{:.17g}", double(F::to_value(b)));
        if (c.kind == fp_class::zero) d.value = c.negative ? "-0" : "+0";
    }
    return d;
}

}  // namespace

described describe(const std::string& format, std::uint64_t bits) {
    described d;
    if (!registry::with_name<registry::all_formats>(format, [&]<class E>() { d = describe_as<typename E::type>(bits); }))
        throw std::invalid_argument("describe: unknown format " + format);
    return d;
}

}  // namespace flipcheck::run
