#!/usr/bin/env bash
# planted_bug.sh FUZZER CORPUS DICT SECONDS: the fuzzer, built with a bug planted in a built-in
# mapping, must find it within SECONDS starting from the checked-in corpus.
set -uo pipefail
fuzzer=$1 corpus=$2 dict=$3 seconds=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus" "$work/corpus"
mkdir -p "$work/findings"
start=$(date +%s.%N)
"$fuzzer" -max_total_time="$seconds" -dict="$dict" -artifact_prefix="$work/findings/" "$work/corpus" > "$work/log" 2>&1
end=$(date +%s.%N)
grep -E "broken|INITED|#[0-9]+" "$work/log" | grep -v "pulse" | tail -4
if ls "$work/findings"/crash-* >/dev/null 2>&1; then
  awk -v s="$start" -v e="$end" 'BEGIN { printf "planted bug found in %.2f s\n", e - s }'
  exit 0
fi
echo "planted bug NOT found in $seconds s"
exit 1
