// Moved to flipcheck/check/exhaustive.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/exhaustive.hpp"
