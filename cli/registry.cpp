#include "registry.hpp"

#include <algorithm>

#include "flipcheck/mutants.hpp"
#include "flipcheck/sampled.hpp"
#if FLIPCHECK_HAVE_GPU
#include "sweep.hpp"  // gpu/sweep.hpp: the CUDA launcher, callable from host code
#endif

namespace flipcheck::cli {
namespace {

template <class M>
sweep_report run_sweep(const sweep_options& o, backend b) {
    using F = typename M::format;
#if FLIPCHECK_HAVE_GPU
    if (b == backend::gpu) return gpu::sweep<M>(o);
#else
    if (b == backend::gpu) throw input_error("this build has no GPU support (configure with FLIPCHECK_ENABLE_CUDA=ON)");
#endif
    // binary64 has 2^64 keys: without an explicit range it gets the sampled sweep.
    if constexpr (F::width == 64) {
        if (!o.range) return sampled_sweep<M>(o);
    }
    return sweep<M>(o);
}

template <class M>
std::vector<std::string> run_cross_check([[maybe_unused]] const sweep_options& o) {
#if FLIPCHECK_HAVE_GPU
    return gpu::cross_check<M>(o);
#else
    throw input_error("--cross-check needs a build with GPU support (FLIPCHECK_ENABLE_CUDA=ON)");
#endif
}

template <template <class> class M>
void add_all_formats(std::vector<subject>& out, bool builtin, std::string_view what) {
    auto add = [&]<class F>() {
        out.push_back({std::string(F::name), std::string(M<F>::name), builtin, std::string(what), &run_sweep<M<F>>,
                       &run_cross_check<M<F>>});
    };
    add.template operator()<binary16>();
    add.template operator()<bfloat16>();
    add.template operator()<binary32>();
    add.template operator()<binary64>();
}

std::vector<subject> make_subjects() {
    std::vector<subject> s;
    add_all_formats<sign_flip>(s, true, "seed 000's branchy map: set the MSB of positives, invert negatives");
    add_all_formats<sign_flip_branchless>(s, true, "seed 000's mask routine = Herf's FloatFlip = CUB TwiddleIn");
    add_all_formats<signed_key>(s, true, "Rust total_cmp's signed key, through its unsigned view");
    add_all_formats<mutants::sign_bit_only>(s, false, "MUTANT: flips only the sign bit (negatives sort backwards)");
    add_all_formats<mutants::no_invert_negatives>(s, false, "MUTANT: sets the MSB of positives, forgets to invert negatives");
    add_all_formats<mutants::wrong_inverse_branch>(s, false, "MUTANT: the inverse tests the MSB after flipping it");
    add_all_formats<mutants::zeros_swapped>(s, false, "MUTANT: -0 and +0 trade keys (Triton/sphexa bug class)");
    add_all_formats<mutants::wrong_at_neg_denorm_min>(s, false, "MUTANT: wrong at the single pattern -denorm_min");
    add_all_formats<mutants::signed_key_as_unsigned>(s, false, "MUTANT: Rust's signed key compared as unsigned");
    s.push_back({"binary32", "wrong_at_pi", false, "MUTANT: wrong at pi alone (only the exhaustive sweep finds it)",
                 &run_sweep<mutants::swapped_pi<binary32>>, &run_cross_check<mutants::swapped_pi<binary32>>});
    return s;
}

}  // namespace

const std::vector<subject>& subjects() {
    static const std::vector<subject> all = make_subjects();
    return all;
}

const subject* find_subject(std::string_view format, std::string_view mapping) {
    for (const auto& s : subjects())
        if (s.format == format && s.mapping == mapping) return &s;
    return nullptr;
}

std::vector<std::string> format_names() { return {"binary16", "bfloat16", "binary32", "binary64"}; }

std::vector<std::string> mapping_names(bool builtin_only) {
    std::vector<std::string> names;
    for (const auto& s : subjects())
        if ((s.builtin || !builtin_only) && std::find(names.begin(), names.end(), s.mapping) == names.end())
            names.push_back(s.mapping);
    return names;
}

double gpu_start_up() {
#if FLIPCHECK_HAVE_GPU
    return gpu::start_up();
#else
    return 0;
#endif
}

bool gpu_available() {
#if FLIPCHECK_HAVE_GPU
    return gpu::available();
#else
    return false;
#endif
}

}  // namespace flipcheck::cli
