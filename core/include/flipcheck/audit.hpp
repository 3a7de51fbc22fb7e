// Moved to flipcheck/audit/audit.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/audit/audit.hpp"
