#!/usr/bin/env bash
# bench/main_job.sh FLIPCHECK [RUNS] [--device cpu|gpu]: the main job's wall time against one
# binary32 sweep of sign_flip_branchless, measured in the same run, alternating (so drift hits
# both alike). Prints every run, the medians and their ratio; exits 1 if any run failed.
# The issue's goals: on the CPU ratio <= 5; on the GPU the main job <= 1.0 s of wall.
set -uo pipefail
bin=${1:?usage: bench/main_job.sh FLIPCHECK [RUNS] [--device cpu|gpu]}
runs=${2:-5}
device=${4:-auto}
[ "${3:-}" = --device ] || device=auto
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 2; }
now() { date +%s.%N; }
job=() sweep=()
failed=0
for ((i = 1; i <= runs; i++)); do
  t0=$(now)
  "$bin" --device "$device" >/dev/null 2>&1 || { echo "run $i: the main job failed" >&2; failed=1; }
  t1=$(now)
  "$bin" sweep --device "$device" --format binary32 --mapping sign_flip_branchless >/dev/null 2>&1 ||
    { echo "run $i: the sweep failed" >&2; failed=1; }
  t2=$(now)
  job+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  sweep+=("$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')")
  printf 'run %d: main job %.3f s, binary32 sign_flip_branchless sweep %.3f s\n' "$i" "${job[-1]}" "${sweep[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mj=$(median "${job[@]}") ms=$(median "${sweep[@]}")
printf 'median of %d: main job %.3f s, one binary32 sweep %.3f s, ratio %.2f (device %s)\n' "$runs" "$mj" "$ms" \
  "$(awk -v a="$mj" -v b="$ms" 'BEGIN { print a / b }')" "$device"
exit "$failed"
