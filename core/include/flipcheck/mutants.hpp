// Moved to flipcheck/catalog/mutants.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/catalog/mutants.hpp"
