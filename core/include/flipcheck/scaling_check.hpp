// Moved to flipcheck/check/scaling.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/scaling.hpp"
