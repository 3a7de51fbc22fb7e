#include "stop.hpp"

#include <csignal>

#include "exit_code.hpp"

namespace flipcheck::cli {

std::atomic<bool> stop{false};
std::atomic<int> stop_signal{0};

namespace {
extern "C" void on_stop_signal(int sig) {
    stop_signal = sig;
    stop = true;
}
}  // namespace

void install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking wait in the parent of an isolated subject wakes up
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int exit_for_stop() { return stop_signal == SIGTERM ? exit_terminated : exit_interrupted; }

}  // namespace flipcheck::cli
