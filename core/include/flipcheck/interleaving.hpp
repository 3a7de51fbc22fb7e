// Moved to flipcheck/check/interleaving.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/interleaving.hpp"
