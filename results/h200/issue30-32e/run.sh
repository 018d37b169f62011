#!/usr/bin/env bash
# Issue 30's last "done when" (the pattern sweep) and issue 32 item 6 (the mutation score of the
# pattern library) on two H200, one device call, plus the one-GPU first pass of the peer campaign
# that results/h200/peer-nine-x2 compares with. Run from the device machine's repository root with
# the bundle of build/litmus in .device-bundle (../shared/tools/device-bundle.sh) and, in it, the
# pattern library's mutants (mut/, made below when missing) and the peer tests (peer/, from
# gen/configs/peer-nine.yaml); the results go to $OUT/r.tgz.
set -u
L=".device-bundle/run.sh litmus"
B=.device-bundle
P=patterns/reference
R=/tmp/r
mkdir -p "$R"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
[ -d $B/mut ] || $L mutate --runnable -o $B/mut $P > "$R/mutate.txt"
[ -d $B/peer ] || $L gen --config gen/configs/peer-nine.yaml -o $B/peer > "$R/gen.txt"
gpu1() {
  # 3a. the killable mutants of the pattern library, default profile, 0.5 s of GPU each
  timeout 120 $L run --gpus 1 -n 1e9 --budget 0.5 --seed 1 --timeout 6 --json "$R/mut-default.json" \
    $B/mut/killable > "$R/mut-default.txt" 2> "$R/mut-default.err"
  # 3b. the same under 8 stress profiles, 2 s each
  timeout 330 $L run --gpus 1 --sweep 8 -n 1e10 --budget 2 --seed 1 --timeout 6 \
    --json "$R/mut-sweep8.json" $B/mut/killable > "$R/mut-sweep8.txt" 2> "$R/mut-sweep8.err"
}
gpu0() {
  # 1a. the share-2 profile that hung both no-expect_tx pipelines, 5 s each, with the late-copy wait
  timeout 25 $L run --gpus 0 --profile results/h200/sweeps/tma-pipeline-S2-K3-no-expect_tx.share2.profile \
    --seed 3 -n 1e12 --budget 5 --timeout 8 --json "$R/replay-share2.json" \
    $P/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml \
    $P/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml > "$R/replay-share2.txt" 2>&1
  # 1b. every test of the pattern library under 8 profiles, 2 s each (results/h200/issue30-32c step 1)
  timeout 170 $L run --gpus 0 --sweep 8 -n 1e9 --budget 2 --timeout 6 --json "$R/patterns-sweep8.json" $P \
    > "$R/patterns-sweep8.txt" 2> "$R/patterns-sweep8.err"
  # 2. the peer campaign's first pass on one GPU (results/h200/peer-nine-x2 runs it on two)
  timeout 310 $L run --gpus 0 -n 1e12 --sweep 8 --budget 0.25 --seed 1 --timeout 20 --max-time 290 \
    --profile /dev/null --json "$R/peer-pass1-gpu0.json" $B/peer > "$R/peer-pass1-gpu0.txt" 2> "$R/peer-pass1-gpu0.err"
}
gpu1 & gpu0
wait
grep -hE "^(Timing|Coverage|Summary|Test .*(timeout|error|hung|violation)|Fault)" "$R"/*.txt
for f in "$R"/*.json; do gzip -k "$f"; done
tar czf "${OUT:-/tmp/out}/r.tgz" -C "$R" --exclude='*.json' .
