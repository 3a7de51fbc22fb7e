// Independent host tasks on every core: task i's result lands in slot i, so the caller's order is
// kept whichever thread ran it. The main job's CPU checks (the reducers' formats, the scaling
// subjects) are many such tasks of uneven length; threads pull the next one as they finish.
#pragma once
#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace flipcheck::run {

// Runs every task, on at most `threads` threads (0: every hardware thread), and returns their
// results in the tasks' order. A task that throws lets the others finish; the first exception
// thrown is rethrown then.
template <class R>
std::vector<R> on_every_core(const std::vector<std::function<R()>>& tasks, unsigned threads = 0) {
    std::vector<R> out(tasks.size());
    std::atomic<std::size_t> next{0};
    std::mutex mu;
    std::exception_ptr thrown;
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < tasks.size();) {
            try {
                out[i] = tasks[i]();
            } catch (...) {
                std::lock_guard g(mu);
                if (!thrown) thrown = std::current_exception();
            }
        }
    };
    {
        const unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
        std::vector<std::jthread> pool(std::min<std::size_t>(tasks.size(), n));
        for (auto& t : pool) t = std::jthread(work);
    }
    if (thrown) std::rethrow_exception(thrown);
    return out;
}

}  // namespace flipcheck::run
