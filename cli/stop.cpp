#include "stop.hpp"

#include <unistd.h>

#include <csignal>

#include "exit_code.hpp"
#include "flipcheck/run/child_groups.hpp"

namespace flipcheck::cli {

std::atomic<bool> stop{false};
std::atomic<int> stop_signal{0};

namespace {

unsigned grace = 0;
std::atomic<bool> armed{false};

void say(const char* text) {
    std::size_t n = 0;
    while (text[n]) ++n;
    (void)!::write(STDERR_FILENO, text, n);
}

extern "C" void on_stop_signal(int sig) {
    stop_signal = sig;
    stop = true;
    run::kill_child_groups();
    if (grace > 0 && !armed.exchange(true)) ::alarm(grace);
}

extern "C" void on_grace_over(int) {
    say(stop_signal == SIGTERM ? "flipcheck: stopped by SIGTERM: what was printed above is what was done; the rest was not run\n"
                               : "flipcheck: stopped by SIGINT: what was printed above is what was done; the rest was not run\n");
    run::kill_child_groups();  // any started since
    ::_exit(exit_for_stop());
}

}  // namespace

void install_stop_handlers(unsigned grace_seconds) {
    grace = grace_seconds;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking wait in the parent of an isolated subject wakes up
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    struct sigaction over {};
    over.sa_handler = on_grace_over;
    sigemptyset(&over.sa_mask);
    sigaction(SIGALRM, &over, nullptr);
}

int exit_for_stop() { return stop_signal == SIGTERM ? exit_terminated : exit_interrupted; }

}  // namespace flipcheck::cli
