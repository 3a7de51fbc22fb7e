#!/usr/bin/env bash
# The whole GPU session in one command, for the lent GPU machine: builds nothing, changes no GPU
# setting. BIN holds binaries built here (flipcheck, gpu_sweep_test, gpu_sweep_bench, yamr_demo,
# replay_gpu_subjects, gpu_reduce_properties_test, gpu_reduce_bench); every log goes to OUT, packed
# into one archive (the device tool brings back few files). PARTS picks what runs (both by
# default; each fits one 10-minute device call): sweep (the mapping sweeps, CLI, audit, fuzz
# replay, YAMR) and reductions (gpu/run_reductions_on_device.sh).
#   [PARTS=sweep|reductions|sweep,reductions] scripts/device_run.sh BIN OUT
set -u
bin=$1 out=$2
logs=$(mktemp -d)
mkdir -p "$logs/build/gpu"
cp "$bin/gpu_sweep_test" "$bin/gpu_sweep_bench" "$logs/build/gpu/"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
run() {  # run NAME COMMAND...: output to NAME.log, rc and time to summary
  local name=$1 start=$(date +%s)
  shift
  "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  printf '%-24s rc=%-3s %5ss  %s\n' "$name" "$rc" "$(($(date +%s) - start))" "$*" | tee -a "$logs/summary.txt"
}
nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
parts=${PARTS:-sweep,reductions}
if [[ $parts == *reductions* ]]; then
  gpu/run_reductions_on_device.sh "$bin" "$logs/reductions" >"$logs/reductions.log" 2>&1
  echo "reductions: $(tail -1 "$logs/reductions/summary.txt")" | tee -a "$logs/summary.txt"
fi
if [[ $parts == *sweep* ]]; then
gpu/run_on_device.sh "$logs/build" "$logs/gpu" >"$logs/gpu_suite.log" 2>&1
echo "gpu suite: $(tail -1 "$logs/gpu_suite.log")" | tee -a "$logs/summary.txt"
run main_job "$bin/flipcheck" --device gpu --json "$logs/main_job.json"
run sweep_branchless "$bin/flipcheck" sweep --device gpu --format binary32 --mapping sign_flip_branchless
run sweep_mutant_gpu "$bin/flipcheck" sweep --device gpu --format binary32 --mapping zeros_swapped --all
run sweep_mutant_cpu "$bin/flipcheck" sweep --device cpu --format binary32 --mapping zeros_swapped --all
run cross_check_pi "$bin/flipcheck" sweep --cross-check --format binary32 --mapping wrong_at_pi --all
run cross_check_sbo "$bin/flipcheck" sweep --cross-check --format binary32 --mapping sign_bit_only
run mutants_gpu "$bin/flipcheck" mutants --device gpu
run audit_gpu "$bin/flipcheck" audit --device gpu --json "$logs/audit.json"
run audit_memcheck "$san" --tool memcheck --error-exitcode 3 "$bin/flipcheck" audit --device gpu --randoms 20
run audit_racecheck "$san" --tool racecheck --error-exitcode 3 "$bin/flipcheck" audit --device gpu --randoms 20
run main_job_memcheck "$san" --tool memcheck --error-exitcode 3 "$bin/flipcheck" sweep --device gpu --format binary16 --mapping signed_key
run gpu_fuzz_replay "$bin/replay_gpu_subjects" corpus/gpu_subjects
run gpu_fuzz_memcheck "$san" --tool memcheck --error-exitcode 3 "$bin/replay_gpu_subjects" corpus/gpu_subjects
run gpu_fuzz_racecheck "$san" --tool racecheck --error-exitcode 3 "$bin/replay_gpu_subjects" corpus/gpu_subjects
run yamr_demo "$bin/yamr_demo" 2000
run yamr_racecheck "$san" --tool racecheck "$bin/yamr_demo" 2
fi
tar czf "$out/logs.tgz" -C "$logs" .
cp "$logs/summary.txt" "$out/summary.txt"
cat "$logs/summary.txt"
