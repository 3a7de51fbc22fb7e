// Every host header of flipcheck::core, for users who want one include, layer by layer
// (docs/architecture.md). Not included: plugin/export.hpp, whose macro writes a plug-in's entry
// point, and plugin/load.hpp, the plug-in loader, which needs dlopen; the RapidCheck macros are
// flipcheck/rapidcheck.hpp, the GPU headers flipcheck/gpu/.
#pragma once
// semantics: formats, mappings, policies, the oracle and the laws
#include "flipcheck/hd.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/minifloat.hpp"
#include "flipcheck/formats.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/random.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/law.hpp"
#include "flipcheck/edge_values.hpp"
// algorithms: reducers, atomics, P3008, amax and scales
#include "flipcheck/reducer.hpp"
#include "flipcheck/atomic.hpp"
#include "flipcheck/p3008.hpp"
#include "flipcheck/packed_reducer.hpp"
#include "flipcheck/amax.hpp"
#include "flipcheck/scale.hpp"
#include "flipcheck/scale_recipe.hpp"
#include "flipcheck/quantize.hpp"
#include "flipcheck/scaled_quantize.hpp"
#include "flipcheck/canonical_key.hpp"
// check: the drivers that judge a subject against the laws and the oracle
#include "flipcheck/check/draw.hpp"
#include "flipcheck/check/describe.hpp"
#include "flipcheck/check/report.hpp"
#include "flipcheck/check/checkpoint.hpp"
#include "flipcheck/check/sweep.hpp"
#include "flipcheck/check/sampled.hpp"
#include "flipcheck/check/equal_mappings.hpp"
#include "flipcheck/check/interleaving.hpp"
#include "flipcheck/check/case_text.hpp"
#include "flipcheck/check/reducers.hpp"
#include "flipcheck/check/mappings.hpp"
#include "flipcheck/check/every_core.hpp"
#include "flipcheck/check/scaling_report.hpp"
#include "flipcheck/check/quantizers.hpp"
#include "flipcheck/check/scaled_quantizers.hpp"
#include "flipcheck/check/canonical_keys.hpp"
#include "flipcheck/check/scales.hpp"
#include "flipcheck/check/scaling.hpp"
#include "flipcheck/check/exhaustive.hpp"
// audit: library code judged against its documentation
#include "flipcheck/audit/audit.hpp"
// catalog: every built-in subject and mutant
#include "flipcheck/catalog/mutants.hpp"
#include "flipcheck/catalog/registry.hpp"
#include "flipcheck/catalog/byte_reducers.hpp"
