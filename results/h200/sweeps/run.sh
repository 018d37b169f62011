#!/usr/bin/env bash
# Sweeps over the pattern library on one H200 (issue 30, item 5): no drawn stress profile may hang
# a correct pipeline. Run from the device machine's repository root, with the bundle of
# build/litmus in .device-bundle (../shared/tools/device-bundle.sh) and this branch's patterns/
# copied to .device-bundle/patterns; results go to $OUT/r.
set -u
L=".device-bundle/run.sh litmus"
P=.device-bundle/patterns/reference
R=${OUT:-/tmp/out}/r
mkdir -p "$R"
# 1. every test of the library (correct and buggy) under 8 profiles, 2 s of GPU time each; a hang
#    costs --timeout
$L run --sweep 8 -n 1e9 --budget 2 --timeout 6 --json "$R/patterns-sweep8.json" $P \
  > "$R/patterns-sweep8.txt" 2> "$R/patterns-sweep8.err"
# 2. the shape: no budget, a count no slow profile reaches within --timeout
$L run --sweep 8 -n 4e8 --timeout 6 --json "$R/pipelines-nobudget.json" \
  $P/tma-pipeline/tma-pipeline-S2-K3.yaml $P/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml \
  $P/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml \
  > "$R/pipelines-nobudget.txt" 2> "$R/pipelines-nobudget.err"
