// How reliably the plug-in checks kill the zoo: every reducer and atomic mutant (registry
// reducer_mutants, each on every format and operation it exists on; array_mutants), through the
// public plug-in path (check/reducers.hpp's subjects), per seed:
//   battery   the edge battery alone (seed-independent: it kills a mutant in 100 of 100 or 0);
//   random    check/reducers.hpp's random_arrays stage alone, default settings, seeds 1..N;
//   rc        the RapidCheck stage of flipcheck/rapidcheck.hpp alone (100 cases), seeds 1..N;
//   plug-in   the stages in the order the macros run them: battery, then RapidCheck.
// A mutant counts as killed in a seed when any of its instances fails. Prints a Markdown table.
// Usage: kill_rate_bench [--seeds N] (default 100)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "flipcheck/check/reducers.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/rapidcheck.hpp"
#include "run_quietly.hpp"  // rapidcheck/harness/: a property run with a chosen seed, quietly

namespace fc = flipcheck;

namespace {

struct row {
    std::string name, kind;
    int battery = 0, random = 0, rc = 0, plugin = 0, instances = 0;
};

template <fc::format F>
void count(row& r, const std::vector<fc::reducer_subject<F>>& subjects, int seeds, std::vector<bool>& rc_kill,
           std::vector<bool>& random_kill, bool& battery_kill) {
    for (const auto& s : subjects) {
        fc::check_options b;
        b.stages.push_back(fc::check_stage::edge_battery);  // (assigning a braced list trips GCC 12's -Wnonnull at -O3)
        battery_kill = battery_kill || !fc::check(s, b).passed();
        for (int seed = 1; seed <= seeds; ++seed) {
            if (!random_kill[seed - 1]) {
                fc::check_options o;
                o.seed = std::uint64_t(seed);
                o.stages.push_back(fc::check_stage::random_arrays);
                random_kill[seed - 1] = !fc::check(s, o).passed();
            }
            if (!rc_kill[seed - 1]) {
                const auto result = fc::props::run_quietly([&s] { fc::rapidcheck::random_case(s, "bench"); }, std::uint64_t(seed));
                rc_kill[seed - 1] = result.template is<rc::detail::FailureResult>();
            }
        }
    }
    (void)r;
}

template <class R>
fc::reducer_subject<typename R::format> subject(std::string_view name) {
    return fc::subject_of<R>(name);
}

}  // namespace

int main(int argc, char** argv) {
    int seeds = 100;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--seeds") == 0 && i + 1 < argc) seeds = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--seeds N]\n", argv[0]);
            return 2;
        }
    }
    if (seeds < 1) return 2;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<row> rows;
    auto finish = [&](row r, bool battery, const std::vector<bool>& random, const std::vector<bool>& rc) {
        r.battery = battery ? seeds : 0;
        for (int i = 0; i < seeds; ++i) {
            r.random += random[i];
            r.rc += rc[i];
            r.plugin += battery || rc[i];
        }
        rows.push_back(r);
    };
    namespace reg = fc::registry;
    reg::for_each<reg::reducer_mutants>([&]<class E>() {
        row r{std::string(E::name), E::arg ? "atomic arg" : "atomic value"};
        std::vector<bool> random(seeds), rc(seeds);
        bool battery = false;
        reg::for_each<typename E::formats>([&]<class FE>() {
            using F = typename FE::type;
            std::vector<fc::reducer_subject<F>> s{subject<typename E::template on<F, fc::reduce_op::max>>(E::name),
                                                  subject<typename E::template on<F, fc::reduce_op::min>>(E::name)};
            r.instances += 2;
            count<F>(r, s, seeds, rc, random, battery);
        });
        finish(r, battery, random, rc);
    });
    reg::for_each<reg::array_mutants>([&]<class E>() {
        using F = typename E::type::format;
        row r{std::string(E::name), E::arg ? "arg function" : "value function"};
        std::vector<bool> random(seeds), rc(seeds);
        bool battery = false;
        r.instances = 1;
        count<F>(r, {subject<typename E::type>(E::name)}, seeds, rc, random, battery);
        finish(r, battery, random, rc);
    });
    std::printf("| mutant | shape | instances | edge battery | random arrays | RapidCheck | battery then RapidCheck |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
    bool all = true;
    for (const row& r : rows) {
        std::printf("| %s | %s | %d | %d/%d | %d/%d | %d/%d | %d/%d |\n", r.name.c_str(), r.kind.c_str(), r.instances, r.battery,
                    seeds, r.random, seeds, r.rc, seeds, r.plugin, seeds);
        all = all && r.plugin == seeds;
    }
    std::printf("\n%zu mutants, %d seeds, %.1f s\n", rows.size(), seeds,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return all ? 0 : 1;
}
