// The registry's lists (flipcheck/catalog/registry.hpp) as GoogleTest type lists, so that typed suites run
// over every registered entry and a new entry joins them with no edit here.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "flipcheck/catalog/registry.hpp"

namespace flipcheck::props {

template <class List>
struct types_of;
// Instances of mapping families: the concrete mapping types.
template <class... I>
struct types_of<registry::list<I...>> {
    using mappings = ::testing::Types<typename I::type...>;
};
template <class List>
using mapping_types = typename types_of<registry::instances<List>>::mappings;
template <class... E>
::testing::Types<typename E::type...> format_types_of(registry::list<E...>*);
using format_types = decltype(format_types_of(static_cast<registry::formats*>(nullptr)));

// Test names read Suite/binary32_sign_flip.law.
struct mapping_name {
    template <class M>
    static std::string GetName(int) {
        return std::string(M::format::name) + "_" + std::string(M::name);
    }
};
struct format_name {
    template <class F>
    static std::string GetName(int) {
        return std::string(F::name);
    }
};

}  // namespace flipcheck::props
