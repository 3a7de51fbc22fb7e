// Moved to flipcheck/check/report.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/report.hpp"
