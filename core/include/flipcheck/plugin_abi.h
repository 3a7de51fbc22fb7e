// Moved to flipcheck/plugin/abi.h (docs/architecture.md, "Layout"); this path keeps
// existing includes working.
#pragma once
#include "flipcheck/plugin/abi.h"
