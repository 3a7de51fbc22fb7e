#include "reductions.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <tuple>
#include <optional>
#include <random>
#include <span>

#include <fmt/format.h>

#include "flipcheck/atomic.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/p3008.hpp"
#include "render.hpp"
#if FLIPCHECK_HAVE_GPU
#include "reduce.hpp"
#endif

namespace flipcheck::cli {
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

std::string policy_text(policy p, bool arg) {
    return fmt::format("nan={} zero={}{}", to_string(p.nan), to_string(p.zero), arg ? fmt::format(" ties={}", to_string(p.ties)) : "");
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
                row.failure = fmt::format("{} {} under {}: expected {}, got {} on {}", what, to_string(op), policy_text(p, false),
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
                row.failure = fmt::format("{} arg{} under {}: expected {}, got {} on {}", what, to_string(op), policy_text(p, true),
                                          c->expected_empty ? "none" : std::to_string(c->expected),
                                          c->actual_empty ? "none" : std::to_string(c->actual), array_text<F>(xs[i]));
        }
    }
};

constexpr reduce_op ops[] = {reduce_op::max, reduce_op::min};

// ---- the CPU: core's update code, one atomic step at a time, in a shuffled order -----------------
template <class Strategy, class S>
S replay(std::vector<S> xs, S init, std::mt19937_64& rng) {
    std::shuffle(xs.begin(), xs.end(), rng);
    atomic::sequential_word<S> w{init};
    for (S x : xs) Strategy::update(w, x);
    return w.value;
}

template <format F, class Strategy>
std::vector<std::optional<typename F::storage>> replay_all(const arrays_t<F>& xs, std::uint64_t seed) {
    using S = typename F::storage;
    std::mt19937_64 rng(seed);
    std::vector<std::optional<S>> out;
    for (const auto& a : xs) {
        S init = a[0];  // P3008's operations start from the first element; the others from init()
        if constexpr (requires { Strategy::init(); }) init = S(Strategy::init());
        const S word = replay<Strategy>(a, init, rng);
        if constexpr (requires { Strategy::result(word); }) out.push_back(S(Strategy::result(word)));
        else out.push_back(word);
    }
    return out;
}

template <format F, p3008::kind K>
struct p3008_update {
    template <class Word>
    static void update(Word& w, typename F::storage x) { p3008::fetch<F, K>::apply(w, x); }
};

template <format F>
void cpu_rows(std::size_t randoms, std::vector<reduction_row>& rows) {
    using M = sign_flip_branchless<F>;
    const auto xs = inputs<F>(randoms);
    oracle_answers<F> answers{xs};
    auto row = [&](std::string name) -> reduction_row& {
        rows.push_back({std::move(name), std::string(F::name), "cpu", 0, {}});
        return rows.back();
    };
    {
        judge<F> j{row("atomic::mapped"), answers};
        auto run = [&]<nan_policy P, reduce_op Op>() {
            using St = atomic::mapped<M, P, Op>;
            j.value("mapped", St::declared, Op, xs, replay_all<F, St>(xs, 1));
        };
        run.template operator()<nan_policy::total_order, reduce_op::max>();
        run.template operator()<nan_policy::total_order, reduce_op::min>();
        run.template operator()<nan_policy::propagate, reduce_op::max>();
        run.template operator()<nan_policy::propagate, reduce_op::min>();
        run.template operator()<nan_policy::ignore, reduce_op::max>();
        run.template operator()<nan_policy::ignore, reduce_op::min>();
    }
    if constexpr (F::width >= 32) {
        judge<F> j{row("atomic::signbit_dispatch"), answers};
        using Mx = atomic::signbit_dispatch<F, reduce_op::max>;
        using Mn = atomic::signbit_dispatch<F, reduce_op::min>;
        j.value("seed004_signbit", Mx::declared, reduce_op::max, xs, replay_all<F, Mx>(xs, 2));
        j.value("seed004_signbit", Mn::declared, reduce_op::min, xs, replay_all<F, Mn>(xs, 2));
    }
    {
        judge<F> j{row("atomic::cas_loop"), answers};
        using Mx = atomic::cas_loop<F, reduce_op::max>;
        using Mn = atomic::cas_loop<F, reduce_op::min>;
        j.value("cas_fmax", Mx::declared, reduce_op::max, xs, replay_all<F, Mx>(xs, 3));
        j.value("cas_fmax", Mn::declared, reduce_op::min, xs, replay_all<F, Mn>(xs, 3));
    }
    {
        judge<F> j{row("p3008::fetch_*"), answers};
        auto run = [&]<p3008::kind K>() {
            j.value(p3008::to_string(K), p3008::declared(K), p3008::op_of(K), xs, replay_all<F, p3008_update<F, K>>(xs, 4));
        };
        run.template operator()<p3008::kind::max>();
        run.template operator()<p3008::kind::min>();
        run.template operator()<p3008::kind::fmaximum>();
        run.template operator()<p3008::kind::fminimum>();
        run.template operator()<p3008::kind::fmaximum_num>();
        run.template operator()<p3008::kind::fminimum_num>();
    }
    if constexpr (F::width <= 32) {
        judge<F> j{row("atomic::packed_arg"), answers};
        auto run = [&]<reduce_op Op>() {
            using St = atomic::packed_arg<M, Op>;
            std::mt19937_64 rng(5);
            std::vector<std::optional<std::size_t>> got;
            for (const auto& a : xs) {
                std::vector<std::uint32_t> order(a.size());
                for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
                std::shuffle(order.begin(), order.end(), rng);
                atomic::sequential_word<std::uint64_t> w{St::init()};
                for (std::uint32_t i : order) St::update(w, a[i], i);
                got.push_back(St::index(w.value));
            }
            j.index("packed_arg", St::declared, Op, xs, got);
        };
        run.template operator()<reduce_op::max>();
        run.template operator()<reduce_op::min>();
    }
}

#if FLIPCHECK_HAVE_GPU
// ---- the GPU: gpu/reduce.hpp's kernels, each (subject, operation, policy) one launch ------------
template <format F>
void gpu_rows(std::size_t randoms, std::vector<reduction_row>& rows) {
    const auto xs = inputs<F>(randoms);
    oracle_answers<F> answers{xs};
    const gpu::launch_shape shape{8, 256};
    constexpr format_id id = format_id_of<F>();
    for (std::size_t k = 0; k < gpu::value_subject_names.size(); ++k) {
        const auto s = gpu::value_subject(k);
        if (s == gpu::value_subject::seed004_ge0 || !gpu::supports(s, id)) continue;  // the mutant is in `mutants`
        rows.push_back({std::string(gpu::value_subject_names[k]), std::string(F::name), "gpu", 0, {}});
        judge<F> j{rows.back(), answers};
        for (reduce_op op : ops)
            for (const policy& p : gpu::policies_to_check(s, op))
                j.value(gpu::value_subject_names[k], p, op, xs, gpu::reduce<F>(s, p, op, xs, shape));
    }
    for (auto s : {gpu::arg_subject::packed_atomic, gpu::arg_subject::two_level, gpu::arg_subject::seed002_fixed}) {
        if (!gpu::supports(s, id, reduce_op::max)) continue;
        rows.push_back({std::string(gpu::arg_subject_names[std::size_t(s)]), std::string(F::name), "gpu", 0, {}});
        judge<F> j{rows.back(), answers};
        for (reduce_op op : ops) {
            if (!gpu::supports(s, id, op)) continue;
            for (const policy& p : gpu::policies_to_check(s))
                j.index(gpu::arg_subject_names[std::size_t(s)], p, op, xs, gpu::arg_reduce<F>(s, p, op, xs, shape));
        }
    }
}
#endif

}  // namespace

std::vector<reduction_row> verify_reductions(backend b, std::size_t randoms) {
    std::vector<reduction_row> rows;
#if FLIPCHECK_HAVE_GPU
    if (b == backend::gpu) {
        // One thread per format: asking the oracle is host work that overlaps the launches.
        std::vector<reduction_row> parts[4];
        {
            std::vector<std::future<void>> done;
            done.push_back(std::async(std::launch::async, [&] { gpu_rows<binary16>(randoms, parts[0]); }));
            done.push_back(std::async(std::launch::async, [&] { gpu_rows<bfloat16>(randoms, parts[1]); }));
            done.push_back(std::async(std::launch::async, [&] { gpu_rows<binary32>(randoms, parts[2]); }));
            done.push_back(std::async(std::launch::async, [&] { gpu_rows<binary64>(randoms, parts[3]); }));
            for (auto& d : done) d.get();  // rethrows a device_error from any of them
        }
        for (auto& part : parts) rows.insert(rows.end(), part.begin(), part.end());
        return rows;
    }
#endif
    (void)b;
    cpu_rows<binary16>(randoms, rows);
    cpu_rows<bfloat16>(randoms, rows);
    cpu_rows<binary32>(randoms, rows);
    cpu_rows<binary64>(randoms, rows);
    return rows;
}

nlohmann::json to_json(const reduction_row& r) {
    return {{"reducer", r.subject}, {"format", r.format}, {"device", r.device}, {"checks", r.checks},
            {"verdict", r.passed() ? "pass" : "FAIL"}, {"counterexample", r.failure}};
}

}  // namespace flipcheck::cli
