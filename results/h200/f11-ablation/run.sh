#!/usr/bin/env bash
# F11 (docs/findings.md): is the no-expect_tx pipelines' timeout under the share-2 profile a slow
# launch or a stuck one, and which setting of that profile causes it? Run on the device from the
# repository root with the bundle (.device-bundle, ../shared/tools/device-bundle.sh); writes into
# $OUT. 1: the profile with a 90 s watchdog (slow: ends within it); 2: the profile with one setting
# at a time put back to its default (gpu-runner/runner.h, Profile), 8 s watchdog, both tests.
set -u
L=(.device-bundle/run.sh litmus run)
P=results/h200/sweeps/tma-pipeline-S2-K3-no-expect_tx.share2.profile
WS=patterns/reference/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml
TMA=patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml
out=${OUT:-/tmp/f11}
mkdir -p "$out"
"${L[@]}" --profile "$P" --seed 3 -n 1e12 --budget 5 --timeout 90 "$WS" > "$out/long.txt" 2>&1
echo "long: exit $?" >> "$out/long.txt"
declare -A def=([threadsPerBlock]=256 [occupancyPct]=100 [memStride]=4 [interleavePct]=50
  [shufflePct]=100 [barrierPct]=100 [spinLimit]=4096 [delayMax]=0 [roleSkew]=0 [stressPct]=0
  [stressIters]=0 [stressLineBytes]=64 [stressLines]=2 [preStressPct]=0 [preStressIters]=0
  [globalBarrierPct]=0 [serialPct]=0 [prefetchPct]=0 [lineStressPct]=0 [lineStressOps]=16)
"${L[@]}" --profile "$P" --seed 3 -n 1e12 --budget 2 --timeout 8 "$WS" "$TMA" > "$out/reset.none.txt" 2>&1
printf 'none: %s\n' "$(grep -oE '^Verdict [a-z]+' "$out/reset.none.txt" | tr '\n' ' ')" >> "$out/summary.txt"
for key in "${!def[@]}"; do
  sed "s/^$key = [0-9]*/$key = ${def[$key]}/" "$P" > "$out/profile.$key"
  "${L[@]}" --profile "$out/profile.$key" --seed 3 -n 1e12 --budget 2 --timeout 8 "$WS" "$TMA" \
    > "$out/reset.$key.txt" 2>&1
  printf '%s: %s\n' "$key" "$(grep -oE '^Verdict [a-z]+' "$out/reset.$key.txt" | tr '\n' ' ')" >> "$out/summary.txt"
done
