#!/usr/bin/env bash
# SIGINT and SIGTERM stop every command within a second or two, with exit 130 / 143, and leave no
# process behind: here the two that waited on a command of the user's that does not answer (the
# audit's adapter, which std::system made flipcheck ignore SIGINT for, and a served adapter).
# The stop handler (cli/stop.hpp) is the backstop and ends them within its 2 s grace; the test allows
# 10 s, far from that, so a loaded machine does not fail it.
set -uo pipefail
flipcheck=${1:?usage: signals_test.sh FLIPCHECK}
work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck_signals.XXXXXX")
trap 'pkill -f "^sleep 612[0-9]" 2>/dev/null; rm -rf "$work"' EXIT
failures=0

# run_until NAME SIGNAL WANT_RC MARK -- ARGS...: starts flipcheck, waits (up to 120 s, so load only
# slows it) until a process whose command line holds MARK runs, sends SIGNAL, and expects WANT_RC
# within 10 s and no MARK process left.
run_until() {
  local name=$1 sig=$2 want=$3 mark=$4
  shift 5
  "$flipcheck" "$@" >"$work/out" 2>&1 &
  local pid=$! i=0
  until pgrep -f "$mark" >/dev/null || [ $i -ge 1200 ]; do sleep 0.1; i=$((i + 1)); done
  if ! pgrep -f "$mark" >/dev/null; then
    echo "FAIL: $name: $mark never started"; sed 's/^/      /' "$work/out"; failures=1; kill -KILL $pid; wait $pid; return
  fi
  local t0=$(date +%s.%N)
  kill -"$sig" $pid
  local waited=0
  while kill -0 $pid 2>/dev/null && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 $pid 2>/dev/null; then
    echo "FAIL: $name: still running 10 s after SIG$sig"; kill -KILL $pid; wait $pid; failures=1; return
  fi
  wait $pid
  local rc=$? secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  sleep 0.2
  if [ $rc -ne "$want" ] || pgrep -f "$mark" >/dev/null; then
    echo "FAIL: $name: SIG$sig gave exit $rc (want $want) after $secs s; left running: $(pgrep -f "$mark" | tr '\n' ' ')"
    sed 's/^/      /' "$work/out"; failures=1
  else
    echo "ok:   $name: SIG$sig: exit $rc after $secs s, nothing left running"
  fi
}

# An audit whose adapter never answers (its arguments after `#` are a comment).
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  run_until "audit, adapter hung" $sig $want "^sleep 6121" -- audit --device cpu --frameworks-only --no-default-adapters \
    --adapter "sleep 6121 #"
  run_until "check --adapter, adapter hung" $sig $want "^sleep 6122" -- check --adapter "sleep 6122 #" --timeout 600
done

[ "$failures" -eq 0 ] && echo "signals_test: all cases right" || echo "signals_test: some cases wrong"
exit "$failures"
