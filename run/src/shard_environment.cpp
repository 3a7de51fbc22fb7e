#include "flipcheck/run/shard_environment.hpp"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "flipcheck/error.hpp"
#include "flipcheck/number.hpp"

namespace flipcheck::run {

shard parse_shard(const std::string& text, const std::string& what) {
    const auto slash = text.find('/');
    if (slash == std::string::npos) throw input_error(fmt::format("bad {} '{}': expected i/n with 0 <= i < n", what, text));
    const shard s{parse_number(text.substr(0, slash), what + " index"), parse_number(text.substr(slash + 1), what + " count")};
    if (s.count == 0 || s.index >= s.count) throw input_error(fmt::format("bad {} '{}': expected i/n with 0 <= i < n", what, text));
    return s;
}

environment_shard shard_from_environment(const std::function<std::optional<std::string>(const char*)>& lookup_) {
    const auto lookup = [&](const char* name) -> std::optional<std::string> {
        if (lookup_) return lookup_(name);
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    const auto number = [&](const char* name) -> std::optional<std::uint64_t> {
        const auto v = lookup(name);
        if (!v) return std::nullopt;
        return parse_number(*v, fmt::format("{} (from the environment)", name));
    };
    std::vector<environment_shard> found;
    if (const auto id = number("SLURM_ARRAY_TASK_ID")) {
        // With FLIPCHECK_SHARD_COUNT (`flipcheck plan`'s scripts set it) the task id is the shard:
        // the array may then be any subset of the shards, as `sbatch --array=5,9` reruns two.
        if (const auto total = number("FLIPCHECK_SHARD_COUNT")) {
            found.push_back({{*id, *total}, "slurm"});
        } else {
            const auto count = number("SLURM_ARRAY_TASK_COUNT");
            const auto min = number("SLURM_ARRAY_TASK_MIN").value_or(0);
            if (!count) throw input_error("--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor FLIPCHECK_SHARD_COUNT is");
            if (*count == 0) throw input_error("--shard auto: SLURM_ARRAY_TASK_COUNT is 0: an array has at least one task");
            if (const auto step = number("SLURM_ARRAY_TASK_STEP"); step && *step != 1)
                throw input_error(fmt::format("--shard auto: the Slurm array has step {}: submit a contiguous array (--array=0-{}), or set "
                                              "FLIPCHECK_SHARD_COUNT to the number of shards",
                                              *step, *count - 1));
            if (*id < min || *id - min >= *count)
                throw input_error(fmt::format("--shard auto: SLURM_ARRAY_TASK_ID {} is outside the array ({} tasks from {})", *id, *count, min));
            found.push_back({{*id - min, *count}, "slurm"});
        }
    }
    const auto count_for = [&](const char* engine_var) {
        const auto count = number("FLIPCHECK_SHARD_COUNT");
        if (!count)
            throw input_error(fmt::format("--shard auto: {} is set but FLIPCHECK_SHARD_COUNT is not (the engine does not pass the "
                                          "number of tasks: `flipcheck plan` sets it)",
                                          engine_var));
        return *count;
    };
    if (const auto id = number("JOB_COMPLETION_INDEX")) found.push_back({{*id, count_for("JOB_COMPLETION_INDEX")}, "kubernetes"});
    if (const auto id = number("AWS_BATCH_JOB_ARRAY_INDEX")) found.push_back({{*id, count_for("AWS_BATCH_JOB_ARRAY_INDEX")}, "aws-batch"});
    if (const auto v = lookup("FLIPCHECK_SHARD")) found.push_back({parse_shard(*v, "FLIPCHECK_SHARD"), "FLIPCHECK_SHARD"});
    if (found.empty())
        throw input_error("--shard auto: no shard in the environment (Slurm's SLURM_ARRAY_TASK_ID, Kubernetes' JOB_COMPLETION_INDEX, "
                          "AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX, or FLIPCHECK_SHARD=i/n)");
    for (const auto& f : found) {
        if (f.part.count == 0 || f.part.index >= f.part.count)
            throw input_error(fmt::format("--shard auto: {} gives shard {} of {}: the index must be below the count", f.engine,
                                          f.part.index, f.part.count));
        if (!(f.part == found.front().part))
            throw input_error(fmt::format("--shard auto: {} says shard {}/{} but {} says {}/{}: refusing to guess", found.front().engine,
                                          found.front().part.index, found.front().part.count, f.engine, f.part.index, f.part.count));
    }
    return found.front();
}

}  // namespace flipcheck::run
