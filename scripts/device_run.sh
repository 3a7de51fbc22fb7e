#!/usr/bin/env bash
# The whole GPU session in one command, for the lent GPU machine: builds nothing, changes no GPU
# setting. BIN holds binaries built here (flipcheck, gpu_sweep_test, gpu_sweep_bench, yamr_demo,
# replay_gpu_subjects, gpu_reduce_properties_test, gpu_reduce_bench, gpu_check_test,
# gpu_check_bench, examples_gpu_test, gpu_exhaustive_test, gpu_quantize_test, gpu_quantize_bench); every log goes to OUT, packed into one archive (the device
# tool brings back few files). PARTS picks what runs (all by default; each fits one 10-minute
# device call): sweep (the mapping sweeps, CLI, fuzz replay, YAMR, the main job's timing),
# reductions (scripts/run_reductions_on_device.sh) and plugin (users' code on the device: check.cuh,
# sweep_launch.cuh, examples/gpu_test.cu as built against the installed package) and formats (the
# byte formats: every array of up to three codes on real atomics, and the decoding held against
# PyTorch and ml_dtypes) and scaling (the FP8/MX scaling path: gpu_amax_test and its sanitizer runs,
# the mutants and the main job on the device, gpu_amax_bench and PyTorch's amax for reference) and
# shader (the shader tests on the GPU's Vulkan driver, the 2^32 shader sweep against the CUDA sweep,
# the driver's max()/min() audit) and audit (`flipcheck audit --device gpu --markdown`, saved to
# OUT/audit_gpu.md for docs/audit.md, the frameworks' adapters, the audit kernels under
# compute-sanitizer) and conversions (the quantizers on every binary32 input, gpu_quantize_bench,
# and `flipcheck audit --conversions --device gpu --markdown` for docs/conversions.md, saved to
# OUT/conversions_gpu.md). The GPU machine has NVIDIA's Vulkan driver but may lack the
# loader and the GL dispatch libraries the driver loads: carry them as .debs in .gl (made once with
# `apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2` in .gl/).
#   [PARTS=sweep|reductions|plugin|...] scripts/device_run.sh BIN OUT
# FLIPCHECK_REQUIRE_GPU=1 is set for every step, so nothing here can pass by skipping.
# Exit status: 0 when every step gave its expected status, 1 otherwise (summary.txt says which).
set -u
if [ $# -ne 2 ]; then
  echo "usage: [PARTS=sweep,reductions] scripts/device_run.sh BIN OUT" >&2
  exit 2
fi
bin=$1 out=$2
export FLIPCHECK_REQUIRE_GPU=1
logs=$(mktemp -d)
# scripts/run_on_device.sh reads a build folder's layout.
mkdir -p "$logs/build/gpu/tests" "$logs/build/bench"
cp "$bin/gpu_sweep_test" "$logs/build/gpu/tests/"
cp "$bin/gpu_sweep_bench" "$logs/build/bench/"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
failed=0
run() {  # run NAME EXPECTED_STATUS COMMAND...: output to NAME.log, status and time to the summary
  local name=$1 want=$2 start=$(date +%s)
  shift 2
  "$@" >"$logs/$name.log" 2>&1
  local rc=$? verdict=ok
  [ "$rc" -eq "$want" ] || { verdict=FAILED; failed=1; }
  printf '%-24s rc=%-3s want=%-3s %-6s %5ss  %s\n' "$name" "$rc" "$want" "$verdict" "$(($(date +%s) - start))" "$*" |
    tee -a "$logs/summary.txt"
}
nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
parts=${PARTS:-sweep,reductions,plugin,formats,scaling,shader,conversions,audit}
if [[ $parts == *shader* ]]; then
  # The Vulkan loader and the GL dispatch libraries NVIDIA's Vulkan driver (libGLX_nvidia) loads,
  # where the machine has only the driver: the .debs carried in .gl (see the top of this file).
  if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  ldconfig -p | grep -q libvulkan.so.1 || echo "no Vulkan loader: the shader steps will fail" >>"$logs/summary.txt"
  if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  run vulkan_test 0 "$bin/vulkan_test"
  run seed_shader_test 0 "$bin/seed_shader_test"
  run shader_sweep_test 0 "$bin/shader_sweep_test"
  run shader_sweep_bench 0 "$bin/shader_sweep_bench" --repeats 10
  run audit_shaders 0 "$bin/flipcheck" audit --shaders-only --json "$logs/audit_shaders.json"
  run check_shader_right 0 "$bin/flipcheck" check --shader examples/shaders/max_keys.hlsl --op max --format binary32 --policy nan=propagate
  run check_shader_wrong 1 "$bin/flipcheck" check --shader examples/shaders/wrong_nan_max.comp --op max --format binary32 --policy nan=propagate
  run check_shader_sweep 0 "$bin/flipcheck" check --shader shader/shaders/seed001_branchless_map.hlsl --mapping
  run check_shader_sweep_wrong 1 "$bin/flipcheck" check --shader shader/shaders/sign_bit_only_map.comp --mapping
fi
if [[ $parts == *conversions* ]]; then
  # The quantizers on every binary32 input (gpu_quantize_test; its small run under compute-
  # sanitizer), their benchmark, and docs/conversions.md's GPU section (saved as
  # conversions_gpu.md): CUDA's conversions and flipcheck's quantizers on the device, then each
  # framework's adapter on its own (a framework that fails costs only its rows). All five adapters
  # take about 11 minutes on an H100 with 16 host cores (bench/RESULTS.md), more than one device
  # call: CONVERSION_ADAPTERS picks them ("torch jax" in one call, "numpy ml_dtypes triton" in another).
  run gpu_quantize_test 0 "$bin/gpu_quantize_test"
  run quantize_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/gpu_quantize_test" --gtest_filter='*Sanitizers*'
  run quantize_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/gpu_quantize_test" --gtest_filter='*Sanitizers*'
  run gpu_quantize_bench 0 "$bin/gpu_quantize_bench" --repeats 5
  run conversions_device 0 "$bin/flipcheck" audit --conversions --device gpu --markdown --no-default-adapters
  for a in ${CONVERSION_ADAPTERS:-numpy torch jax ml_dtypes triton}; do
    run "conversions_$a" 0 "$bin/flipcheck" audit --conversions --device gpu --frameworks-only --markdown --no-default-adapters \
      --adapter "python3 adapters/${a}_adapter.py"
  done
  cat "$logs"/conversions_*.log >"$out/conversions_gpu.md"
fi
if [[ $parts == *audit* ]]; then
  # docs/audit.md's GPU section (saved as audit_gpu.md beside the logs), the frameworks through the
  # repo's adapters (PyTorch, JAX, CuPy, Triton on this machine's python3), the replay of CUB's
  # NaN-free counterexamples, and compute-sanitizer on every audit kernel (reducers, sorts, P3008
  # fetches, the intrinsics' truth tables).
  export FLIPCHECK_ADAPTERS=$PWD/adapters
  run audit_gpu_markdown 0 "$bin/flipcheck" audit --device gpu --markdown --json "$logs/audit_gpu.json"
  cp "$logs/audit_gpu_markdown.log" "$out/audit_gpu.md"
  run audit_gpu_text 0 "$bin/flipcheck" audit --device gpu --no-default-adapters
  run replay_cub_max 0 "$bin/flipcheck" audit --device gpu --subject 'cub::DeviceReduce::Max' --case 'all -inf'
  run replay_cub_min 0 "$bin/flipcheck" audit --device gpu --subject 'cub::DeviceReduce::Min' --case 'all +inf'
  run audit_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/flipcheck" audit --device gpu --randoms 20 --no-default-adapters --quick
  run audit_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/flipcheck" audit --device gpu --randoms 20 --no-default-adapters --quick
  run framework_versions 0 python3 -c "import importlib
for m in ('numpy', 'torch', 'jax', 'cupy', 'triton'):
    try: print(m, importlib.import_module(m).__version__)
    except Exception as e: print(m, 'not installed:', e)"
fi
if [[ $parts == *formats* ]]; then
  pairs='GpuExhaustive.wrong_strategies_fail_on_the_device:GpuExhaustive.format_key_is_the_same_on_the_device'
  run gpu_exhaustive_test 0 "$bin/gpu_exhaustive_test"
  run exhaustive_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/gpu_exhaustive_test" --gtest_filter=$pairs
  run exhaustive_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/gpu_exhaustive_test" --gtest_filter=$pairs
  run compare_decoding 0 python3 scripts/compare_decoding.py "$bin/flipcheck" --out "$logs/compare_decoding.json"
  run sweep_e8m0_sign_flip 1 "$bin/flipcheck" sweep --device gpu --format float8_e8m0fnu --mapping sign_flip
fi
if [[ $parts == *scaling* ]]; then
  small=GpuScaling.SmallRunForSanitizers
  run gpu_amax_test 0 "$bin/gpu_amax_test"
  run amax_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/gpu_amax_test" --gtest_filter=$small
  run amax_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/gpu_amax_test" --gtest_filter=$small
  run mutants_gpu_scaling 0 "$bin/flipcheck" mutants --device gpu
  run main_job_gpu 0 "$bin/flipcheck" --device gpu --json "$logs/main_job.json"
  run gpu_amax_bench 0 "$bin/gpu_amax_bench" --repeats 30
  run torch_amax 0 python3 bench/torch_amax.py --repeats 30
fi
if [[ $parts == *plugin* ]]; then
  one=GpuCheck.a_failure_shrinks_and_names_the_shape
  run gpu_check_test 0 "$bin/gpu_check_test"
  run gpu_check_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/gpu_check_test" --gtest_filter=$one
  run gpu_check_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/gpu_check_test" --gtest_filter=$one
  run gpu_check_bench 0 "$bin/gpu_check_bench" --repeats 5
  run examples_gpu_test 0 "$bin/examples_gpu_test"
  run examples_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/examples_gpu_test" --gtest_filter='AtomicArgmaxFloat.*:KernelMax.gpu_edge_battery'
  run examples_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/examples_gpu_test" --gtest_filter='AtomicArgmaxFloat.gpu_warp:AtomicMaxFloat.gpu_block_shared'
  # A user's .cu file built with --use_fast_math: its GPU checks are refused (the oracle's flags
  # probe, detail/oracle_environment.cuh), and the probe kernel under both sanitizers.
  run gpu_fast_math_test 0 "$bin/gpu_fast_math_test"
  run fast_math_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/gpu_fast_math_test"
  run fast_math_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/gpu_fast_math_test"
fi
if [[ $parts == *reductions* ]]; then
  run reductions 0 scripts/run_reductions_on_device.sh "$bin" "$logs/reductions"
fi
if [[ $parts == *sweep* ]]; then
  run gpu_suite 0 scripts/run_on_device.sh "$logs/build" "$logs/gpu"
  run main_job 0 "$bin/flipcheck" --device gpu --json "$logs/main_job.json"
  # Exits 3 when the GPU main job misses its standing budget (1.0 s): a failed step like any other.
  run main_job_timing 0 bench/main_job.sh "$bin/flipcheck" 5 --device gpu
  run sweep_branchless 0 "$bin/flipcheck" sweep --device gpu --format binary32 --mapping sign_flip_branchless
  run sweep_mutant_gpu 1 "$bin/flipcheck" sweep --device gpu --format binary32 --mapping zeros_swapped --all
  run sweep_mutant_cpu 1 "$bin/flipcheck" sweep --device cpu --format binary32 --mapping zeros_swapped --all
  run cross_check_pi 1 "$bin/flipcheck" sweep --cross-check --format binary32 --mapping wrong_at_pi --all
  run cross_check_sbo 1 "$bin/flipcheck" sweep --cross-check --format binary32 --mapping sign_bit_only
  run cross_check_b64 1 "$bin/flipcheck" sweep --cross-check --format binary64 --mapping zeros_swapped
  run mutants_gpu 0 "$bin/flipcheck" mutants --device gpu
  run main_job_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/flipcheck" sweep --device gpu --format binary16 --mapping signed_key
  run sampled_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/flipcheck" sweep --device gpu --format binary64 --mapping sign_flip --shard 0/16
  run sampled_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/flipcheck" sweep --device gpu --format binary64 --mapping sign_flip --shard 0/16
  run gpu_fuzz_replay 0 "$bin/replay_gpu_subjects" fuzz/corpus/gpu_subjects
  run gpu_fuzz_memcheck 0 "$san" --tool memcheck --error-exitcode 3 "$bin/replay_gpu_subjects" fuzz/corpus/gpu_subjects
  run gpu_fuzz_racecheck 0 "$san" --tool racecheck --error-exitcode 3 "$bin/replay_gpu_subjects" fuzz/corpus/gpu_subjects
  run yamr_demo 0 "$bin/yamr_demo" 2000
  run yamr_racecheck 0 "$san" --tool racecheck "$bin/yamr_demo" 2
fi
tar czf "$out/logs.tgz" -C "$logs" .
cp "$logs/summary.txt" "$out/summary.txt"
[ "$failed" -eq 0 ] && echo "ALL PASSED" || echo "SOMETHING FAILED: see the lines marked FAILED above"
exit "$failed"
