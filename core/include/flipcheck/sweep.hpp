// Moved to flipcheck/check/sweep.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/sweep.hpp"
