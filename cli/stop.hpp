// Ctrl-C (SIGINT) and SIGTERM: the handler only records the signal; long work polls `stop` and
// ends at its next step, prints what it checked, saves a checkpoint where there is one, and the
// command exits with exit_for_stop() (130 or 143, exit_code.hpp).
#pragma once
#include <atomic>

namespace flipcheck::cli {

extern std::atomic<bool> stop;  // set by either signal; what sweep_options::stop points at
extern std::atomic<int> stop_signal;

void install_stop_handlers();
int exit_for_stop();

}  // namespace flipcheck::cli
