// Ctrl-C (SIGINT) and SIGTERM: the handler only records the signal; long work polls `stop` and
// ends at its next step, prints what it checked, saves a checkpoint where there is one, and the
// command exits with exit_for_stop() (130 or 143, exit_code.hpp).
#pragma once
#include <atomic>
#include <thread>

namespace flipcheck::cli {

extern std::atomic<bool> stop;  // set by either signal; what sweep_options::stop points at
extern std::atomic<int> stop_signal;

void install_stop_handlers();
int exit_for_stop();

// The backstop every command runs under: once a stop is recorded it ends at once every command
// flipcheck started (run/child_groups.hpp: an audit's adapters, a served adapter), so no process
// outlives flipcheck and no wait on one lasts; it then gives the command `grace` seconds to print
// what it did and exit on its own path, and past that ends the process itself with the stop's exit
// code, saying so on stderr. Without it a command that waits on something that does not poll
// `stop` (an audit's adapter, a FIFO) ignored the signal. It only sleeps and reads an atomic until
// then, so a fork (isolated.hpp) never copies a lock it holds.
class stop_watchdog {
public:
    explicit stop_watchdog(double grace_seconds);
    stop_watchdog(const stop_watchdog&) = delete;
    stop_watchdog& operator=(const stop_watchdog&) = delete;

private:
    std::jthread thread_;
};

}  // namespace flipcheck::cli
