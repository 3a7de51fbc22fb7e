// Moved to flipcheck/audit/p3008.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/audit/p3008.hpp"
