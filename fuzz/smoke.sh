#!/usr/bin/env bash
# smoke.sh FUZZER CORPUS DICT SECONDS: fuzz a scratch copy of CORPUS for SECONDS; fails on a crash.
set -euo pipefail
fuzzer=$1 corpus=$2 dict=$3 seconds=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus" "$work/corpus"
mkdir -p "$work/findings"
"$fuzzer" -max_total_time="$seconds" -dict="$dict" -print_final_stats=1 -artifact_prefix="$work/findings/" \
  "$work/corpus" 2>&1 | grep -E "stat::(number_of_executed_units|average_exec_per_sec)|ERROR|SUMMARY|broken" || true
if ls "$work/findings"/* >/dev/null 2>&1; then
  echo "smoke: the fuzzer found a crash (inputs above)"
  exit 1
fi
