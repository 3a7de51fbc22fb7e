// Moved to flipcheck/check/describe.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/describe.hpp"
