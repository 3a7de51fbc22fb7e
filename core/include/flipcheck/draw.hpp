// Moved to flipcheck/check/draw.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/draw.hpp"
