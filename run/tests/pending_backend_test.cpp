// A backend still being chosen (backend.hpp's pending_backend): the main job starts its host work
// while the driver starts, and what needs the backend waits for it. Whatever the choice's timing,
// the checks and their rows are those of a backend known from the start, and a choice that failed
// is an error, never a quiet fall back to the CPU.
#include <gtest/gtest.h>

#include <future>
#include <stdexcept>

#include "flipcheck/error.hpp"
#include "flipcheck/run/backend.hpp"
#include "flipcheck/run/reductions.hpp"

namespace run = flipcheck::run;

namespace {

void expect_same_rows(const std::vector<run::reduction_row>& a, const std::vector<run::reduction_row>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE("row " + std::to_string(i) + ": " + a[i].reducer + " " + a[i].format);
        EXPECT_EQ(a[i].reducer, b[i].reducer);
        EXPECT_EQ(a[i].format, b[i].format);
        EXPECT_EQ(a[i].device, b[i].device);
        EXPECT_EQ(a[i].checks, b[i].checks);
        EXPECT_EQ(a[i].failure, b[i].failure);
    }
}

}  // namespace

TEST(pending_backend, known_cpu_only_once_chosen_as_the_cpu) {
    EXPECT_TRUE(run::known_cpu(run::known(run::backend::cpu)));
    EXPECT_FALSE(run::known_cpu(run::known(run::backend::gpu)));
    std::promise<run::backend> choosing;
    const run::pending_backend pending = choosing.get_future().share();
    EXPECT_FALSE(run::known_cpu(pending));
    choosing.set_exception(std::make_exception_ptr(flipcheck::input_error("--device gpu: no CUDA device is present")));
    EXPECT_FALSE(run::known_cpu(pending));  // a failed choice is no choice; whoever waits hears why
}

// The reducers' checks started while the backend is being chosen, the choice then the CPU (as when
// a driver is installed but no device answers): the same rows, in the same order, as with the CPU
// known from the start. The host's checks (keyed folds, byte arrays) ran from the start; each
// format's reducers waited for the choice.
// (A deferred future is a choice still being made for as long as no one waits on it, whatever the
// threads' timing: the first check that needs the backend makes it.)
TEST(pending_backend, reducers_started_before_the_choice_give_the_cpus_rows) {
    const auto from_start = run::verify_reductions(run::known(run::backend::cpu), 8);
    const run::pending_backend pending = std::async(std::launch::deferred, [] { return run::backend::cpu; }).share();
    ASSERT_FALSE(run::known_cpu(pending));
    const auto late = run::verify_reductions(pending, 8);
    EXPECT_GT(from_start.size(), 100u);
    expect_same_rows(late, from_start);
    for (const auto& r : late) EXPECT_TRUE(r.passed()) << r.reducer << " " << r.format << ": " << r.failure;
}

// No backend could be chosen (`--device gpu` with no device): the checks that waited for it end
// with the choice's error.
TEST(pending_backend, a_failed_choice_is_the_checks_error) {
    const run::pending_backend pending = std::async(std::launch::deferred, []() -> run::backend {
        throw flipcheck::input_error("--device gpu: no CUDA device is present");
    }).share();
    EXPECT_THROW(run::verify_reductions(pending, 8), flipcheck::input_error);
}
