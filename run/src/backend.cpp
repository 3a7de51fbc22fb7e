#include "flipcheck/run/backend.hpp"

#include "flipcheck/run/gpu_backend.hpp"

namespace flipcheck::run {

double gpu_start_up() { return gpu_backend::start_up(); }
bool gpu_available() { return gpu_backend::available(); }

}  // namespace flipcheck::run
