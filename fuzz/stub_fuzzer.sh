#!/usr/bin/env bash
# stub_fuzzer.sh: stands in for a libFuzzer binary in smoke.sh's self-test (smoke_selftest.sh).
# It takes libFuzzer's command line and does what FLIPCHECK_STUB says, with libFuzzer's exit codes:
#   silent   print nothing, exit 0 (ran nothing)        zero    report 0 executions, exit 0
#   seeds    report only the seed corpus's executions   fine    report 5000 executions, exit 0
#   exit1    exit 1 without an artifact
#   crash, leak, oom, timeout   leave that artifact and exit 1, 77, 71, 70
set -u
prefix=./ corpus=
for a in "$@"; do
  case $a in
    -artifact_prefix=*) prefix=${a#*=} ;;
    -*) ;;
    *) corpus=$a ;;
  esac
done
seeds=$(find "${corpus:-.}" -type f 2>/dev/null | wc -l)
stats() { printf 'stat::number_of_executed_units: %s\nstat::average_exec_per_sec:     %s\n' "$1" "$2"; }
artifact() { echo stub > "${prefix}$1-0123456789abcdef"; echo "SUMMARY: stub: $1"; stats 10 10; exit "$2"; }
case ${FLIPCHECK_STUB:-silent} in
  silent) exit 0 ;;
  zero) stats 0 0 ;;
  seeds) stats $((seeds + 1)) 0 ;;
  fine) stats 5000 1000 ;;
  exit1) echo "stub: failing on purpose" >&2; exit 1 ;;
  crash) artifact crash 1 ;;
  leak) artifact leak 77 ;;
  oom) artifact oom 71 ;;
  timeout) artifact timeout 70 ;;
  *) echo "stub_fuzzer.sh: unknown FLIPCHECK_STUB=$FLIPCHECK_STUB" >&2; exit 2 ;;
esac
