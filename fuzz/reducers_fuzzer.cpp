// Differential reducers: the bytes become a format (byte 0: a format id of registry::formats; ids
// are stable, an unknown one makes the input ignored), a policy, an operation, an array, and seeds
// for an order and a partition. Every keyed fold of the registry (registry::folds: core/reducer.hpp's
// sequential, pairwise tree, random permutation, simulated interleaving of per-thread atomics, and
// the arg reductions) must agree with the oracle under the policy; a different order or partition
// must not change that.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "flipcheck/law.hpp"
#include "flipcheck/reducer.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;

namespace {

template <class F>
void judge(std::string_view reducer, fc::policy p, fc::reduce_op op, const std::vector<typename F::storage>& xs,
           const std::optional<fc::counterexample>& c) {
    if (!c) return;
    std::fprintf(stderr, "%s %.*s %s under %s on %zu elements:", std::string(F::name).c_str(), int(reducer.size()),
                 reducer.data(), std::string(fc::to_string(op)).c_str(), fc::to_string(p).c_str(), xs.size());
    for (auto x : xs) std::fprintf(stderr, " 0x%" PRIx64, std::uint64_t(x));
    std::fprintf(stderr, "\n  expected %s0x%" PRIx64 ", got %s0x%" PRIx64 "\n", c->expected_empty ? "(none) " : "",
                 c->expected, c->actual_empty ? "(none) " : "", c->actual);
    fc::fuzz::fail("reducer disagrees with the oracle");
}

template <class F>
void run(fc::fuzz::input& in) {
    namespace reg = fc::registry;
    using S = typename F::storage;
    using M = fc::key_mapping<F>;
    using L = fc::reducer_laws<F>;
    const unsigned how = in.byte();
    const fc::policy p{fc::nan_policy(how % 4), fc::zero_policy((how >> 2) % 2), fc::tie_policy((how >> 3) % 3)};
    const fc::reduce_op op = (how >> 5) & 1 ? fc::reduce_op::max : fc::reduce_op::min;
    const std::uint64_t seed = in.bits<std::uint64_t>();
    const unsigned threads = 1 + in.byte() % 8;
    const std::size_t n = in.byte() % 65;  // 0 included: n = 0 must have no result
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    // Every keyed fold of the registry (sequential, pairwise tree, permuted, simulated atomics, arg).
    reg::for_each<reg::folds>([&]<class E>() {
        const auto r = E::template on<M>::run(p, op, xs, seed, threads);
        if constexpr (E::arg) judge<F>(E::name, p, op, xs, L::arg_agreement(p, op, xs, r));
        else judge<F>(E::name, p, op, xs, L::agreement(p, op, xs, r));
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace reg = fc::registry;
    fc::fuzz::input in(data, size);
    reg::with_id<reg::formats>(in.byte(), [&]<class E>() { run<typename E::type>(in); });
    return 0;
}
