// Moved to flipcheck/catalog/subjects/seed002.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/catalog/subjects/seed002.hpp"
