#!/usr/bin/env bash
# Issue 30's last "done when" and issue 32 items 5-6 on one H200, in one device call. Run from
# the device machine's repository root, with the bundle of build/litmus in .device-bundle
# (../shared/tools/device-bundle.sh) and this branch's patterns/, catalog/ and the share-2 profile
# of results/h200/sweeps/ copied into it; the results go to $OUT/r.tgz (the device tool brings back
# at most 8 files, and a failed sweep share saves its profile next to the JSON).
set -u
L=".device-bundle/run.sh litmus"
B=.device-bundle
P=$B/patterns/reference
R=/tmp/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
# 1. every test of the pattern library (correct and buggy) under 8 profiles, 2 s of GPU time
#    each, as results/h200/sweeps/run.sh step 1 (a hang costs --timeout)
timeout 150 $L run --sweep 8 -n 1e9 --budget 2 --timeout 6 --json "$R/patterns-sweep8.json" $P \
  > "$R/patterns-sweep8.txt" 2> "$R/patterns-sweep8.err"
# 2. the drawn profile that hung both no-expect_tx pipelines (seed 3, share 2), for 5 s each
timeout 25 $L run --profile $B/share2.profile --seed 3 -n 1e12 --budget 5 --timeout 8 \
  --json "$R/replay-share2.json" $P/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml \
  $P/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml > "$R/replay-share2.txt" 2>&1
# 3. the whole catalogue with the default profile: the coverage line (issue 32 item 5)
timeout 60 $L run -n 2e7 --timeout 2 --max-time 50 --json "$R/catalogue.json" $B/catalog \
  > "$R/catalogue.txt" 2> "$R/catalogue.err"
grep -hE "^(Timing|Coverage|Summary|Test .*(timeout|error|hung)|Fault)" "$R"/*.txt
tar czf "${OUT:-/tmp/out}/r.tgz" -C "$R" .
