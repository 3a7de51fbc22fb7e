// Moved to flipcheck/check/reducers.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/reducers.hpp"
