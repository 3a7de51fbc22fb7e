// Registry types as kernel template arguments. nvcc 13.0 writes a kernel's template arguments
// into the host stubs it generates the way the source spelled them, typedefs included: a type
// reached through a registry entry (instance<E, F>::type, E::on<F, Op>, format_entry::type) is
// written with the entry's text template arguments, which the generated code cannot parse.
// canonical_t<T> is T named through a class template's argument, which nvcc keeps canonical: pass
// every registry type through it before it reaches a kernel.
#pragma once

namespace flipcheck::gpu {

template <class T>
struct canonical {
    using type = T;
};
template <class T>
using canonical_t = typename canonical<T>::type;

}  // namespace flipcheck::gpu
