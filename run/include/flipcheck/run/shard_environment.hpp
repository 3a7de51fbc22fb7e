// `--shard auto`: which shard this process is, from the variables a cluster's job engine sets for
// each task of an array. A shard is a pure function of its index and count, so a task the engine
// retries (a preempted node, a requeue) checks the same keys and finds the same result.
//   Slurm job arrays       SLURM_ARRAY_TASK_ID of FLIPCHECK_SHARD_COUNT where that is set (`flipcheck
//                          plan`'s scripts set it, so `sbatch --array=5,9` reruns shards 5 and 9);
//                          else SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT
//                          (then the array must be contiguous: SLURM_ARRAY_TASK_STEP 1)
//   Kubernetes Indexed Job JOB_COMPLETION_INDEX of FLIPCHECK_SHARD_COUNT (the Job's completions;
//                          Kubernetes does not pass the count, `flipcheck plan` sets it)
//   AWS Batch array jobs   AWS_BATCH_JOB_ARRAY_INDEX of FLIPCHECK_SHARD_COUNT (likewise)
//   any engine             FLIPCHECK_SHARD=i/n
// Two sources that disagree are refused (a Slurm array inside a Kubernetes pod, a stale
// FLIPCHECK_SHARD): bad input, never a guess.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "flipcheck/check/report.hpp"

namespace flipcheck::run {

struct environment_shard {
    shard part;
    std::string engine;  // "slurm", "kubernetes", "aws-batch" or "FLIPCHECK_SHARD"
};

// `lookup` reads a variable (std::getenv's answer by default); input_error when no engine's
// variables are set, when they are malformed, or when two engines disagree.
environment_shard shard_from_environment(const std::function<std::optional<std::string>(const char*)>& lookup = {});

// "i/n" with 0 <= i < n, as --shard takes it; `what` names it in the message.
shard parse_shard(const std::string& text, const std::string& what = "--shard");

}  // namespace flipcheck::run
