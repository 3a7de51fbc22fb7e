// Moved to flipcheck/check/equal_mappings.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/equal_mappings.hpp"
