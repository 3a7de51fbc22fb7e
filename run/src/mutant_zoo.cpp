#include "flipcheck/run/mutant_zoo.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/shrink.hpp"
#include "flipcheck/edge_values.hpp"
#include "flipcheck/check/exhaustive.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/run/gpu_backend.hpp"
#include "flipcheck/run/describe.hpp"
#include "flipcheck/run/scaling.hpp"

namespace flipcheck::run {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

struct failure {
    std::string law, detail;
};

// ---- mapping mutants: random keys, then the exhaustive sweep, then the GPU ----------------------

// Where a correct mapping puts pattern b: a mutant's failure is often at its neighbours' keys.
template <class S>
S good_key(S b) {
    if constexpr (sizeof(S) == 4) return key_mapping<binary32>::encode(b);
    else return b;
}

template <class M>
kill_report kill_mapping(backend b, std::optional<law_id> prefer = std::nullopt) {
    using F = typename M::format;
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    auto found = [&](const char* driver, std::uint64_t cases, S key) {
        const law_set f = mapping_laws<M>::failures(key);
        int l = 0;
        while (!(f & law_bit(law_id(l)))) ++l;
        sweep_report r;
        r.format = F::name;
        r.mapping = M::name;
        const counterexample c = mapping_laws<M>::explain(law_id(l), key);
        const described d = describe(r.format, c.bits);
        return kill_report{true, std::string(law_names[l]), driver, since(t0), cases,
                           fmt::format("key {} ({} = {})", describe(r.format, key).hex, d.hex, d.value)};
    };
    // The minimal counterexample: a failing key among the edge values (patterns and their keys) if
    // one fails, else the key that was found.
    auto simplest = [](S key) {
        for (S e : edge_values<F>())
            for (S k : {e, M::encode(e), good_key(e)})
                if (mapping_laws<M>::failures(k)) return k;
        return key;
    };
    // A byte format's 256 keys are fewer than the random draws: it goes straight to the sweep,
    // and the counterexample shown is the smallest one of the law its registry line names.
    constexpr std::uint64_t draws = F::width > 8 ? 200000 : 0;
    if constexpr (F::width <= 8) {
        if (prefer) {
            sweep_options o;
            o.laws = law_bit(*prefer);
            o.limit = 1;
            const sweep_report r = sweep<M>(o);
            if (!r.counterexamples.empty()) {
                const counterexample& c = r.counterexamples[0];
                const described d = describe(std::string(F::name), c.bits);
                return kill_report{true, std::string(to_string(*prefer)), "exhaustive", since(t0), r.keys_checked,
                                   fmt::format("key {} ({} = {})", describe(std::string(F::name), c.key).hex, d.hex, d.value)};
            }
        }
    }
    std::mt19937_64 rng(1);
    for (std::uint64_t i = 0; i < draws; ++i) {
        const S bits = random_bits<F>(rng);
        for (S key : {bits, M::encode(bits)})
            if (mapping_laws<M>::failures(key)) return found("random", i + 1, simplest(key));
    }
    sweep_options o;
    o.limit = 1;
    sweep_report r = sweep<M>(o);
    if (!r.counterexamples.empty()) return found("exhaustive", draws + r.keys_checked, S(r.counterexamples[0].key));
    if (b == backend::gpu && F::width > 8) {
        r = find_sweep_entry(F::name, M::name)->run(o, backend::gpu);
        if (!r.counterexamples.empty()) return found("gpu", r.keys_checked, S(r.counterexamples[0].key));
    }
    return kill_report{false, "", "", since(t0), draws + r.keys_checked, ""};
}

// ---- array subjects: random arrays (shrunk on failure), then every pair and triple of edges ------

template <format F>
using array_check = std::function<std::optional<failure>(const std::vector<typename F::storage>&)>;

template <format F>
std::string show_array(const std::vector<typename F::storage>& xs) {
    if (xs.size() > 12) return fmt::format("[{} elements]", xs.size());
    std::string s = "[";
    for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + describe(std::string(F::name), xs[i]).value;
    return s + "]";
}

// The zoo's table is read by people: an element is made +0, 1 or -1 (each only into one listed
// before it, so the search cannot go round), not the smallest pattern that still fails.
template <format F>
std::vector<typename F::storage> readable(typename F::storage x) {
    using S = typename F::storage;
    std::vector<S> out;
    for (S r : {F::zero, F::one, S(F::one | F::sign_mask)}) {
        if (r == x) break;
        out.push_back(r);
    }
    return out;
}

struct array_driver {
    int random_cases = 4000;
    std::size_t large = 0;  // when nonzero, some cases have this many elements (plus a little)
};

template <format F>
kill_report kill_array(const array_check<F>& check, array_driver d) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    auto killed = [&](const char* driver, std::uint64_t cases, std::vector<S> xs) {
        xs = shrink_toward(shrink_case<S>{std::move(xs), {}}, [&](const shrink_case<S>& y) { return check(y.xs).has_value(); },
                              readable<F>)
                 .xs;
        const failure f = *check(xs);
        return kill_report{true, f.law, driver, since(t0), cases, fmt::format("{}: {}", show_array<F>(xs), f.detail)};
    };
    std::mt19937_64 rng(2);
    const std::vector<S> edges = edge_values<F>();
    for (int i = 0; i < d.random_cases; ++i) {
        std::size_t n = 1 + rng() % 40;
        if (d.large && rng() % 20 == 0) n = d.large + rng() % 64;
        // A third of the arrays draw from three values only, so ties and repeats are common.
        const bool few = rng() % 3 == 0;
        const S pool[3] = {random_bits<F>(rng), random_bits<F>(rng), random_bits<F>(rng)};
        std::vector<S> xs(n);
        for (auto& x : xs) x = few ? pool[rng() % 3] : random_bits<F>(rng);
        if (check(xs)) return killed("random", std::uint64_t(i) + 1, xs);
    }
    std::uint64_t cases = std::uint64_t(d.random_cases);
    for (S a : edges)
        for (S b : edges) {
            ++cases;
            if (check({a, b})) return killed("exhaustive", cases, {a, b});
            for (S c : edges) {
                ++cases;
                if (check({a, b, c})) return killed("exhaustive", cases, {a, b, c});
            }
        }
    return kill_report{false, "", "", since(t0), cases, ""};
}

template <format F>
std::string show_bits(typename F::storage b) {
    const described d = describe(std::string(F::name), b);
    return fmt::format("{} ({})", d.value, d.hex);
}

template <format F>
std::optional<failure> judge_value(policy p, reduce_op op, const std::vector<typename F::storage>& xs,
                                   std::optional<typename F::storage> got) {
    const auto c = reducer_laws<F>::agreement(p, op, xs, got);
    if (!c) return std::nullopt;
    return failure{"reducer_agreement", fmt::format("{} expected {}, got {}", to_string(op),
                                                    c->expected_empty ? "nothing" : show_bits<F>(typename F::storage(c->expected)),
                                                    c->actual_empty ? "nothing" : show_bits<F>(typename F::storage(c->actual)))};
}

template <format F>
std::optional<failure> judge_index(policy p, reduce_op op, const std::vector<typename F::storage>& xs, std::optional<std::size_t> got) {
    const auto c = reducer_laws<F>::arg_agreement(p, op, xs, got);
    if (!c) return std::nullopt;
    return failure{"arg_reducer_agreement",
                   fmt::format("arg{} expected index {}, got {} (policy {})", to_string(op),
                               c->expected_empty ? std::string("none") : std::to_string(c->expected),
                               c->actual_empty ? std::string("none") : std::to_string(c->actual), to_string(p))};
}

std::vector<std::size_t> in_order(std::size_t n) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    return order;
}

// A reducer's answer on xs judged against the oracle under the policy it declares.
template <class R, class Answer>
std::optional<failure> judge_answer(const std::vector<typename R::format::storage>& xs, const Answer& got) {
    using F = typename R::format;
    if constexpr (std::is_same_v<Answer, std::optional<std::size_t>>) return judge_index<F>(R::declared, R::op, xs, got);
    else return judge_value<F>(R::declared, R::op, xs, got);
}

// A registered atomic reducer family on binary32, replayed in array order on a CPU word: max
// first, then min (a mutant is killed by either).
template <class E>
kill_report kill_reducer(backend) {
    using F = binary32;
    using S = typename F::storage;
    auto run = [&]<reduce_op Op>() {
        using R = typename E::template on<F, Op>;
        return kill_array<F>(
            [](const std::vector<S>& xs) { return judge_answer<R>(xs, atomic::replay<R>(std::span<const S>(xs), in_order(xs.size()))); },
            {});
    };
    kill_report r = run.template operator()<reduce_op::max>();
    if (r.killed) return r;
    kill_report m = run.template operator()<reduce_op::min>();
    m.cases += r.cases;
    m.seconds += r.seconds;
    return m;
}

// A registered whole-array reducer (the seeds' emulations, std::max folds).
template <class R>
kill_report kill_array_reducer(backend) {
    using F = typename R::format;
    using S = typename F::storage;
    array_driver d;
    if constexpr (requires { R::large_input; }) d = {2000, R::large_input};
    return kill_array<F>(
        [](const std::vector<S>& xs) {
            if constexpr (arg_reducer_function<R>) return judge_answer<R>(xs, R::arg_reduce(std::span<const S>(xs)));
            else return judge_answer<R>(xs, R::reduce(std::span<const S>(xs)));
        },
        d);
}

// Where the check tells laws apart (a quantizer's four, a scale value's power of two) the law
// named is one that failed: the expected one if it did, else the first that did.
kill_report scaling_kill(const scaling_report& r, law_id law, double seconds) {
    for (int l = 0; r.failed && !(r.failed & law_bit(law)) && l < int(law_names.size()); ++l)
        if (r.failed & law_bit(law_id(l))) law = law_id(l);
    return kill_report{!r.passed(), r.passed() ? "" : std::string(to_string(law)), r.exhaustive ? "exhaustive" : "sampled", seconds,
                       r.checks, r.counterexample.value_or("")};
}
template <class I>
kill_report kill_scaling() {
    const auto t0 = clock_type::now();
    scaling_options o;
    o.every_triple = true;
    const scaling_report r = check_scaling<typename I::type>(o);
    return scaling_kill(r, I::entry::killed_by, since(t0));
}

// The scaling mutants' GPU twins (gpu/amax.cuh), run once together, each a row of its own.
kill_report kill_scaling_gpu(std::size_t i) {
    static const std::vector<scaling_row> rows = verify_scaling(known(backend::gpu), true);
    std::size_t gpu_row = 0;
    for (const auto& r : rows)
        if (r.device == "gpu" && gpu_row++ == i)
            return scaling_kill(r.report, r.report.shape == "mx scale" ? law_id::scale_agreement : law_id::reducer_agreement, r.seconds);
    return kill_report{false, "", "", 0, 0, "no such GPU row"};
}

// Seed 003's YAMR on the device, with its race: arrays of up to 1024 threads, one block.
kill_report kill_yamr_gpu(bool volatile_shared) {
    return kill_array<binary32>(
        [volatile_shared](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            if (xs.size() > 1024) return std::nullopt;
            return judge_value<binary32>(policy{nan_policy::undefined}, reduce_op::max, xs, gpu_backend::yamr(xs, volatile_shared));
        },
        {500, 0});
}

// The seeds' kernels on the device through flipcheck/gpu/reduce.hpp (seed 002 as the article
// writes it, seed 004's `val >= 0` predecessor): the same claims as their CPU emulations, judged on
// real runs.
kill_report kill_gpu_seed002(std::string_view name) {
    return kill_array<binary32>(
        [name](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            const policy p = gpu_backend::declared(name, reduce_op::max);
            return judge_index<binary32>(p, reduce_op::max, xs,
                                         gpu_backend::arg_reduce<std::uint32_t>(registry::format_id<binary32>, name, p, reduce_op::max, {xs})[0]);
        },
        {200, 0});
}
kill_report kill_gpu_seed004_ge0() {
    return kill_array<binary32>(
        [](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            const policy p = gpu_backend::declared("seed004_ge0", reduce_op::min);
            return judge_value<binary32>(p, reduce_op::min, xs,
                                         gpu_backend::reduce<std::uint32_t>(registry::format_id<binary32>, "seed004_ge0", p, reduce_op::min, {xs})[0]);
        },
        {200, 0});
}

// A packed-pair reducer: every pair of bytes, then every triple, lane by lane against the oracle.
template <class E>
kill_report kill_pair_reducer(backend) {
    const auto t0 = clock_type::now();
    std::uint64_t cases = 0;
    for (int length : {2, 3})
        for (reduce_op op : {reduce_op::max, reduce_op::min}) {
            const exhaustive_row r = check_pair_reducer<E>(op, length);
            cases += r.arrays;
            if (!r.passed())
                return kill_report{true, std::string(to_string(law_id::reducer_agreement)), "exhaustive", since(t0), cases,
                                   r.op + ": " + r.counterexample};
        }
    return kill_report{false, "", "", since(t0), cases, ""};
}

std::vector<mutant> make_zoo() {
    std::vector<mutant> zoo;
    // Every CPU mutant comes from the registry, on binary32 (where every one of them exists).
    auto add = [&](const registry::about& a, std::function<kill_report(backend)> kill) {
        zoo.push_back({std::string(a.name), std::string(registry::to_string(a.what)), std::string(a.origin),
                       std::string(a.description), false, std::move(kill)});
    };
    registry::for_each<registry::mapping_mutants>(
        [&]<class E>() { add(E::info, [](backend b) { return kill_mapping<typename E::template on<binary32>>(b); }); });
    registry::for_each<registry::reducer_mutants>([&]<class E>() { add(E::info, &kill_reducer<E>); });
    registry::for_each<registry::array_mutants>([&]<class E>() { add(E::info, &kill_array_reducer<typename E::type>); });
    // The low-precision formats' mutants, on each format their bug needs.
    registry::for_each<registry::instances<registry::low_precision_mapping_mutants>>([&]<class I>() {
        add(I::entry::info, [](backend b) { return kill_mapping<typename I::type>(b, I::entry::killed_by); });
        zoo.back().name += fmt::format(" ({})", I::format::name);
    });
    registry::for_each<registry::pair_reducer_mutants>([&]<class E>() { add(E::info, &kill_pair_reducer<E>); });
    // The scaling path's and the canonical keys' mutants, on each format their bug needs:
    // check/scaling.hpp's check kills them.
    registry::for_each<registry::concat<registry::scaling_mutant_instances, registry::key_mutant_instances>>([&]<class I>() {
        add(I::entry::info, [](backend) { return kill_scaling<I>(); });
        zoo.back().name += fmt::format(" ({})", I::format::name);
    });
    // The GPU's own mutants, listed where this build has GPU code (run where a device answers).
    if (!gpu_backend::built()) return zoo;
    const std::vector<mutant> gpu_only = {
        {"yamr_gpu", "max (GPU)", "seed 003's YAMR kernel, as written", "no atomics, a sentinel: run on the device", true, [](backend) { return kill_yamr_gpu(false); }},
        {"yamr_volatile_gpu", "max (GPU)", "seed 003's YAMR with volatile shared memory", "volatile fixes no race", true, [](backend) { return kill_yamr_gpu(true); }},
        {"seed002_walkthrough_gpu", "argmax (GPU)", "seed 002's kernels as written", "lowest() then FLT_MIN, grid = SM count", true, [](backend) { return kill_gpu_seed002("seed002_walkthrough"); }},
        {"seed002_full_code_gpu", "argmax (GPU)", "seed 002's full code on the device", "-lowest() = +FLT_MAX in both kernels", true, [](backend) { return kill_gpu_seed002("seed002_full_code"); }},
        {"seed004_ge0_gpu", "atomic min (GPU)", "seed 004's `val >= 0` predecessor on the device", "-0 takes the signed atomicMin branch", true, [](backend) { return kill_gpu_seed004_ge0(); }},
        {"ge0_split_amax_gpu", "amax (GPU)", "pytorch#119320", "atomicMax(int*) / atomicMin(unsigned*) split on v >= 0", true, [](backend) { return kill_scaling_gpu(0); }},
        {"unguarded_unsigned_amax_gpu", "amax (GPU)", "an assert(value >= 0) compiled out", "atomicMax(unsigned*) on the bits of `v < 0 ? -v : v`", true, [](backend) { return kill_scaling_gpu(1); }},
        {"fmaxf_block_amax_gpu", "amax (GPU)", "a block fold before a key atomic", "fmaxf through shared memory, then atomicMax on the key", true, [](backend) { return kill_scaling_gpu(2); }},
        {"bf16x2_hmax_amax_gpu", "amax (GPU)", "TransformerEngine#3550", "__hmax2(acc, __habs2(x)) over bf16x2, across a block", true, [](backend) { return kill_scaling_gpu(3); }},
        {"bf16x2_hmax_pairs_gpu", "amax (GPU)", "TransformerEngine#3550", "the same __hmax2 step on every pair of bf16 patterns (2^32)", true, [](backend) { return kill_scaling_gpu(4); }},
        {"e8m0_from_exponent_field_gpu", "mx scale (GPU)", "sglang#25519's class", "the exponent-field scale on every binary32 amax (2^32)", true, [](backend) { return kill_scaling_gpu(5); }},
    };
    zoo.insert(zoo.end(), gpu_only.begin(), gpu_only.end());
    return zoo;
}

}  // namespace

const std::vector<mutant>& mutant_zoo() {
    static const std::vector<mutant> zoo = make_zoo();
    return zoo;
}

}  // namespace flipcheck::run
