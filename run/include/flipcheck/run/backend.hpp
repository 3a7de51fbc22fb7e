// Where a run's work goes: the CPU, or a CUDA device through gpu_backend.hpp.
#pragma once

namespace flipcheck::run {

enum class backend { cpu, gpu };

bool gpu_available();  // a CUDA device answers, in a build with GPU code
double gpu_start_up();  // seconds to create the CUDA context (call only with a GPU)

}  // namespace flipcheck::run
