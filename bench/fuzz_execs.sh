#!/usr/bin/env bash
# bench/fuzz_execs.sh [SECONDS] [REPEATS]: execs/s of every fuzz target (the fuzz preset's build:
# clang, libFuzzer, ASan+UBSan), each from a scratch copy of its corpus; prints the median.
# Artifacts go to the scratch folder (never the source tree); a run that exits non-zero or leaves
# one is reported and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10} repeats=${2:-3}
bad=0
for bin in build/fuzz/fuzz/fuzz_*; do
  name=${bin##*/fuzz_}
  [ -d "fuzz/corpus/$name" ] || continue
  rates=()
  for _ in $(seq "$repeats"); do
    work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck-execs.XXXXXX")
    cp -r "fuzz/corpus/$name" "$work/c"
    mkdir "$work/artifacts"
    status=0
    "$bin" -max_total_time="$seconds" -print_final_stats=1 -dict=fuzz/all_formats.dict \
      -artifact_prefix="$work/artifacts/" "$work/c" > "$work/log" 2>&1 || status=$?
    rates+=("$(awk '/average_exec_per_sec/ {print $2}' "$work/log")")
    if [ "$status" -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
      echo "$name: the fuzzer exited with status $status, artifacts: $(ls -A "$work/artifacts" | tr '\n' ' ')" >&2
      grep -E "^SUMMARY|broken|disagrees" "$work/log" >&2 || true
      bad=1
    fi
    rm -rf "$work"
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$name: median ${median} execs/s over ${repeats} runs of ${seconds} s (runs: ${rates[*]}; 1 core)"
done
exit "$bad"
