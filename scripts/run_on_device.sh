#!/usr/bin/env bash
# Runs the prebuilt GPU binaries on the GPU machine and keeps every log: the GPU test suite (with
# a gtest XML report), compute-sanitizer memcheck and racecheck over a reduced filter of it, and
# the benchmark. Builds nothing and changes no GPU setting (nvidia-smi is only queried).
#
# Usage, from the repository root:  scripts/run_on_device.sh BUILD_DIR OUT_DIR
#   BUILD_DIR  a build folder configured with FLIPCHECK_ENABLE_CUDA=ON (holds
#              gpu/tests/gpu_sweep_test and bench/gpu_sweep_bench)
#   OUT_DIR    where the logs go (created)
# Exit status: 0 when every step passed, 1 otherwise; summary.txt lists each step's result.
set -u

if [ $# -ne 2 ]; then
  echo "usage: scripts/run_on_device.sh BUILD_DIR OUT_DIR" >&2
  exit 2
fi
build=$1
out=$2
test_bin=$build/gpu/tests/gpu_sweep_test
bench_bin=$build/bench/gpu_sweep_bench
for bin in "$test_bin" "$bench_bin"; do
  if [ ! -x "$bin" ]; then
    echo "missing $bin: build gpu_sweep_test and gpu_sweep_bench first (this script builds nothing)" >&2
    exit 2
  fi
done
mkdir -p "$out"

sanitizer=$(command -v compute-sanitizer || true)
for candidate in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  [ -z "$sanitizer" ] && [ -x "$candidate" ] && sanitizer=$candidate
done

# The sanitizers run a reduced filter: the small formats (every built-in, and the CPU agreement),
# and the option matrix over the three binary32 mutants, which takes both the explained-failures
# and the census path. Both are far from the 2^32-key sweeps, so they finish in a few minutes.
san_filter='GpuSweep.BuiltinsPassEveryBinary16AndBfloat16KeyAndMatchCpu:GpuMutants.LimitsRangesShardsAndLawsMatchOneCpuThread:GpuSweep.Binary64RandomRunsAreTheKeysTheHostNames'

summary=$out/summary.txt
: >"$summary"
failed=0

# step NAME COMMAND...: runs COMMAND with its output in OUT_DIR/NAME.log and records the result.
step() {
  local name=$1
  shift
  local log=$out/$name.log start rc
  start=$(date +%s)
  echo "== $name: $*"
  "$@" >"$log" 2>&1
  rc=$?
  local line
  line=$(printf '%-10s rc=%-3s %5ss  %s' "$name" "$rc" "$(($(date +%s) - start))" "$log")
  echo "   $line"
  echo "$line" >>"$summary"
  [ "$rc" -ne 0 ] && failed=1
  return 0
}

# What ran where: the device and driver (queries only), and the binaries' own needs.
{
  date -u
  uname -a
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1 || echo "nvidia-smi not available"
  echo
  ldd "$test_bin" "$bench_bin" 2>&1
  echo
  echo "compute-sanitizer: ${sanitizer:-not found}"
} >"$out/device.txt" 2>&1

step gtest "$test_bin" --gtest_output="xml:$out/gpu_sweep_test.xml"
# A device machine must not skip: a SKIPPED test there means the device was not seen.
if grep -q '^\[  SKIPPED \]' "$out/gtest.log"; then
  echo "gtest      SKIPPED tests on the device machine: was the GPU visible?" | tee -a "$summary"
  failed=1
fi

if [ -n "$sanitizer" ]; then
  step memcheck "$sanitizer" --tool memcheck --leak-check full --error-exitcode 3 \
    "$test_bin" --gtest_filter="$san_filter"
  step racecheck "$sanitizer" --tool racecheck --error-exitcode 3 \
    "$test_bin" --gtest_filter="$san_filter"
else
  echo "sanitizer  compute-sanitizer not found: memcheck and racecheck not run" | tee -a "$summary"
  failed=1
fi

step bench "$bench_bin"

echo
cat "$summary"
if [ "$failed" -eq 0 ]; then
  echo "ALL PASSED (logs in $out)"
else
  echo "SOMETHING FAILED (logs in $out)"
fi
exit "$failed"
