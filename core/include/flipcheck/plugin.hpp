// Moved to flipcheck/plugin/load.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/plugin/load.hpp"
