// Where a run's work goes: the CPU, or a CUDA device through gpu_backend.hpp.
#pragma once
#include <future>

namespace flipcheck::run {

enum class backend { cpu, gpu };

bool gpu_available();  // a CUDA device answers, in a build with GPU code
double gpu_start_up();  // seconds to create the CUDA context (call only with a GPU)

// Whether a CUDA device may be present, asked without starting the driver (gpu_available() costs
// the driver's start, about 0.1 s where one is installed): a build with GPU code on a machine with
// NVIDIA's device node (or WSL's). A hint for scheduling work around the driver's start, never for
// a verdict: false where there is no driver to start, true promises nothing.
bool gpu_may_be_present();

// A backend that may still be being chosen: where a GPU may be present the main job starts its
// host work while the driver starts (0.2-0.25 s of the GPU main job), and work that needs the
// backend waits for it. known(b) is one chosen already.
using pending_backend = std::shared_future<backend>;
pending_backend known(backend b);
bool known_cpu(const pending_backend& b);  // chosen, and the CPU

}  // namespace flipcheck::run
