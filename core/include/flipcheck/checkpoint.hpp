// Moved to flipcheck/check/checkpoint.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/checkpoint.hpp"
