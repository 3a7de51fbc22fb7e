// Moved to flipcheck/audit/intrinsics.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/audit/intrinsics.hpp"
