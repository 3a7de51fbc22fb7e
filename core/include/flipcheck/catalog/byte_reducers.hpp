// Every byte reducer of the catalogue on every array of a byte format: check/exhaustive.hpp's
// engine over registry::byte_reducers and the format-aware key's folds (the main job's and
// `flipcheck mutants`' exhaustive rows). Apart from the engine, so that check/ does not compile
// the catalogue.
#pragma once
#include <string>
#include <vector>

#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/check/exhaustive.hpp"

namespace flipcheck {

// Every byte reducer of the registry (registry::byte_reducers: atomic strategies, replayed in the
// array's order, which over every array is every order) and the keyed folds of the format-aware
// key under every policy the format gives a meaning to, on every array of `length` codes of F.
// The folds are the ones with no seed (sequential, pairwise_tree, arg_sequential): the others
// differ from them only in the order they visit, and every order is enumerated here anyway.
template <format F>
std::vector<exhaustive_row> check_byte_reducers(int length, unsigned threads = 0) {
    using S = typename F::storage;
    std::vector<exhaustive_row> rows;
    registry::for_each<registry::byte_reducers>([&]<class E>() {
        auto one = [&]<reduce_op Op>() {
            using R = typename E::template on<F, Op>;
            const byte_oracle<F> o(R::declared, Op);
            auto run = [](std::span<const S> xs) {
                return atomic::replay<R>(xs, std::span<const std::size_t>(detail::in_array_order, xs.size()));
            };
            rows.push_back(detail::row_of<F>(std::string(E::name), R::declared, Op, E::arg, length,
                                             check_every_array<F>(o, length, run, threads)));
        };
        one.template operator()<reduce_op::max>();
        one.template operator()<reduce_op::min>();
    });
    using K = key_mapping<F>;
    for (reduce_op op : {reduce_op::max, reduce_op::min}) {
        for (const policy& p : policies_for<F>(false)) {
            const byte_oracle<F> o(p, op);
            rows.push_back(detail::row_of<F>("keyed sequential", p, op, false, length, check_every_array<F>(o, length, [&](std::span<const S> xs) {
                return keyed_reducer<K>::sequential(p, op, xs);
            }, threads)));
            rows.push_back(detail::row_of<F>("keyed pairwise_tree", p, op, false, length, check_every_array<F>(o, length, [&](std::span<const S> xs) {
                return keyed_reducer<K>::pairwise_tree(p, op, xs);
            }, threads)));
        }
        for (const policy& p : policies_for<F>(true)) {
            const byte_oracle<F> o(p, op);
            rows.push_back(detail::row_of<F>("keyed arg_sequential", p, op, true, length, check_every_array<F>(o, length, [&](std::span<const S> xs) {
                return keyed_reducer<K>::arg_sequential(p, op, xs);
            }, threads)));
        }
    }
    return rows;
}

}  // namespace flipcheck
