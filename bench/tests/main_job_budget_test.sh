#!/usr/bin/env bash
# bench/main_job.sh must fail when the main job misses its standing budget, on either device, and
# pass within it. A stand-in flipcheck prints the main job's first line for DEVICE and advances the
# script's clock (FLIPCHECK_BENCH_CLOCK) by JOB seconds for the main job and SWEEP seconds for the
# binary32 sweep. It sleeps for nothing: the times are exact, so no load on the machine can move a
# verdict (a wall-clock stand-in once measured 8x as 4.96x beside a busy test suite).
set -uo pipefail
script=$(cd "$(dirname "$0")/.." && pwd)/main_job.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck_budget.XXXXXX")
trap 'rm -rf "$work"' EXIT
stub=$work/flipcheck
export FLIPCHECK_BENCH_CLOCK=$work/clock
cat >"$stub" <<'STUB'
#!/usr/bin/env bash
advance() { awk -v t="$(cat "$FLIPCHECK_BENCH_CLOCK")" -v d="$1" 'BEGIN { printf "%.6f\n", t + d }' >"$FLIPCHECK_BENCH_CLOCK.new" &&
  mv "$FLIPCHECK_BENCH_CLOCK.new" "$FLIPCHECK_BENCH_CLOCK"; }
if [ "$1" = sweep ]; then advance "$SWEEP"; exit 0; fi
if [ "$DEVICE" = gpu ]; then echo "flipcheck: every built-in mapping over every format on the GPU"
else echo "flipcheck: every built-in mapping over every format on the CPU (2 threads)"; fi
advance "$JOB"
exit "${JOB_RC:-0}"
STUB
chmod +x "$stub"
failures=0
expect() {  # expect RC DEVICE JOB SWEEP [JOB_RC] [VERDICT]
  local want=$1 out rc
  echo 1000 >"$FLIPCHECK_BENCH_CLOCK"
  out=$(DEVICE=$2 JOB=$3 SWEEP=$4 JOB_RC=${5:-0} "$script" "$stub" 3 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || { [ -n "${6:-}" ] && ! grep -qF -- "$6" <<<"$out"; }; then
    echo "FAIL: device $2, main job $3 s, sweep $4 s: exit $rc, expected $want${6:+ and \"$6\"}"; echo "$out"; failures=1
  else
    echo "ok: device $2, main job $3 s, sweep $4 s: exit $rc ($(tail -1 <<<"$out"))"
  fi
}
expect_no() {  # expect_no DEVICE JOB SWEEP TEXT: the verdict line must not hold TEXT
  echo 1000 >"$FLIPCHECK_BENCH_CLOCK"
  if DEVICE=$1 JOB=$2 SWEEP=$3 "$script" "$stub" 3 2>&1 | grep -qF -- "$4"; then
    echo "FAIL: device $1, main job $2 s, sweep $3 s: says \"$4\""; failures=1
  else
    echo "ok: device $1, main job $2 s, sweep $3 s: no \"$4\""
  fi
}
expect 0 cpu 0.4 0.2 0 "budget: PASS"        # 2x: within 5x
expect_no cpu 0.4 0.2 "WARN"                 # and under the margin line (4x)
expect_no cpu 0.8 0.2 "WARN"                 # 4x: at the margin line
expect 0 cpu 0.802 0.2 0 "WARN: above the margin line, 4x" # 4.01x: within, above the line
expect 0 cpu 0.999 0.2 0 "budget: PASS"     # 4.995x: just within
expect 0 cpu 0.999 0.2 0 "WARN"             # and above the margin line
expect 3 cpu 1.6 0.2 0 "budget: MISSED"     # 8x: missed
expect 3 cpu 1.002 0.2 0 "budget: MISSED"   # 5.01x: just missed
expect 0 gpu 0.3 0.2 0 "budget: PASS"       # 0.3 s: within 1.0 s
expect_no gpu 0.79 0.2 "WARN"                # 0.79 s: under the margin line (0.8 s)
expect 0 gpu 0.95 0.2 0 "WARN: above the margin line, 0.8 s" # 0.95 s: within, above the line
expect 3 gpu 1.3 0.1 0 "budget: MISSED"     # 1.3 s: missed, whatever the ratio
expect 3 gpu 1.001 5 0 "budget: MISSED"     # just over 1.0 s, though a fifth of the sweep
expect 1 cpu 0.1 0.1 4                      # the main job failed: a failure, not a budget verdict
exit "$failures"
