#!/usr/bin/env bash
# smoke.sh FUZZER CORPUS DICT SECONDS [expect-crash]
# Fuzzes a scratch copy of CORPUS for SECONDS and prints execs/s. Without expect-crash, a crash
# fails the test; with it (the planted-bug demonstration), not finding one within SECONDS fails.
set -uo pipefail
fuzzer=$1 corpus=$2 dict=$3 seconds=$4 mode=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus" "$work/corpus"
mkdir -p "$work/findings"
start=$(date +%s.%N)
"$fuzzer" -max_total_time="$seconds" -dict="$dict" -print_final_stats=1 -artifact_prefix="$work/findings/" \
  "$work/corpus" > "$work/log" 2>&1
end=$(date +%s.%N)
grep -E "stat::(number_of_executed_units|average_exec_per_sec)|broken|disagrees|SUMMARY" "$work/log"
crashed=no
ls "$work/findings"/crash-* >/dev/null 2>&1 && crashed=yes
if [ "$mode" = expect-crash ]; then
  [ "$crashed" = yes ] || { echo "the planted bug was NOT found in $seconds s"; exit 1; }
  awk -v s="$start" -v e="$end" 'BEGIN { printf "the planted bug was found in %.2f s\n", e - s }'
  exit 0
fi
[ "$crashed" = no ] || { echo "smoke: the fuzzer found a crash"; exit 1; }
