// Moved to flipcheck/check/sampled.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/sampled.hpp"
