// Moved to flipcheck/catalog/scaling_mutants.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/catalog/scaling_mutants.hpp"
