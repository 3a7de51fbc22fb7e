// The commands of a run too big for one machine (docs/scale-out.md): `pairs` (the 2^64-pair
// workload), `merge` (a sharded run's manifests into one verdict) and `plan` (job files for Slurm
// and Kubernetes with the projected cost).
#pragma once
#include "arguments.hpp"
#include "flipcheck/run/backend.hpp"

namespace flipcheck::cli {

int run_pairs(const pairs_args& a, run::backend b);
int run_merge(const merge_args& a);
int run_plan(const plan_args& a);

}  // namespace flipcheck::cli
