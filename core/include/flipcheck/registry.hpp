// Moved to flipcheck/catalog/registry.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/catalog/registry.hpp"
