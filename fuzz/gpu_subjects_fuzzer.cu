// The GPU target (built only with CUDA): the bytes become a NaN policy, an operation, a form and
// an array, which runs through the GPU subjects of gpu/subjects.hpp; the answer must be what the
// oracle accepts under that subject's declared policy. Without a device it says SKIPPED and
// checks nothing (ctest then reports the replay as skipped, not passed).
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "flipcheck/atomic.hpp"
#include "flipcheck/law.hpp"
#include "fuzz_input.hpp"
#include "subjects.hpp"
#include "sweep.hpp"

namespace fc = flipcheck;
namespace fg = flipcheck::gpu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool device = fg::available();
    if (!device) {
        static bool said = false;
        if (!said) std::printf("SKIPPED: no CUDA device\n"), said = true;
        return 0;
    }
    fc::fuzz::input in(data, size);
    const unsigned how = in.byte(), form_byte = in.byte();
    const fc::nan_policy np = fc::nan_policy(how % 3);  // total_order, propagate, ignore
    const fc::reduce_op op = (how >> 2) & 1 ? fc::reduce_op::max : fc::reduce_op::min;
    const auto form = fg::atomic_form(form_byte % 4);
    std::vector<std::uint32_t> xs;
    while (in.left() && xs.size() < 4096) xs.push_back(in.bits<std::uint32_t>());
    if (xs.empty()) return 0;
    fc::policy declared{np, fc::zero_policy::ordered, fc::tie_policy::any};
    if (form == fg::atomic_form::per_element_signbit) declared = fc::atomic::signbit_dispatch<fc::binary32, fc::reduce_op::max>::declared;
    if (form == fg::atomic_form::per_element_cas) declared = fc::atomic::cas_loop<fc::binary32, fc::reduce_op::max>::declared;
    const std::uint32_t got = fg::atomic_reduce(form, np, op, xs, 1 + how % 8);
    if (auto c = fc::reducer_laws<fc::binary32>::agreement(declared, op, xs, got)) {
        std::fprintf(stderr, "GPU form %u %s under nan=%s on %zu elements: expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n",
                     form_byte % 4, std::string(fc::to_string(op)).c_str(), std::string(fc::to_string(declared.nan)).c_str(),
                     xs.size(), c->expected, c->actual);
        fc::fuzz::fail("GPU subject disagrees with the oracle");
    }
    return 0;
}
