#include "mutants.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "flipcheck/edge_values.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/mutants.hpp"
#include "flipcheck/subjects/seed002.hpp"
#include "flipcheck/subjects/yamr.hpp"
#include "render.hpp"
#if FLIPCHECK_HAVE_GPU
#include "reduce.hpp"
#include "yamr.hpp"  // gpu/yamr.hpp: seed 003 on the device
#endif

namespace flipcheck::cli {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

struct failure {
    std::string law, detail;
};

// ---- mapping mutants: random keys, then the exhaustive sweep, then the GPU ----------------------

// Where a correct mapping puts pattern b: a mutant's failure is often at its neighbours' keys.
template <class S, class F = typename sign_flip_branchless<binary32>::format>
S good_key(S b) {
    if constexpr (sizeof(S) == 4) return sign_flip_branchless<binary32>::encode(b);
    else return b;
}

template <class M>
kill_result kill_mapping(backend b) {
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
        return kill_result{true, std::string(law_names[l]), driver, since(t0), cases,
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
    std::mt19937_64 rng(1);
    constexpr std::uint64_t draws = 200000;
    for (std::uint64_t i = 0; i < draws; ++i) {
        const S bits = random_bits<F>(rng);
        for (S key : {bits, M::encode(bits)})
            if (mapping_laws<M>::failures(key)) return found("random", i + 1, simplest(key));
    }
    sweep_options o;
    o.limit = 1;
    sweep_report r = sweep<M>(o);
    if (!r.counterexamples.empty()) return found("exhaustive", draws + r.keys_checked, S(r.counterexamples[0].key));
    if (b == backend::gpu) {
        r = find_subject(F::name, M::name)->run(o, backend::gpu);
        if (!r.counterexamples.empty()) return found("gpu", r.keys_checked, S(r.counterexamples[0].key));
    }
    return kill_result{false, "", "", since(t0), draws + r.keys_checked, ""};
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

// Greedy shrinking: drop chunks (halves, quarters, ... single elements) while the check still
// fails, then replace elements by simpler values (+0, 1). Bounded in time for huge inputs.
template <format F>
std::vector<typename F::storage> shrink(const array_check<F>& check, std::vector<typename F::storage> xs) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    for (std::size_t chunk = std::max<std::size_t>(1, xs.size() / 2); chunk >= 1 && since(t0) < 3; chunk /= 2) {
        for (std::size_t at = 0; at + chunk <= xs.size() && xs.size() > 1 && since(t0) < 3;) {
            std::vector<S> smaller(xs.begin(), xs.begin() + at);
            smaller.insert(smaller.end(), xs.begin() + at + chunk, xs.end());
            if (!smaller.empty() && check(smaller)) xs = std::move(smaller);
            else at += chunk;
        }
        if (chunk == 1) break;
    }
    for (auto& x : xs)
        for (S simpler : {F::zero, F::one, S(F::one | F::sign_mask)})
            if (x != simpler) {
                const S keep = x;
                x = simpler;
                if (!check(xs)) x = keep;
                else break;
            }
    return xs;
}

struct array_driver {
    int random_cases = 4000;
    std::size_t large = 0;  // when nonzero, some cases have this many elements (plus a little)
};

template <format F>
kill_result kill_array(const array_check<F>& check, array_driver d) {
    using S = typename F::storage;
    const auto t0 = clock_type::now();
    auto killed = [&](const char* driver, std::uint64_t cases, std::vector<S> xs) {
        xs = shrink<F>(check, xs);
        const failure f = *check(xs);
        return kill_result{true, f.law, driver, since(t0), cases, fmt::format("{}: {}", show_array<F>(xs), f.detail)};
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
    return kill_result{false, "", "", since(t0), cases, ""};
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
                   fmt::format("arg{} expected index {}, got {} (policy nan={} ties={})", to_string(op),
                               c->expected_empty ? std::string("none") : std::to_string(c->expected),
                               c->actual_empty ? std::string("none") : std::to_string(c->actual), to_string(p.nan),
                               to_string(p.ties))};
}

// An atomic strategy replayed in array order on a CPU word.
template <class Strategy>
kill_result kill_strategy(backend) {
    using F = typename Strategy::format;
    using S = typename F::storage;
    return kill_array<F>(
        [](const std::vector<S>& xs) -> std::optional<failure> {
            atomic::sequential_word<S> w{Strategy::init()};
            for (S x : xs) Strategy::update(w, x);
            return judge_value<F>(Strategy::declared, Strategy::op, xs, Strategy::result(w.value));
        },
        {});
}

template <class Strategy>
kill_result kill_packed_arg(backend) {
    using F = typename Strategy::format;
    using S = typename F::storage;
    return kill_array<F>(
        [](const std::vector<S>& xs) -> std::optional<failure> {
            atomic::sequential_word<std::uint64_t> w{Strategy::init()};
            for (std::size_t i = 0; i < xs.size(); ++i) Strategy::update(w, xs[i], std::uint32_t(i));
            return judge_index<F>(Strategy::declared, Strategy::op, xs, Strategy::index(w.value));
        },
        {});
}

std::vector<float> as_floats(const std::vector<std::uint32_t>& xs) {
    std::vector<float> v;
    for (auto x : xs) v.push_back(bit_cast<float>(x));
    return v;
}

// Seed 002 claims argmax with the first index on ties; it never considers NaN or signed zeros.
constexpr policy seed002_claim{nan_policy::undefined, zero_policy::equal, tie_policy::lowest_index};

kill_result kill_seed002(subjects::seed002_config c) {
    return kill_array<binary32>(
        [c](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            const auto r = subjects::seed002_argmax(c, as_floats(xs));
            return judge_index<binary32>(seed002_claim, reduce_op::max, xs, std::size_t(r.index));
        },
        {2000, std::size_t(c.blocks) * c.block});
}

kill_result kill_yamr(backend) {
    return kill_array<binary32>(
        [](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            return judge_value<binary32>(policy{nan_policy::undefined}, reduce_op::max, xs,
                                         bit_cast<std::uint32_t>(subjects::yamr_sequential(as_floats(xs))));
        },
        {});
}

// A fold with std::max's `a < b ? b : a` claiming NaN propagation: the answer depends on where
// the NaN sits.
kill_result kill_std_max_fold(backend) {
    return kill_array<binary32>(
        [](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            float acc = bit_cast<float>(xs[0]);
            for (std::size_t i = 1; i < xs.size(); ++i) acc = oracle::std_max(acc, bit_cast<float>(xs[i]));
            return judge_value<binary32>(policy{nan_policy::propagate}, reduce_op::max, xs, bit_cast<std::uint32_t>(acc));
        },
        {});
}

#if FLIPCHECK_HAVE_GPU
// Seed 003's YAMR on the device, with its race: arrays of up to 1024 threads, one block.
kill_result kill_yamr_gpu(bool volatile_shared) {
    return kill_array<binary32>(
        [volatile_shared](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            if (xs.size() > 1024) return std::nullopt;
            return judge_value<binary32>(policy{nan_policy::undefined}, reduce_op::max, xs, gpu::yamr(xs, volatile_shared));
        },
        {500, 0});
}

// The seeds' kernels on the device through gpu/reduce.hpp (seed 002 as the article writes it, seed
// 004's `val >= 0` predecessor): the same claims as their CPU emulations, judged on real runs.
kill_result kill_gpu_seed002(gpu::arg_subject s) {
    return kill_array<binary32>(
        [s](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            const policy p = gpu::declared(s, {});
            return judge_index<binary32>(p, reduce_op::max, xs, gpu::arg_reduce<binary32>(s, p, reduce_op::max, {xs})[0]);
        },
        {200, 0});
}
kill_result kill_gpu_seed004_ge0() {
    return kill_array<binary32>(
        [](const std::vector<std::uint32_t>& xs) -> std::optional<failure> {
            const auto s = gpu::value_subject::seed004_ge0;
            const policy p = gpu::declared(s, reduce_op::min, {});
            return judge_value<binary32>(p, reduce_op::min, xs, gpu::reduce<binary32>(s, p, reduce_op::min, {xs})[0]);
        },
        {200, 0});
}
#endif

std::vector<mutant> make_zoo() {
    using F = binary32;
    using good = sign_flip_branchless<F>;
    using namespace mutants;
    constexpr reduce_op mx = reduce_op::max, mn = reduce_op::min;
    subjects::seed002_config snippet;  // the article's "full code snippet": FLT_LOWEST = -lowest() in both kernels
    snippet.first_init = -std::numeric_limits<float>::lowest();
    snippet.final_init = -std::numeric_limits<float>::lowest();
    subjects::seed002_config first_version;  // the article's walkthrough: FLT_MIN in FindMaxOfMax
    subjects::seed002_config ties_only;      // both initialisers fixed; ties still not by index
    ties_only.final_init = std::numeric_limits<float>::lowest();
    return {
        {"sign_bit_only", "mapping", "a common first attempt", "flips only the sign bit: negatives sort backwards", false, &kill_mapping<sign_bit_only<F>>},
        {"no_invert_negatives", "mapping", "seed 000's snippet without the ~", "sets the MSB of positives, forgets to invert negatives", false, &kill_mapping<no_invert_negatives<F>>},
        {"wrong_inverse_branch", "mapping", "seed 000's inverse, mistyped", "the inverse tests the key's MSB after flipping it", false, &kill_mapping<wrong_inverse_branch<F>>},
        {"zeros_swapped", "mapping", "Triton/sphexa signed-zero bug class", "wrong at exactly -0: it sorts above +0", false, &kill_mapping<zeros_swapped<F>>},
        {"wrong_at_neg_denorm_min", "mapping", "a one-pattern bug", "wrong at exactly 0x80000001", false, &kill_mapping<wrong_at_neg_denorm_min<F>>},
        {"wrong_at_pi", "mapping", "a one-pattern bug off the edges", "wrong at exactly pi (0x40490fdb): only the exhaustive sweep finds it", false, &kill_mapping<swapped_pi<F>>},
        {"signed_key_as_unsigned", "mapping", "Rust total_cmp's key without its unsigned view", "signed keys compared as unsigned", false, &kill_mapping<signed_key_as_unsigned<F>>},
        {"seed004_ge0", "atomic min", "seed 004's `val >= 0` predecessor (Triton/sphexa class)", "-0 takes the signed atomicMin branch", false, &kill_strategy<atomic::signbit_dispatch<F, mn, true>>},
        {"raw_unsigned_atomic", "atomic max", "libcudacxx bug class", "unsigned atomicMax on the raw float bits", false, &kill_strategy<raw_unsigned<F, mx>>},
        {"seed000_no_nan_propagate", "atomic max", "seed 000's snippet, no NaN handling", "keys give total_order but claim propagate", false, &kill_strategy<claims<atomic::mapped<good, nan_policy::total_order, mx>, nan_policy::propagate>>},
        {"seed000_no_nan_ignore", "atomic min", "seed 000's snippet, no NaN handling", "keys give total_order but claim ignore", false, &kill_strategy<claims<atomic::mapped<good, nan_policy::total_order, mn>, nan_policy::ignore>>},
        {"cas_fmax_as_maximum", "atomic max", "fmax mistaken for IEEE maximum", "a CAS loop on fmax claiming NaN propagation", false, &kill_strategy<claims<atomic::cas_loop<F, mx>, nan_policy::propagate>>},
        {"packed_arg_no_inversion", "argmax", "packed 64-bit argmax", "index not inverted: the highest index wins ties", false, &kill_packed_arg<atomic::packed_arg<good, mx, false>>},
        {"seed002_minus_lowest", "argmax", "seed 002's full code snippet", "-lowest() (= +FLT_MAX) as the initial value", false, [snippet](backend) { return kill_seed002(snippet); }},
        {"seed002_flt_min_final", "argmax", "seed 002's FindMaxOfMax", "FLT_MIN in the final pass: wrong for all-negative arrays", false, [first_version](backend) { return kill_seed002(first_version); }},
        {"seed002_ties", "argmax", "seed 002's tie-breaking", "equal values across lanes and strides do not go to the lowest index", false, [ties_only](backend) { return kill_seed002(ties_only); }},
        {"yamr_sentinel", "max", "seed 003's YAMR", "the -3.402e+38 sentinel wins over -FLT_MAX and -inf", false, &kill_yamr},
        {"std_max_fold_propagate", "max", "std::max folds", "`a < b ? b : a` claiming NaN propagation: position-dependent", false, &kill_std_max_fold},
#if FLIPCHECK_HAVE_GPU
        {"yamr_gpu", "max (GPU)", "seed 003's YAMR kernel, as written", "no atomics, a sentinel: run on the device", true, [](backend) { return kill_yamr_gpu(false); }},
        {"yamr_volatile_gpu", "max (GPU)", "seed 003's YAMR with volatile shared memory", "volatile fixes no race", true, [](backend) { return kill_yamr_gpu(true); }},
        {"seed002_walkthrough_gpu", "argmax (GPU)", "seed 002's kernels as written", "lowest() then FLT_MIN, grid = SM count", true, [](backend) { return kill_gpu_seed002(gpu::arg_subject::seed002_walkthrough); }},
        {"seed002_full_code_gpu", "argmax (GPU)", "seed 002's full code on the device", "-lowest() = +FLT_MAX in both kernels", true, [](backend) { return kill_gpu_seed002(gpu::arg_subject::seed002_full_code); }},
        {"seed004_ge0_gpu", "atomic min (GPU)", "seed 004's `val >= 0` predecessor on the device", "-0 takes the signed atomicMin branch", true, [](backend) { return kill_gpu_seed004_ge0(); }},
#endif
    };
}

}  // namespace

const std::vector<mutant>& mutant_zoo() {
    static const std::vector<mutant> zoo = make_zoo();
    return zoo;
}

}  // namespace flipcheck::cli
