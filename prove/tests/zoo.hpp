// The registry's mutants that flipcheck-prove reads, each spelled as a type by its place in the
// registry's lists, so that a test walks the zoo without writing a mutant's name twice:
// prove_zoo::mapping_mutant<I> is the I-th (mapping mutant, format) instance, key_mutant<I> the
// I-th (key mutant, format) one, scaling_mutant<I> the I-th (scaling mutant, element) one (of
// which the test takes the MX scales) (flipcheck::registry::instances' order).
#pragma once
#include <cstddef>

#include "flipcheck/catalog/registry.hpp"

namespace prove_zoo {

template <std::size_t I, class L>
struct nth;
template <std::size_t I, class H, class... T>
struct nth<I, flipcheck::registry::list<H, T...>> : nth<I - 1, flipcheck::registry::list<T...>> {};
template <class H, class... T>
struct nth<0, flipcheck::registry::list<H, T...>> {
    using type = H;
};

using mapping_mutants = flipcheck::registry::instances<flipcheck::registry::mapping_mutants>;
using key_mutants = flipcheck::registry::key_mutant_instances;
template <std::size_t I>
using mapping_mutant = typename nth<I, mapping_mutants>::type::type;
template <std::size_t I>
using key_mutant = typename nth<I, key_mutants>::type::type;
using scaling_mutants = flipcheck::registry::instances<flipcheck::registry::scaling_mutants>;
template <std::size_t I>
using scaling_mutant = typename nth<I, scaling_mutants>::type::type;

}  // namespace prove_zoo
