// Moved to flipcheck/plugin/export.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/plugin/export.hpp"
