#!/usr/bin/env bash
# smoke_selftest.sh: smoke.sh must fail in every way a fuzz run can go wrong, and pass only a run
# that did its job. Runs smoke.sh against stub_fuzzer.sh (milliseconds; no real fuzzer needed).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck-selftest.XXXXXX")
trap 'rm -rf "$corpus"' EXIT
printf 'a' > "$corpus/seed1"
printf 'b' > "$corpus/seed2"
failures=0
# expect STUB MODE EXPECTED_STATUS REGEX: smoke.sh's exit status and a line of its output.
expect() {
  local out status
  out=$(FLIPCHECK_STUB=$1 "$here/smoke.sh" "$here/stub_fuzzer.sh" "$corpus" "$here/all_formats.dict" 1 $2 2>&1)
  status=$?
  if [ "$status" -eq "$3" ] && grep -Eq "$4" <<< "$out"; then
    echo "ok:   stub=$1 ${2:-normal}: exit $status: $(grep -E "$4" <<< "$out" | head -1)"
  else
    echo "FAIL: stub=$1 ${2:-normal}: wanted exit $3 and /$4/, got exit $status:"
    sed 's/^/      /' <<< "$out"
    failures=$((failures + 1))
  fi
}
expect silent "" 1 "no stat::number_of_executed_units"
expect zero "" 1 "ZERO executions"
expect seeds "" 1 "never got past replaying its corpus"
expect exit1 "" 1 "exited with status 1"
expect crash "" 1 "found a CRASH"
expect leak "" 1 "memory LEAK"
expect oom "" 1 "OUT OF MEMORY"
expect timeout "" 1 "TIMED OUT"
expect fine "" 0 "smoke: ok: 5000 executions"
expect fine expect-crash 1 "planted bug was NOT found"
expect exit1 expect-crash 1 "without a crash- artifact"
expect leak expect-crash 1 "memory LEAK"
expect crash expect-crash 0 "planted bug was found"
[ "$failures" -eq 0 ] || { echo "smoke_selftest: $failures case(s) wrong"; exit 1; }
echo "smoke_selftest: all cases right"
