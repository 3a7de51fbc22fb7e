// Differential reducers: the bytes become a format, a policy, an operation, an array, and seeds for
// an order and a partition. Every CPU reducer of core/reducer.hpp (sequential, pairwise tree, a
// random permutation, a simulated interleaving of per-thread atomics, and the arg reductions) must
// agree with the oracle under the policy; a different order or partition must not change that.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "flipcheck/law.hpp"
#include "flipcheck/reducer.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;

namespace {

template <class F>
void judge(const char* reducer, fc::policy p, fc::reduce_op op, const std::vector<typename F::storage>& xs,
           const std::optional<fc::counterexample>& c) {
    if (!c) return;
    std::fprintf(stderr, "%s %s %s under nan=%s zero=%s ties=%s on %zu elements:", std::string(F::name).c_str(), reducer,
                 std::string(fc::to_string(op)).c_str(), std::string(fc::to_string(p.nan)).c_str(),
                 std::string(fc::to_string(p.zero)).c_str(), std::string(fc::to_string(p.ties)).c_str(), xs.size());
    for (auto x : xs) std::fprintf(stderr, " 0x%" PRIx64, std::uint64_t(x));
    std::fprintf(stderr, "\n  expected %s0x%" PRIx64 ", got %s0x%" PRIx64 "\n", c->expected_empty ? "(none) " : "",
                 c->expected, c->actual_empty ? "(none) " : "", c->actual);
    fc::fuzz::fail("reducer disagrees with the oracle");
}

template <class F>
void run(fc::fuzz::input& in) {
    using S = typename F::storage;
    using R = fc::keyed_reducer<fc::sign_flip_branchless<F>>;
    using L = fc::reducer_laws<F>;
    const unsigned how = in.byte();
    const fc::policy p{fc::nan_policy(how % 4), fc::zero_policy((how >> 2) % 2), fc::tie_policy((how >> 3) % 3)};
    const fc::reduce_op op = (how >> 5) & 1 ? fc::reduce_op::max : fc::reduce_op::min;
    const std::uint64_t seed = in.bits<std::uint64_t>();
    const unsigned threads = 1 + in.byte() % 8;
    const std::size_t n = in.byte() % 65;  // 0 included: n = 0 must have no result
    std::vector<S> xs(n);
    for (auto& x : xs) x = in.bits<S>();
    judge<F>("sequential", p, op, xs, L::agreement(p, op, xs, R::sequential(p, op, xs)));
    judge<F>("pairwise_tree", p, op, xs, L::agreement(p, op, xs, R::pairwise_tree(p, op, xs)));
    judge<F>("permuted", p, op, xs, L::agreement(p, op, xs, R::permuted(p, op, xs, seed)));
    judge<F>("simulated_atomic", p, op, xs, L::agreement(p, op, xs, R::simulated_atomic(p, op, xs, seed, threads)));
    judge<F>("arg_sequential", p, op, xs, L::arg_agreement(p, op, xs, R::arg_sequential(p, op, xs)));
    judge<F>("arg_simulated_atomic", p, op, xs, L::arg_agreement(p, op, xs, R::arg_simulated_atomic(p, op, xs, seed, threads)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fc::fuzz::input in(data, size);
    switch (in.byte() % 4) {
        case 0: run<fc::binary32>(in); break;
        case 1: run<fc::binary16>(in); break;
        case 2: run<fc::bfloat16>(in); break;
        default: run<fc::binary64>(in); break;
    }
    return 0;
}
