#!/usr/bin/env bash
# Prove time of the built-in cvt.rn.satfinite quantizer of each element from bfloat16 and binary32
# inputs, and of prove/tests/quantizers.hpp's binary64 quantizer, by flipcheck-prove (one core;
# the whole command: clang, the IR, Z3). Compare with the sweep's every-input time of the same
# quantizers in `every_input_bench` (binary32) in the same session.
#   bench/prove_quantizers.sh [BUILD_DIR] [ELEMENT ...]
set -euo pipefail
build=${1:-build/release}
shift || true
elements=("$@")
[ ${#elements[@]} -gt 0 ] || elements=(float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz float6_e2m3fn float6_e3m2fn float4_e2m1fn)
root=$(cd "$(dirname "$0")/.." && pwd)
prove=$build/flipcheck-prove
[ -x "$prove" ] || { echo "no $prove: cmake --build --preset release --target flipcheck-prove" >&2; exit 2; }
printf '%-18s %-9s %-8s %8s\n' element input verdict seconds
for e in "${elements[@]}"; do
  for subject in "flipcheck::quantizer<flipcheck::bfloat16, flipcheck::$e, flipcheck::quantize_policy{}>:bfloat16" \
                 "flipcheck::quantizer<flipcheck::binary32, flipcheck::$e, flipcheck::quantize_policy{}>:binary32" \
                 "prove_fixture::binary64_quantizer<flipcheck::$e>:binary64"; do
    type=${subject%:*}
    start=$(date +%s.%N)
    if out=$("$prove" --source "$root/prove/tests/quantizers.hpp" --subject "$type" 2>&1); then verdict=PASS; else verdict="exit $?"; fi
    end=$(date +%s.%N)
    printf '%-18s %-9s %-8s %8.2f\n' "$e" "${subject##*:}" "$verdict" "$(echo "$end - $start" | bc)"
    [ "$verdict" = PASS ] || printf '%s\n' "$out" | tail -3
  done
done
