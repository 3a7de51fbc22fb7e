// Moved to flipcheck/catalog/subjects/yamr.hpp (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/catalog/subjects/yamr.hpp"
