// The GPU target (built only with CUDA): the bytes become a NaN policy, an operation, a form and
// an array, which runs through a binary32 value subject of gpu/reduce.hpp (launch shape from the bytes too); the answer must be what the
// oracle accepts under that subject's declared policy. Without a device it says SKIPPED and
// checks nothing (ctest then reports the replay as skipped, not passed).
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "flipcheck/law.hpp"
#include "fuzz_input.hpp"
#include "reduce.hpp"
#include "sweep.hpp"

namespace fc = flipcheck;
namespace fg = flipcheck::gpu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // No device: SKIPPED (ctest's skip expression). A broken one, or none under
    // FLIPCHECK_REQUIRE_GPU=1, throws device_error out of here: the replay fails.
    static const std::string skip = fg::skip_reason();
    if (!skip.empty()) {
        static bool said = false;
        if (!said) std::printf("SKIPPED: %s\n", skip.c_str()), said = true;
        return 0;
    }
    fc::fuzz::input in(data, size);
    const unsigned how = in.byte(), form_byte = in.byte();
    const fc::nan_policy np = fc::nan_policy(how % 3);  // total_order, propagate, ignore
    const fc::reduce_op op = (how >> 2) & 1 ? fc::reduce_op::max : fc::reduce_op::min;
    const auto subject = fg::value_subject(form_byte % fg::value_subject_names.size());
    if (subject == fg::value_subject::seed004_ge0) return 0;  // a mutant: the oracle must reject it
    std::vector<std::uint32_t> xs;
    while (in.left() && xs.size() < 4096) xs.push_back(in.bits<std::uint32_t>());
    if (xs.empty()) return 0;
    const fc::policy declared = fg::declared(subject, op, {np, fc::zero_policy::ordered, fc::tie_policy::any});
    const fg::launch_shape shape{1 + how % 8, 32u * (1 + (how >> 3) % 8)};
    const std::optional<std::uint32_t> got = fg::reduce<fc::binary32>(subject, declared, op, {xs}, shape)[0];
    if (auto c = fc::reducer_laws<fc::binary32>::agreement(declared, op, xs, got)) {
        std::fprintf(stderr, "GPU %s %s under nan=%s on %zu elements: expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n",
                     std::string(fg::value_subject_names[std::size_t(subject)]).c_str(), std::string(fc::to_string(op)).c_str(),
                     std::string(fc::to_string(declared.nan)).c_str(), xs.size(), c->expected, c->actual);
        fc::fuzz::fail("GPU subject disagrees with the oracle");
    }
    return 0;
}
