#include "stop.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "exit_code.hpp"
#include "flipcheck/run/child_groups.hpp"

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

stop_watchdog::stop_watchdog(double grace_seconds)
    : thread_([grace_seconds](std::stop_token done) {
          using namespace std::chrono_literals;
          while (!done.stop_requested() && !stop.load()) std::this_thread::sleep_for(20ms);
          if (done.stop_requested()) return;
          run::kill_child_groups();
          const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_seconds);
          while (!done.stop_requested() && std::chrono::steady_clock::now() < until) {
              run::kill_child_groups();  // and any started since
              std::this_thread::sleep_for(20ms);
          }
          if (done.stop_requested()) return;
          // What the command printed is kept (unless its own thread holds standard output now).
          if (::ftrylockfile(stdout) == 0) {
              std::fflush(stdout);
              ::funlockfile(stdout);
          }
          char line[200];
          const int n = std::snprintf(line, sizeof line,
                                      "flipcheck: stopped by %s: what was printed above is what was done; the rest was not run\n",
                                      stop_signal == SIGTERM ? "SIGTERM" : "SIGINT");
          if (n > 0) (void)!::write(STDERR_FILENO, line, std::size_t(n));
          ::_exit(exit_for_stop());
      }) {}

}  // namespace flipcheck::cli
