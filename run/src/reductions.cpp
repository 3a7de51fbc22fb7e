#include "flipcheck/run/reductions.hpp"

#include "flipcheck/catalog/byte_reducers.hpp"

#include <algorithm>
#include <functional>
#include <future>
#include <map>
#include <thread>
#include <tuple>
#include <optional>
#include <random>
#include <span>

#include <fmt/format.h>

#include "flipcheck/atomic.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/run/every_core.hpp"
#include "flipcheck/run/gpu_backend.hpp"
#include "flipcheck/run/describe.hpp"

namespace flipcheck::run {
namespace {

template <format F>
using arrays_t = std::vector<std::vector<typename F::storage>>;

template <format F>
arrays_t<F> inputs(std::size_t randoms) {
    using S = typename F::storage;
    const auto edges = edge_values<F>();
    arrays_t<F> out;
    for (S a : edges) {
        out.push_back({a});
        for (S b : edges) out.push_back({a, b});
    }
    out.push_back(std::vector<S>(40, S(F::infinity | F::sign_mask)));
    out.push_back({F::quiet_nan, S(F::signaling_nan | F::sign_mask), S(F::quiet_nan | F::sign_mask)});
    out.push_back({F::zero, F::sign_mask, F::zero, F::sign_mask});
    out.push_back({F::sign_mask, F::zero, F::sign_mask, F::zero});
    std::mt19937_64 rng(17);
    for (std::size_t i = 0; i < randoms; ++i) {
        std::vector<S> xs(1 + rng() % 1500);
        for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = k > 0 && rng() % 4 == 0 ? xs[k - 1] : random_bits<F>(rng);
        std::shuffle(xs.begin(), xs.end(), rng);
        out.push_back(std::move(xs));
    }
    return out;
}


template <format F>
std::string array_text(const std::vector<typename F::storage>& xs) {
    std::string s;
    for (std::size_t i = 0; i < xs.size() && i < 8; ++i) s += (i ? ", " : "") + describe(std::string(F::name), xs[i]).hex;
    return fmt::format("n={} [{}{}]", xs.size(), s, xs.size() > 8 ? ", ..." : "");
}

// The oracle's answers for every input, asked once per (policy, operation) and shared by every
// subject checked under it: most subjects claim the same few policies, and asking the oracle is
// most of the time these checks take.
template <format F>
struct oracle_answers {
    using laws = reducer_laws<F>;
    const arrays_t<F>& xs;
    std::map<std::tuple<int, int, int, int>, std::vector<typename laws::expectation>> values{};
    std::map<std::tuple<int, int, int, int>, std::vector<typename laws::arg_expectation>> indices{};

    static std::tuple<int, int, int, int> key(policy p, reduce_op op) { return {int(p.nan), int(p.zero), int(p.ties), int(op)}; }
    const std::vector<typename laws::expectation>& value(policy p, reduce_op op) {
        auto [it, fresh] = values.try_emplace(key(p, op));
        if (fresh)
            for (const auto& a : xs) it->second.push_back(laws::expect(p, op, a));
        return it->second;
    }
    const std::vector<typename laws::arg_expectation>& index(policy p, reduce_op op) {
        auto [it, fresh] = indices.try_emplace(key(p, op));
        if (fresh)
            for (const auto& a : xs) it->second.push_back(laws::expect_arg(p, op, a));
        return it->second;
    }
};

// Judges answers against the oracle and keeps the first failure of the row.
template <format F>
struct judge {
    using S = typename F::storage;
    reduction_row& row;
    oracle_answers<F>& oracle;
    void value(std::string_view what, policy p, reduce_op op, const arrays_t<F>& xs, const std::vector<std::optional<S>>& got) {
        const auto& expected = oracle.value(p, op);
        for (std::size_t i = 0; i < xs.size(); ++i) {
            ++row.checks;
            const auto c = reducer_laws<F>::agreement(p, xs[i], expected[i], got[i]);
            if (c && row.failure.empty())
                row.failure = fmt::format("{} {} under {}: expected {}, got {} on {}", what, to_string(op), to_string(p, false),
                                          c->expected_empty ? "none" : describe(std::string(F::name), c->expected).hex,
                                          c->actual_empty ? "none" : describe(std::string(F::name), c->actual).hex, array_text<F>(xs[i]));
        }
    }
    void index(std::string_view what, policy p, reduce_op op, const arrays_t<F>& xs, const std::vector<std::optional<std::size_t>>& got) {
        const auto& expected = oracle.index(p, op);
        for (std::size_t i = 0; i < xs.size(); ++i) {
            ++row.checks;
            const auto c = reducer_laws<F>::arg_agreement(p, op, xs[i], expected[i], got[i]);
            if (c && row.failure.empty())
                row.failure = fmt::format("{} arg{} under {}: expected {}, got {} on {}", what, to_string(op), to_string(p, true),
                                          c->expected_empty ? "none" : std::to_string(c->expected),
                                          c->actual_empty ? "none" : std::to_string(c->actual), array_text<F>(xs[i]));
        }
    }
};

constexpr reduce_op ops[] = {reduce_op::max, reduce_op::min};

// ---- the CPU: every registered reducer, one atomic step at a time in a shuffled order, and every
// keyed fold of every built-in mapping, under each policy it can be asked for ---------------------
std::vector<std::size_t> shuffled(std::size_t n, std::mt19937_64& rng) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

// Every NaN x zero (x tie) policy a keyed fold can be asked for. nan=undefined uses total_order's
// keys and is judged more leniently, so total_order covers it.
std::vector<policy> fold_policies(bool arg) {
    std::vector<policy> out;
    for (nan_policy n : {nan_policy::total_order, nan_policy::propagate, nan_policy::ignore})
        for (zero_policy z : {zero_policy::ordered, zero_policy::equal}) {
            if (!arg) out.push_back({n, z, tie_policy::any});
            else
                for (tie_policy t : {tie_policy::lowest_index, tie_policy::highest_index, tie_policy::any}) out.push_back({n, z, t});
        }
    return out;
}

template <format F>
reduction_row& new_row(std::vector<reduction_row>& rows, std::string name) {
    rows.push_back({std::move(name), std::string(F::name), "cpu", 0, {}});
    return rows.back();
}

template <format F>
void cpu_rows(std::size_t randoms, std::vector<reduction_row>& rows) {
    using S = typename F::storage;
    const auto xs = inputs<F>(randoms);
    oracle_answers<F> answers{xs};
    auto row = [&](std::string name) -> reduction_row& { return new_row<F>(rows, std::move(name)); };
    registry::for_each<registry::reducers>([&]<class E>() {
        if constexpr (registry::has_format<typename E::formats, F>) {
            judge<F> j{row(std::string(E::name)), answers};
            std::mt19937_64 rng(E::id);
            auto run = [&]<reduce_op Op>() {
                using R = typename E::template on<F, Op>;
                std::vector<std::conditional_t<E::arg, std::optional<std::size_t>, std::optional<S>>> got;
                for (const auto& a : xs) got.push_back(atomic::replay<R>(std::span<const S>(a), shuffled(a.size(), rng)));
                if constexpr (E::arg) j.index(E::name, R::declared, Op, xs, got);
                else j.value(E::name, R::declared, Op, xs, got);
            };
            run.template operator()<reduce_op::max>();
            run.template operator()<reduce_op::min>();
        }
    });
}

// The keyed folds: one row per built-in mapping, every fold shape under every policy. Their inputs
// are the same edge arrays with a tenth of the random ones (folds x policies make many more checks
// than the atomic strategies' one policy each). Host code, on the GPU main job too.
template <format F>
void fold_rows(std::size_t randoms, std::vector<reduction_row>& rows) {
    using S = typename F::storage;
    auto row = [&](std::string name) -> reduction_row& { return new_row<F>(rows, std::move(name)); };
    const auto fold_xs = inputs<F>(randoms / 10);
    oracle_answers<F> fold_answers{fold_xs};
    registry::for_each<registry::mappings>([&]<class ME>() {
        using M = typename ME::template on<F>;
        judge<F> j{row(fmt::format("keyed folds({})", M::name)), fold_answers};
        registry::for_each<registry::folds>([&]<class E>() {
            for (reduce_op op : ops)
                for (const policy& p : fold_policies(E::arg)) {
                    std::vector<std::conditional_t<E::arg, std::optional<std::size_t>, std::optional<S>>> got;
                    for (std::size_t i = 0; i < fold_xs.size(); ++i)
                        got.push_back(E::template on<M>::run(p, op, std::span<const S>(fold_xs[i]), mix64(i), 1 + unsigned(i % 64)));
                    if constexpr (E::arg) j.index(E::name, p, op, fold_xs, got);
                    else j.value(E::name, p, op, fold_xs, got);
                }
        });
    });
}

// ---- the GPU: gpu/reduce.hpp's reducers, each (reducer, operation, policy) one launch ----------
// Every GPU reducer but the mutants (they are in `mutants`): the GPU's own kernels, then every
// reducer of the registry. The oracle's answers come first, for every (policy, operation) the
// reducers are judged under: host work, done while the backend is being chosen (the driver's
// start) rather than between launches, where it held up this thread's next launch. A backend that
// turns out to be the CPU (no device answered) gets the CPU's rows instead.
template <format F>
void gpu_rows(std::size_t randoms, const pending_backend& b, std::vector<reduction_row>& rows) {
    using S = typename F::storage;
    const auto xs = inputs<F>(randoms);
    oracle_answers<F> answers{xs};
    constexpr std::uint8_t id = registry::format_id<F>;
    constexpr unsigned blocks = 8;
    std::vector<gpu_backend::reducer_checks> checked;  // every one but the mutants (`flipcheck mutants` checks those)
    for (auto& r : gpu_backend::reducers(id))
        if (!r.mutant) checked.push_back(std::move(r));
    for (const auto& r : checked)
        for (const auto& [op, policies] : r.ops)
            for (const policy& p : policies) r.arg ? (void)answers.index(p, op) : (void)answers.value(p, op);
    if (b.get() != backend::gpu) return cpu_rows<F>(randoms, rows);
    for (const auto& r : checked) {
        rows.push_back({r.name, std::string(F::name), "gpu", 0, {}});
        judge<F> j{rows.back(), answers};
        for (const auto& [op, policies] : r.ops)
            for (const policy& p : policies) {
                if (r.arg) j.index(r.name, p, op, xs, gpu_backend::arg_reduce<S>(id, r.name, p, op, xs, blocks));
                else j.value(r.name, p, op, xs, gpu_backend::reduce<S>(id, r.name, p, op, xs, blocks));
            }
    }
}

// The byte formats: every empty, single and pair array of codes (exhaustive.hpp), one row per
// (subject, format) summing its policies and ops. Every triple runs in the release test suite.
void byte_rows(std::vector<reduction_row>& rows) {
    auto add = [&](const std::vector<exhaustive_row>& found) {
        for (const auto& e : found) {
            const std::string name = e.subject + " (all arrays n <= 2)";
            auto it = std::find_if(rows.begin(), rows.end(), [&](const reduction_row& r) { return r.reducer == name && r.format == e.format; });
            if (it == rows.end()) {
                rows.push_back({name, e.format, "cpu", 0, {}});
                it = rows.end() - 1;
            }
            it->checks += e.arrays;
            if (!e.passed() && it->failure.empty()) it->failure = e.op + " " + e.policy + ": " + e.counterexample;
        }
    };
    // One task per format (their oracle tables are built one policy at a time), sharing the cores.
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency() / unsigned(registry::low_precision_formats::size));
    std::vector<std::future<std::vector<exhaustive_row>>> per_format;
    registry::for_each<registry::low_precision_formats>([&]<class E>() {
        per_format.push_back(std::async(std::launch::async, [threads] {
            std::vector<exhaustive_row> found;
            for (int length : {0, 1, 2})
                for (auto& r : check_byte_reducers<typename E::type>(length, threads)) found.push_back(std::move(r));
            return found;
        }));
    });
    for (auto& f : per_format) add(f.get());
    registry::for_each<registry::pair_reducers>([&]<class E>() {
        for (reduce_op op : ops)
            for (int length : {0, 1, 2}) add({check_pair_reducer<E>(op, length)});
    });
}

}  // namespace

std::vector<reduction_row> verify_reductions(const pending_backend& b, std::size_t randoms) {
    std::vector<reduction_row> rows;
    if (!known_cpu(b)) {
        // The GPU's, or a backend still being chosen. One thread per format: asking the oracle is
        // host work that overlaps the launches (and the driver's start). The keyed folds and the
        // byte arrays are host code only: each in a thread of its own, from the start.
        std::vector<reduction_row> parts[2 * registry::formats::size], bytes;
        {
            auto byte_part = std::async(std::launch::async, [&bytes] { byte_rows(bytes); });  // host work only
            std::vector<std::future<void>> done;
            registry::for_each<registry::formats>([&]<class E>() {
                auto& launched = parts[done.size()];
                done.push_back(std::async(std::launch::async, [&launched, randoms, b] { gpu_rows<typename E::type>(randoms, b, launched); }));
                auto& folded = parts[done.size()];
                done.push_back(std::async(std::launch::async, [&folded, randoms] { fold_rows<typename E::type>(randoms, folded); }));
            });
            for (auto& d : done) d.get();  // rethrows a device_error from any of them
            byte_part.get();
        }
        for (auto& part : parts) rows.insert(rows.end(), part.begin(), part.end());
        rows.insert(rows.end(), bytes.begin(), bytes.end());
        return rows;
    }
    // Each format's replayed reducers and keyed folds, and the byte formats' arrays: independent
    // host tasks on every core, their rows in this order.
    using part = std::vector<reduction_row>;
    std::vector<std::function<part()>> tasks;
    registry::for_each<registry::formats>([&]<class E>() {
        tasks.push_back([randoms] {
            part p;
            cpu_rows<typename E::type>(randoms, p);
            return p;
        });
        tasks.push_back([randoms] {
            part p;
            fold_rows<typename E::type>(randoms, p);
            return p;
        });
    });
    tasks.push_back([] {
        part p;
        byte_rows(p);
        return p;
    });
    for (auto& p : on_every_core(tasks)) rows.insert(rows.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
    return rows;
}

nlohmann::json to_json(const reduction_row& r) {
    return {{"reducer", r.reducer}, {"format", r.format}, {"device", r.device}, {"checks", r.checks},
            {"verdict", r.passed() ? "pass" : "fail"}, {"counterexample", r.failure}};
}

}  // namespace flipcheck::run
