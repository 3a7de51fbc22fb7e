// The GPU target (built only with CUDA): every GPU reducer of flipcheck/gpu/reduce.hpp, value and
// arg (the GPU's own kernels and every reducer of the registry), on every format. The bytes:
//   0   format id (registry::formats)
//   1   reducer id (a GPU reducer's stable id, as reduce.hpp and the registry give them)
//   2   the policy asked for: NaN = bits 0-1 (total_order, propagate, ignore, undefined), zero =
//       bit 2 (ordered, equal), ties = bits 3-4 (lowest_index, highest_index, any; 3 is any too)
//   3   the operation: bit 0 set is max, clear is min
//   4   the launch shape: blocks = 1 + bits 0-2, threads = 32 x (1 + bits 3-7)
//   5-  one array of the format's raw bit patterns, little-endian, at most 4096 of them
// An unknown format or reducer id, a mutant (the oracle must reject it: the mutant zoo's job), or
// a format or operation the reducer does not exist for: the input is ignored. Otherwise the
// answer must be what the oracle accepts under the policy the reducer declares for that request.
// Without a device it says SKIPPED and checks nothing (ctest then reports the replay as skipped,
// not passed).
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "flipcheck/gpu/device.hpp"
#include "flipcheck/gpu/reduce.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "fuzz_input.hpp"

namespace fc = flipcheck;
namespace fg = flipcheck::gpu;

namespace {

constexpr std::size_t max_elements = 4096;

std::string show(fc::policy p) { return fc::to_string(p); }

template <bool Arg>
[[noreturn]] void disagree(fg::reducer<Arg> r, std::string_view format, fc::policy p, fc::reduce_op op, fg::launch_shape shape,
                           std::size_t n, const fc::counterexample& c) {
    auto answer = [](bool empty, std::uint64_t v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, Arg ? "%" PRIu64 : "0x%" PRIx64, v);
        return empty ? std::string("none") : std::string(buf);
    };
    std::fprintf(stderr, "GPU %s %s on %s under %s, %ux%u threads, %zu elements: expected %s, got %s\n",
                 std::string(r.name()).c_str(), std::string(fc::to_string(op)).c_str(), std::string(format).c_str(),
                 show(p).c_str(), shape.blocks, shape.threads, n, answer(c.expected_empty, c.expected).c_str(),
                 answer(c.actual_empty, c.actual).c_str());
    fc::fuzz::fail("GPU reducer disagrees with the oracle");
}

template <fc::format F>
void check(std::uint8_t reducer_id, fc::policy asked, fc::reduce_op op, fg::launch_shape shape, fc::fuzz::input& in) {
    using S = typename F::storage;
    std::vector<S> xs;
    while (in.left() && xs.size() < max_elements) xs.push_back(in.bits<S>());
    if (xs.empty()) return;
    if (const auto r = fg::value_reducer::with_id(reducer_id)) {
        if (r->mutant() || !r->template supports<F>(op)) return;
        const fc::policy p = r->declared(op, asked);
        const std::optional<S> got = fg::reduce<F>(*r, p, op, {xs}, shape)[0];
        if (const auto c = fc::reducer_laws<F>::agreement(p, op, xs, got)) disagree(*r, F::name, p, op, shape, xs.size(), *c);
    } else if (const auto a = fg::arg_reducer::with_id(reducer_id)) {
        if (a->mutant() || !a->template supports<F>(op)) return;
        const fc::policy p = a->declared(op, asked);
        const std::optional<std::size_t> got = fg::arg_reduce<F>(*a, p, op, {xs}, shape)[0];
        if (const auto c = fc::reducer_laws<F>::arg_agreement(p, op, xs, got)) disagree(*a, F::name, p, op, shape, xs.size(), *c);
    }
}

}  // namespace

namespace {
// No device: SKIPPED (ctest's skip expression). A broken one, or none under
// FLIPCHECK_REQUIRE_GPU=1, throws device_error out of here: the replay fails.
const std::string& skip() {
    static const std::string reason = fg::skip_reason();
    return reason;
}
}  // namespace

// replay_main.cpp asks, so that a replay that checked nothing does not say it replayed.
extern "C" bool flipcheck_fuzz_skipped() { return !skip().empty(); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!skip().empty()) {
        static bool said = false;
        if (!said) std::printf("SKIPPED: %s\n", skip().c_str()), said = true;
        return 0;
    }
    fc::fuzz::input in(data, size);
    const std::uint8_t format_id = in.byte(), reducer_id = in.byte(), how = in.byte(), op_byte = in.byte(),
                       shape_byte = in.byte();
    const fc::policy asked{fc::nan_policy(how & 3), fc::zero_policy((how >> 2) & 1),
                           fc::tie_policy(((how >> 3) & 3) == 3 ? 2 : (how >> 3) & 3)};
    const fc::reduce_op op = op_byte & 1 ? fc::reduce_op::max : fc::reduce_op::min;
    const fg::launch_shape shape{1u + (shape_byte & 7u), 32u * (1u + (shape_byte >> 3))};
    fc::registry::with_id<fc::registry::formats>(
        format_id, [&]<class E>() { check<typename E::type>(reducer_id, asked, op, shape, in); });
    return 0;
}
