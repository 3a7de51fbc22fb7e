#include "flipcheck/run/backend.hpp"

#include <chrono>
#include <filesystem>

#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::run {

double gpu_start_up() { return gpu_backend::start_up(); }
bool gpu_available() { return gpu_backend::available(); }

bool gpu_may_be_present() {
    std::error_code ec;
    return gpu_backend::built() &&
           (std::filesystem::exists("/dev/nvidiactl", ec) || std::filesystem::exists("/dev/dxg", ec));
}

pending_backend known(backend b) {
    std::promise<backend> p;
    p.set_value(b);
    return p.get_future().share();
}

bool known_cpu(const pending_backend& b) {
    if (b.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    try {
        return b.get() == backend::cpu;
    } catch (...) {
        return false;  // the choice failed: whoever waits on it hears why
    }
}

}  // namespace flipcheck::run
