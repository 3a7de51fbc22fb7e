// The reductions' dispatch layer: the runtime (operation, NaN policy) picks the compiled kernel,
// and launch_reduce / launch_arg_reduce start it on a batch.
#pragma once
#include "flipcheck/gpu/reduce/kernel.cuh"

namespace flipcheck::gpu {

// Calls f.template operator()<Op, N>(). nan=undefined runs as total_order (the same keys).
template <class Fn>
void dispatch(reduce_op op, nan_policy nan, Fn&& f) {
    auto with_op = [&]<reduce_op Op>() {
        switch (nan) {
            case nan_policy::propagate: f.template operator()<Op, nan_policy::propagate>(); break;
            case nan_policy::ignore: f.template operator()<Op, nan_policy::ignore>(); break;
            default: f.template operator()<Op, nan_policy::total_order>(); break;
        }
    };
    if (op == reduce_op::max) with_op.template operator()<reduce_op::max>();
    else with_op.template operator()<reduce_op::min>();
}

// `count` arrays, `blocks` blocks of `threads` threads each (threads: a multiple of 32, <= 1024).
// words: start at identity_key(op) for the atomic forms. partials: blocks * count key words;
// counters: count words, zero before the first launch (the kernels leave them zero).
template <mapping M>
void launch_reduce(atomic_form form, policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count,
                   unsigned blocks, unsigned threads, key_word_t<typename M::format>* words,
                   key_word_t<typename M::format>* partials, unsigned* counters, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        reduce_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, form, words, partials, counters);
    });
}

// words: count words starting at identity_word<packed_word_t<F>>(op); unpack_packed reads them.
// binary64 takes a 128-bit atomicCAS: sm_90 or newer.
template <mapping M>
void launch_packed_arg(policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count, unsigned blocks,
                       unsigned threads, packed_word_t<typename M::format>* words, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        packed_arg_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, words);
    });
}

// partials/partial_seen: blocks * count each; counters: count, zero; indices: count answers.
template <mapping M>
void launch_two_level_arg(policy p, reduce_op op, batch<typename M::format::storage> b, unsigned count, unsigned blocks,
                          unsigned threads, typename keyed_reducer<M>::arg_word* partials, int* partial_seen,
                          unsigned* counters, std::uint64_t* indices, cudaStream_t stream = 0) {
    dispatch(op, p.nan, [&]<reduce_op Op, nan_policy N>() {
        two_level_arg_kernel<M, Op, N><<<dim3(blocks, count), threads, 0, stream>>>(b, p, partials, partial_seen, counters, indices);
    });
}

}  // namespace flipcheck::gpu
