// Moved to flipcheck/audit/sort.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/audit/sort.hpp"
