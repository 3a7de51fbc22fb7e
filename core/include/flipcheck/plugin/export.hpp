// Export your subjects from a shared library, for `flipcheck check --plugin libmine.so` and the
// plug-in fuzz target, with one line in one source file of the library:
//
//     FLIPCHECK_EXPORT_SUBJECTS(my_key, my_atomic_max, my_reducer);
//
// Each type is a mapping (mapping.hpp), an atomic strategy of any shape (atomic.hpp: value, arg or
// lane), a reducer function (check/reducers.hpp), a reducer of packed pairs (packed_reducer.hpp), or one of
// check/scaling.hpp's shapes (an amax, an MX scale as a code or a value under its recipe, a tensor
// scale, a decoder, an MX block scale, an NVFP4 block scale, a quantizer, a canonical key), over
// any format of `flipcheck list` (the byte formats too), with a `name`, which the command line's
// --subject takes. The macro writes the C entry point of plugin/abi.h
// (ABI v2); every call into your code is wrapped so that an exception comes back as an error
// message, never across the C boundary. A mapping's sweep and an atomic strategy's interleaved
// steps run inside the library, compiled with your code inlined, so they are as fast as a test's.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/check/interleaving.hpp"
#include "flipcheck/check/mappings.hpp"
#include "flipcheck/packed_reducer.hpp"
#include "flipcheck/plugin/abi.h"
#include "flipcheck/formats.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/check/sweep.hpp"

namespace flipcheck::plugin {

inline void set_error(char* error, std::size_t size, const char* what) {
    if (error && size) std::snprintf(error, size, "%s", what);
}

template <class Fn>
int guarded(char* error, std::size_t size, Fn&& fn) {
    try {
        return fn();
    } catch (const std::exception& e) {
        set_error(error, size, e.what());
    } catch (...) {
        set_error(error, size, "an exception that is not a std::exception");
    }
    return -1;
}

template <mapping M>
int sweep_entry(const flipcheck_sweep_request_v1* q, flipcheck_sweep_result_v1* out, char* error, std::size_t size) {
    return guarded(error, size, [&] {
        sweep_options o;
        o.limit = std::min<std::uint32_t>(q->limit, 64);
        o.all = q->all != 0;
        o.first_failing_chunk = !o.all;
        o.threads = q->threads;
        if (q->has_range) o.range = key_range{q->range_begin, q->range_end};
        const sweep_report r = sweep_or_sample<M>(o);
        *out = flipcheck_sweep_result_v1{};
        out->keys_checked = r.keys_checked;
        out->failing_keys = r.failing_keys;
        out->range_begin = r.range.begin;
        out->range_end = r.range.end;
        for (int l = 0; l < 7; ++l) out->failures_by_law[l] = r.failures_by_law[l];
        out->stopped_early = r.stopped_early;
        out->seconds = r.seconds;
        std::snprintf(out->domain, sizeof out->domain, "%s", r.domain.c_str());
        for (const counterexample& c : r.counterexamples) {
            if (out->counterexample_count == 64) break;
            out->counterexamples[out->counterexample_count++] = {
                std::uint32_t(c.law), std::uint32_t(c.expected_empty) | std::uint32_t(c.actual_empty) << 1,
                c.key, c.bits, c.expected, c.actual, c.other};
        }
        return 0;
    });
}

template <class R>
int run_entry(const void* data, std::size_t n, const std::size_t* order, std::uint64_t* out, char* error, std::size_t size) {
    return guarded(error, size, [&] {
        using S = typename R::format::storage;
        const std::span<const S> xs(static_cast<const S*>(data), n);
        const std::vector<std::size_t> in_order = order ? std::vector<std::size_t>() : flipcheck::detail::identity_order(n);
        const std::span<const std::size_t> o = order ? std::span<const std::size_t>(order, n) : std::span<const std::size_t>(in_order);
        const std::optional<std::uint64_t> r = subject_of<R>().run(xs, o);
        if (!r) return 0;
        *out = *r;
        return 1;
    });
}

// What a run tells the loader: each step of its trace, and a lane strategy's every lane.
inline void report_steps(const flipcheck_run_sink_v2* sink, const atomic::step_trace& t) {
    if (!sink || !sink->step) return;
    for (std::size_t k = 0; k < t.steps.size(); ++k) {
        const bool w = k < t.waiting.size();
        sink->step(sink->context, t.steps[k], w ? t.waiting[k].data() : nullptr, w ? t.waiting[k].size() : 0);
    }
}
inline void report_lanes(const flipcheck_run_sink_v2* sink, const std::vector<atomic::lane_value>& lanes) {
    if (!sink || !sink->lane) return;
    for (const atomic::lane_value& l : lanes)
        sink->lane(sink->context, l.own_offset, l.offset, l.answer.has_value(), l.answer.value_or(0));
}

// An atomic strategy's update stepped as the loader's plan says (check/interleaving.hpp), here in the
// library with the strategy inlined; a plan the run cannot follow is -2 (the loader's bad input).
template <class R>
int run_steps_entry(const void* data, std::size_t n, const flipcheck_step_plan_v2* q, const flipcheck_run_sink_v2* sink,
                    std::uint64_t* out, char* error, std::size_t size) {
    return guarded(error, size, [&] {
        using S = typename R::format::storage;
        const std::span<const S> xs(static_cast<const S*>(data), n);
        atomic::step_plan plan;
        if (q->prefix_size) plan.prefix.assign(q->prefix, q->prefix + q->prefix_size);
        plan.seed = q->seed;
        plan.limit = std::size_t(q->limit);
        plan.keep_waiting = q->keep_waiting != 0;
        plan.strict_prefix = q->strict_prefix != 0;
        std::optional<std::uint64_t> answer;
        atomic::step_trace trace;
        try {
            if constexpr (atomic::lane_atomic_strategy<R>) {
                auto [all, t] = atomic::replay_lane_steps<R>(xs, plan);
                report_lanes(sink, all);
                if (!all.empty()) answer = all.front().answer;
                trace = std::move(t);
            } else {
                std::tie(answer, trace) = atomic::replay_steps<R>(xs, plan);
            }
        } catch (const input_error& e) {
            set_error(error, size, e.what());
            return -2;
        }
        report_steps(sink, trace);
        if (!trace.finished) return 2;
        if (!answer) return 0;
        *out = *answer;
        return 1;
    });
}

// A lane strategy's whole updates in `order`, every lane of every placement to the loader.
template <class R>
int run_lanes_entry(const void* data, std::size_t n, const std::size_t* order, const flipcheck_run_sink_v2* sink, char* error,
                    std::size_t size) {
    return guarded(error, size, [&] {
        using S = typename R::format::storage;
        const std::vector<std::size_t> in_order = order ? std::vector<std::size_t>(order, order + n) : flipcheck::detail::identity_order(n);
        const auto all = atomic::replay_lanes<R>(std::span<const S>(static_cast<const S*>(data), n), in_order);
        report_lanes(sink, all);
        return all.empty() ? 0 : 1;
    });
}

// A reducer of packed pairs on the ABI's bytes.
template <class R>
int pair_entry(const void* data, std::size_t n, const std::size_t*, std::uint64_t* out, char* error, std::size_t size) {
    return guarded(error, size, [&] {
        const std::optional<std::uint8_t> r = R::reduce(std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(data), n));
        if (!r) return 0;
        *out = *r;
        return 1;
    });
}

// A scaling subject's one call (mx scale, tensor scale, decode, block scale, nvfp4 scale) on the
// ABI's bits; `inputs` of them expected (0: any number, a block).
template <class In, std::size_t Inputs, class Call>
int scaling_entry(const void* data, std::size_t n, std::uint64_t* out, char* error, std::size_t size, Call&& call) {
    return guarded(error, size, [&] {
        if (Inputs && n != Inputs) throw std::invalid_argument("expected " + std::to_string(Inputs) + " input(s), got " + std::to_string(n));
        *out = std::uint64_t(call(std::span<const In>(static_cast<const In*>(data), n)));
        return 1;
    });
}
template <class X>
int mx_scale_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint32_t, 1>(d, n, out, e, size, [](auto x) { return X::scale(x[0]); });
}
template <class X>
int tensor_scale_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint32_t, 1>(d, n, out, e, size, [](auto x) { return bit_cast<std::uint32_t>(float(X::tensor_scale(bit_cast<float>(x[0])))); });
}
template <class X>
int decode_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint8_t, 1>(d, n, out, e, size, [](auto x) { return bit_cast<std::uint32_t>(float(X::decode(x[0]))); });
}
template <class X>
int block_scale_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<typename X::format::storage, 0>(d, n, out, e, size, [](auto x) { return X::block_scale(x); });
}
template <class X>
int nvfp4_scale_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint32_t, 2>(d, n, out, e, size,
                                           [](auto x) { return X::block_scale(bit_cast<float>(x[0]), bit_cast<float>(x[1])); });
}

template <class X>
int scale_value_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint32_t, 1>(d, n, out, e, size, [](auto x) { return bit_cast<std::uint32_t>(float(X::scale_value(bit_cast<float>(x[0])))); });
}
template <class X>
int quantizer_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<typename X::format::storage, 1>(d, n, out, e, size, [](auto x) { return code_t<typename X::element>(X::quantize(x[0])); });
}
// x (the input's bits, widened) and s (binary32 bits): the ABI's two words.
template <class X>
int scaled_quantizer_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<std::uint32_t, 2>(d, n, out, e, size, [](auto w) {
        return code_t<typename X::element>(X::quantize_scaled(typename X::format::storage(w[0]), bit_cast<float>(w[1])));
    });
}
// A key travels as its one-word form (canonical_key.hpp's key_word: bytes packed big-endian).
template <class X>
int canonical_key_entry(const void* d, std::size_t n, const std::size_t*, std::uint64_t* out, char* e, std::size_t size) {
    return scaling_entry<typename X::format::storage, 1>(d, n, out, e, size, [](auto x) { return key_word(X::key(x[0])); });
}

// The policy word (plugin/abi.h) of a scale's recipe: its index in all_recipes.
template <class X>
constexpr std::uint32_t recipe_id() {
    constexpr scale_recipe r = declared_recipe<X>();
    for (std::uint32_t i = 0; i < std::size(all_recipes); ++i)
        if (all_recipes[i].round == r.round && all_recipes[i].amax_floor == r.amax_floor) return i;
    return ~0u;
}
// A canonical key's: its equivalence, its width in bytes, and whether it is bytes.
template <class X>
constexpr std::uint32_t key_policy() {
    using K = std::remove_cvref_t<decltype(X::key(typename X::format::storage{}))>;
    constexpr bool bytes = !std::is_integral_v<K>;
    static_assert(sizeof(K) >= 1 && sizeof(K) <= 8 && (bytes ? std::is_same_v<K, std::array<std::uint8_t, sizeof(K)>> : std::is_unsigned_v<K>),
                  "a plug-in's canonical key is an unsigned integer or std::array<std::uint8_t, N> of at most 8 bytes "
                  "(a wider key: check it in C++ with FLIPCHECK_CHECK_KEY)");
    return std::uint32_t(X::declared) | std::uint32_t(sizeof(K)) << 8 | std::uint32_t(bytes) << 16;
}

template <class A>
int amax_entry(const void* data, std::size_t n, const std::size_t*, std::uint64_t* out, char* error, std::size_t size) {
    return guarded(error, size, [&] {
        using S = typename A::format::storage;
        *out = std::uint64_t(A::amax(std::span<const S>(static_cast<const S*>(data), n)));
        return 1;
    });
}

template <class T>
flipcheck_subject_v2 subject() {
    flipcheck_subject_v2 s{};
    s.name = T::name.data();
    // The format it reduces or decodes; a scale's element; binary32 for an NVFP4 scale (its inputs).
    if constexpr (requires { typename T::format; }) s.format_id = registry::format_id<typename T::format>;
    else if constexpr (requires { typename T::element; }) s.format_id = registry::format_id<typename T::element>;
    else s.format_id = registry::format_id<binary32>;
    if constexpr (mapping<T>) {
        s.kind = flipcheck_kind_mapping;
        s.encode = [](std::uint64_t b) { return std::uint64_t(T::encode(typename T::format::storage(b))); };
        s.decode = [](std::uint64_t k) { return std::uint64_t(T::decode(typename T::format::storage(k))); };
        s.sweep = &sweep_entry<T>;
    } else if constexpr (amax_subject<T>) {
        s.kind = flipcheck_kind_amax;
        s.nan = std::uint32_t(T::declared);
        s.run = &amax_entry<T>;
    } else if constexpr (block_scale_subject<T>) {  // before mx scale: it names an element too
        s.kind = flipcheck_kind_block_scale;
        s.format_id |= std::uint32_t(registry::format_id<typename T::element>) << 8;
        s.nan = std::uint32_t(T::declared);
        s.run = &block_scale_entry<T>;
    } else if constexpr (quantizer_subject<T>) {
        s.kind = flipcheck_kind_quantizer;
        s.format_id |= std::uint32_t(registry::format_id<typename T::element>) << 8;
        s.policy = std::uint32_t(quantize_policy(T::declared).round) | std::uint32_t(quantize_policy(T::declared).saturate) << 8;
        s.run = &quantizer_entry<T>;
    } else if constexpr (scaled_quantizer_subject<T>) {
        constexpr scaled_policy p = T::declared;
        s.kind = flipcheck_kind_scaled_quantizer;
        s.format_id |= std::uint32_t(registry::format_id<typename T::element>) << 8;
        s.policy = std::uint32_t(p.quantize.round) | std::uint32_t(p.quantize.saturate) << 8 | std::uint32_t(p.op) << 16 |
                   std::uint32_t(p.via) << 24;
        s.run = &scaled_quantizer_entry<T>;
    } else if constexpr (canonical_key_subject<T>) {
        s.kind = flipcheck_kind_canonical_key;
        s.policy = key_policy<T>();
        s.run = &canonical_key_entry<T>;
    } else if constexpr (mx_scale_subject<T> || mx_scale_value_subject<T>) {
        static_assert(recipe_id<T>() != ~0u, "a plug-in's scale declares one of all_recipes (ocp_floor, rceil, rceil_eps)");
        s.policy = recipe_id<T>();
        if constexpr (mx_scale_subject<T>) {
            s.kind = flipcheck_kind_mx_scale;
            s.run = &mx_scale_entry<T>;
        } else {
            s.kind = flipcheck_kind_scale_value;
            s.run = &scale_value_entry<T>;
        }
    } else if constexpr (tensor_scale_subject<T>) {
        s.kind = flipcheck_kind_tensor_scale;
        if constexpr (requires { T::max_value; }) s.policy = bit_cast<std::uint32_t>(float(T::max_value));
        s.run = &tensor_scale_entry<T>;
    } else if constexpr (decode_subject<T>) {
        s.kind = flipcheck_kind_decode;
        s.run = &decode_entry<T>;
    } else if constexpr (nvfp4_scale_subject<T>) {
        s.kind = flipcheck_kind_nvfp4_scale;
        s.run = &nvfp4_scale_entry<T>;
    } else {
        static_assert(reducer_function<T> || arg_reducer_function<T> || packed::pair_reducer_function<T> ||
                          atomic::atomic_strategy<T> || atomic::arg_atomic_strategy<T> || atomic::lane_atomic_strategy<T>,
                      "FLIPCHECK_EXPORT_SUBJECTS takes mappings, atomic strategies (value, arg or lane), reducer "
                      "functions, reducers of packed pairs, the scaling path's shapes, quantizers (scaled or not) and "
                      "canonical keys (check/scaling.hpp)");
        constexpr bool stepped = atomic::atomic_strategy<T> || atomic::arg_atomic_strategy<T> || atomic::lane_atomic_strategy<T>;
        s.kind = packed::pair_reducer_function<T>    ? flipcheck_kind_pair_reducer  // before reducers: it is one too
                 : atomic::lane_atomic_strategy<T>  ? flipcheck_kind_lane_atomic
                 : atomic::arg_atomic_strategy<T>   ? flipcheck_kind_arg_atomic
                 : atomic::atomic_strategy<T>       ? flipcheck_kind_atomic
                 : arg_reducer_function<T>          ? flipcheck_kind_arg_reducer
                                                    : flipcheck_kind_reducer;
        s.op = std::uint32_t(T::op);
        s.nan = std::uint32_t(T::declared.nan);
        s.zero = std::uint32_t(T::declared.zero);
        s.ties = std::uint32_t(T::declared.ties);
        if constexpr (packed::pair_reducer_function<T>) s.run = &pair_entry<T>;
        else s.run = &run_entry<T>;
        if constexpr (stepped) s.run_steps = &run_steps_entry<T>;
        if constexpr (atomic::lane_atomic_strategy<T>) {
            s.run_lanes = &run_lanes_entry<T>;
            s.shared_word_bits = std::uint32_t(8 * sizeof(typename T::shared_word));
        }
    }
    return s;
}

template <class... T>
const flipcheck_plugin_v2* table() {
    static const flipcheck_subject_v2 subjects[] = {subject<T>()...};
    static const flipcheck_plugin_v2 plugin{FLIPCHECK_PLUGIN_ABI_VERSION, std::uint32_t(sizeof...(T)), subjects};
    return &plugin;
}

}  // namespace flipcheck::plugin

#define FLIPCHECK_EXPORT_SUBJECTS(...)                                                                  \
    extern "C" __attribute__((visibility("default"))) const flipcheck_plugin_v2* flipcheck_plugin(void) { \
        return ::flipcheck::plugin::table<__VA_ARGS__>();                                               \
    }                                                                                                   \
    static_assert(true)
