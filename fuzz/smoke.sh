#!/usr/bin/env bash
# smoke.sh FUZZER CORPUS DICT SECONDS [expect-crash]
# Fuzzes a scratch copy of CORPUS (artifacts go to a scratch folder too, never into the source
# tree) for a fixed number of executions, the seeds plus FLIPCHECK_SMOKE_MUTATIONS (default
# 200,000: a few seconds for most targets), with SECONDS only as a cap: the verdict counts work, not time, so a loaded machine makes
# the run slower, never a failure (a 5-second run once spent most of its time loading a corpus).
# It fails unless the run is known to have done its job:
#  - the fuzzer's exit status is 0 and it left no artifact (crash-, leak-, oom-, timeout-: each is
#    named in the message);
#  - its -print_final_stats=1 report names the number of executions, and that number is more than
#    replaying the seed corpus takes (a run that never mutated anything tested nothing new).
# On success it prints the executions and execs/s. With expect-crash (the planted-bug
# demonstration) the only success is the fuzzer stopping with a crash- artifact within SECONDS (no
# run count then: it fuzzes until it crashes or the cap).
# FLIPCHECK_SMOKE_ARGS: extra libFuzzer flags, after ours (e.g. -runs=0, -rss_limit_mb=64, -timeout=1).
set -uo pipefail
usage() { echo "usage: smoke.sh FUZZER CORPUS DICT SECONDS [expect-crash]" >&2; exit 2; }
[ $# -eq 4 ] || [ $# -eq 5 ] || usage
fuzzer=$1 corpus=$2 dict=$3 seconds=$4 mode=${5:-}
case $mode in '' | expect-crash) ;; *) usage ;; esac
fail() { echo "smoke: FAIL: $*"; exit 1; }
[ -x "$fuzzer" ] || fail "$fuzzer is not an executable"
[ -d "$corpus" ] || fail "$corpus is not a folder"
[ -f "$dict" ] || fail "$dict is not a file"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || usage

work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck-smoke.XXXXXX") || fail "cannot make a scratch folder"
trap 'rm -rf "$work"' EXIT
cp -r "$corpus" "$work/corpus" && mkdir "$work/findings" || fail "cannot copy $corpus"
seeds=$(find "$work/corpus" -type f | wc -l)

read -r -a extra <<< "${FLIPCHECK_SMOKE_ARGS:-}"
mutations=${FLIPCHECK_SMOKE_MUTATIONS:-200000}
[[ $mutations =~ ^[1-9][0-9]*$ ]] || fail "FLIPCHECK_SMOKE_MUTATIONS must be a positive number, not '$mutations'"
runs=()
# Loading the seeds runs each once, plus one empty input; libFuzzer's -runs counts those too.
[ "$mode" = expect-crash ] || runs=(-runs=$((seeds + 1 + mutations)))
start=$(date +%s.%N)
"$fuzzer" -max_total_time="$seconds" "${runs[@]}" -dict="$dict" -print_final_stats=1 -artifact_prefix="$work/findings/" \
  "${extra[@]}" "$work/corpus" > "$work/log" 2>&1
status=$?
end=$(date +%s.%N)
elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')

# What the fuzzer said about a finding, if anything, and the artifacts it left (by kind).
grep -E "broken|disagrees|^SUMMARY|ERROR: libFuzzer|ParseDictionaryFile" "$work/log" | head -20
artifacts() { find "$work/findings" -maxdepth 1 -type f -name "$1-*" -printf '%f\n' | sort; }
crash=$(artifacts crash) leak=$(artifacts leak) oom=$(artifacts oom) timeout=$(artifacts timeout)
slow=$(artifacts slow-unit)
execs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$work/log" | tail -1)
rate=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "$work/log" | tail -1)
tail_log() { echo "--- last lines of the fuzzer's output:"; tail -n "${1:-15}" "$work/log"; }

[ -z "$leak" ] || { tail_log; fail "the fuzzer found a memory LEAK (exit status $status): $leak"; }
[ -z "$oom" ] || { tail_log; fail "the fuzzer ran OUT OF MEMORY (exit status $status): $oom"; }
[ -z "$timeout" ] || { tail_log; fail "an input TIMED OUT (exit status $status): $timeout"; }
[ -z "$slow" ] || echo "smoke: warning: slow inputs (over -report_slow_units): $slow"

if [ "$mode" = expect-crash ]; then
  if [ -n "$crash" ] && [ "$status" -ne 0 ]; then
    echo "the planted bug was found in $elapsed s (exit status $status, ${execs:-?} executions): $crash"
    exit 0
  fi
  [ -z "$crash" ] || fail "a crash artifact ($crash) but exit status 0: not a libFuzzer crash report"
  [ "$status" -eq 0 ] || { tail_log; fail "the fuzzer exited with status $status without a crash- artifact"; }
  fail "the planted bug was NOT found in $seconds s (${execs:-?} executions)"
fi

[ -z "$crash" ] || { tail_log 30; fail "the fuzzer found a CRASH (exit status $status): $crash"; }
[ "$status" -eq 0 ] || { tail_log; fail "the fuzzer exited with status $status (no artifact)"; }
[ -n "$execs" ] || { tail_log; fail "no stat::number_of_executed_units in the fuzzer's output: cannot tell that anything ran"; }
[[ $execs =~ ^[0-9]+$ ]] || fail "unreadable execution count '$execs'"
[ "$execs" -gt 0 ] || fail "ZERO executions"
# Loading the seeds runs each once, plus one empty input.
[ "$execs" -gt $((seeds + 1)) ] ||
  fail "only $execs executions for $seeds seed inputs: the fuzzer never got past replaying its corpus"
echo "smoke: ok: $execs executions in $elapsed s (${rate:-?} execs/s, $seeds seeds, exit status 0, no artifacts)"
