// The element formats the prover knows (a quantizer's target, a scale's element), by name.
#pragma once
#include <string>

#include "flipcheck/error.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"

namespace flipcheck::prove {

// fn.template operator()<E>() for the element of that name; input_error for another.
template <class Fn>
void with_element(const std::string& name, Fn&& fn) {
    bool found = false;
    auto try_one = [&]<class E>() {
        if (!found && name == E::name) found = true, fn.template operator()<E>();
    };
    try_one.template operator()<float8_e4m3fn>();
    try_one.template operator()<float8_e5m2>();
    try_one.template operator()<float8_e4m3fnuz>();
    try_one.template operator()<float8_e5m2fnuz>();
    try_one.template operator()<float6_e2m3fn>();
    try_one.template operator()<float6_e3m2fn>();
    try_one.template operator()<float4_e2m1fn>();
    try_one.template operator()<binary16>();
    try_one.template operator()<bfloat16>();
    if (!found)
        throw input_error("an element " + name + ": the prover knows the elements float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, "
                                                 "float8_e5m2fnuz, float6_e2m3fn, float6_e3m2fn, float4_e2m1fn, binary16 and bfloat16");
}

}  // namespace flipcheck::prove
