// Ctrl-C (SIGINT) and SIGTERM: the handler records the signal; long work polls `stop` and ends at
// its next step, prints what it checked, saves a checkpoint where there is one, and the command
// exits with exit_for_stop() (130 or 143, exit_code.hpp).
//
// The handler is also the backstop every command runs under. It ends at once every command
// flipcheck started (run/child_groups.hpp: an audit's adapters, a served adapter), so that no
// process outlives flipcheck and no wait on one lasts, and it arms an alarm: a command that has not
// ended on its own path `grace_seconds` later is ended with the stop's exit code, saying so on
// stderr. Without it, a command waiting on something that does not poll `stop` (an audit's adapter,
// which std::system made flipcheck ignore SIGINT for) ran on. It is all done in the handlers, with
// async-signal-safe calls (kill, alarm, write, _exit): no thread of its own, since a thread alive
// across the forks of isolated.hpp can leave its child a lock it holds.
#pragma once
#include <atomic>

namespace flipcheck::cli {

extern std::atomic<bool> stop;  // set by either signal; what sweep_options::stop points at
extern std::atomic<int> stop_signal;

void install_stop_handlers(unsigned grace_seconds);
int exit_for_stop();

}  // namespace flipcheck::cli
