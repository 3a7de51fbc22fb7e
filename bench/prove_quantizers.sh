#!/usr/bin/env bash
# Prove time of the built-in cvt.rn.satfinite quantizer of each element from bfloat16 and binary32
# inputs, and of prove/tests/quantizers.hpp's binary64 quantizer, by flipcheck-prove (one core;
# the whole command: clang, the IR, Z3). Compare with the sweep's every-input time of the same
# quantizers in `every_input_bench` (binary32) in the same session. ALL=1 adds the catalogue's other
# binary32 policies (toward zero and up, saturating; nearest, overflowing to infinity or NaN).
#   [ALL=1] bench/prove_quantizers.sh [BUILD_DIR] [ELEMENT ...]
set -euo pipefail
build=${1:-build/release}
shift || true
elements=("$@")
[ ${#elements[@]} -gt 0 ] || elements=(float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz float6_e2m3fn float6_e3m2fn float4_e2m1fn)
root=$(cd "$(dirname "$0")/.." && pwd)
prove=$build/flipcheck-prove
[ -x "$prove" ] || { echo "no $prove: cmake --build --preset release --target flipcheck-prove" >&2; exit 2; }
printf '%-18s %-12s %-8s %8s\n' element input verdict seconds
for e in "${elements[@]}"; do
  q="flipcheck::quantizer<flipcheck::binary32, flipcheck::$e, flipcheck::quantize_policy"
  subjects=("flipcheck::quantizer<flipcheck::bfloat16, flipcheck::$e, flipcheck::quantize_policy{}>:bfloat16"
            "$q{}>:binary32" "prove_fixture::binary64_quantizer<flipcheck::$e>:binary64")
  if [ "${ALL:-0}" = 1 ]; then
    overflow=infinity
    case $e in float8_e5m2) ;; float8_e4m3fn|float8_e4m3fnuz|float8_e5m2fnuz) overflow=nan ;; *) overflow= ;; esac
    subjects+=("$q{flipcheck::rounding::toward_zero, flipcheck::saturation::finite}>:binary32 rz"
               "$q{flipcheck::rounding::up, flipcheck::saturation::finite}>:binary32 rp")
    [ -z "$overflow" ] || subjects+=("$q{flipcheck::rounding::nearest_even, flipcheck::saturation::$overflow}>:binary32 $overflow")
  fi
  for subject in "${subjects[@]}"; do
    type=${subject%:*}
    start=$(date +%s.%N)
    if out=$("$prove" --source "$root/prove/tests/quantizers.hpp" --subject "$type" 2>&1); then verdict=PASS; else verdict="exit $?"; fi
    end=$(date +%s.%N)
    printf '%-18s %-12s %-8s %8.2f\n' "$e" "${subject##*:}" "$verdict" "$(echo "$end - $start" | bc)"
    [ "$verdict" = PASS ] || printf '%s\n' "$out" | tail -3
  done
done
