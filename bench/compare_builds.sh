#!/usr/bin/env bash
# bench/compare_builds.sh OLD NEW OUT [ROUNDS]: the GPU benchmarks of two builds in one run,
# alternating old and new ROUNDS times (default 3) so that clock and thermal drift weigh on both
# alike. OLD and NEW are folders holding flipcheck, gpu_sweep_bench and gpu_reduce_bench (static
# binaries built on the development machine). Every run's output goes to OUT/NAME.BUILD.ROUND.log;
# bench/compare_builds.py OUT prints each row's median per build and the ratio new/old.
set -u
if [ $# -lt 3 ]; then
  echo "usage: bench/compare_builds.sh OLD NEW OUT [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 out=$3 rounds=${4:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive number" >&2; exit 2; }
for d in "$old" "$new"; do
  for b in flipcheck gpu_sweep_bench gpu_reduce_bench; do
    [ -x "$d/$b" ] || { echo "missing $d/$b" >&2; exit 2; }
  done
done
mkdir -p "$out"
failed=0
for ((r = 1; r <= rounds; r++)); do
  for build in old new; do
    dir=$old
    [ "$build" = new ] && dir=$new
    "$dir/gpu_sweep_bench" >"$out/sweep.$build.$r.log" 2>&1 || failed=1
    "$dir/gpu_reduce_bench" --repeats 30 >"$out/reduce.$build.$r.log" 2>&1 || failed=1
    bench/main_job.sh "$dir/flipcheck" 5 --device gpu >"$out/main_job.$build.$r.log" 2>&1 || failed=1
  done
done
exit "$failed"
