#!/usr/bin/env bash
# bench/main_job.sh must fail when the main job misses its standing budget, on either device, and
# pass within it. A stand-in flipcheck sleeps for given times (main job: JOB seconds, the binary32
# sweep: SWEEP seconds) and prints the main job's first line for DEVICE.
set -uo pipefail
script=$(cd "$(dirname "$0")/.." && pwd)/main_job.sh
stub=$(mktemp "${TMPDIR:-/tmp}/flipcheck_stub.XXXXXX")
trap 'rm -f "$stub"' EXIT
cat >"$stub" <<'STUB'
#!/usr/bin/env bash
if [ "$1" = sweep ]; then sleep "$SWEEP"; exit 0; fi
if [ "$DEVICE" = gpu ]; then echo "flipcheck: every built-in mapping over every format on the GPU"
else echo "flipcheck: every built-in mapping over every format on the CPU (2 threads)"; fi
sleep "$JOB"
exit "${JOB_RC:-0}"
STUB
chmod +x "$stub"
failures=0
expect() {  # expect RC DEVICE JOB SWEEP [JOB_RC]
  local want=$1 out rc
  out=$(DEVICE=$2 JOB=$3 SWEEP=$4 JOB_RC=${5:-0} "$script" "$stub" 1 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: device $2, main job $3 s, sweep $4 s: exit $rc, expected $want"; echo "$out"; failures=1
  else
    echo "ok: device $2, main job $3 s, sweep $4 s: exit $rc ($(tail -1 <<<"$out"))"
  fi
}
expect 0 cpu 0.4 0.2     # 2x: within 5x
expect 3 cpu 1.6 0.2     # 8x: missed
expect 0 gpu 0.3 0.2     # 0.3 s: within 1.0 s
expect 3 gpu 1.3 0.1     # 1.3 s: missed, whatever the ratio
expect 1 cpu 0.1 0.1 4   # the main job failed: a failure, not a budget verdict
exit "$failures"
