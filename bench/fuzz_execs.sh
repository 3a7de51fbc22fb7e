#!/usr/bin/env bash
# bench/fuzz_execs.sh [SECONDS] [REPEATS]: execs/s of every fuzz target (the fuzz preset's build:
# clang, libFuzzer, ASan+UBSan), each from a scratch copy of its corpus; prints the median.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10} repeats=${2:-3}
for bin in build/fuzz/fuzz/fuzz_*; do
  name=${bin##*/fuzz_}
  [ -d "corpus/$name" ] || continue
  rates=()
  for _ in $(seq "$repeats"); do
    work=$(mktemp -d)
    cp -r "corpus/$name" "$work/c"
    rates+=("$("$bin" -max_total_time="$seconds" -print_final_stats=1 -dict=fuzz/all_formats.dict "$work/c" 2>&1 |
      awk '/average_exec_per_sec/ {print $2}')")
    rm -rf "$work"
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$name: median ${median} execs/s over ${repeats} runs of ${seconds} s (runs: ${rates[*]}; 1 core)"
done
