// Moved to flipcheck/check/reducers.hpp (reducers and atomic strategies) and
// flipcheck/check/mappings.hpp (mappings) (docs/architecture.md, "Layers"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/reducers.hpp"
