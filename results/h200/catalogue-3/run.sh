#!/usr/bin/env bash
# The whole catalogue on one H200 with coverage as the goal (issue 32, item 5): every test at 2e7
# instances under the default profile (at most 0.4 s of GPU time each), then `--cover 420`: rounds
# over the tests that ran to the end with allowed states unseen, each run under the profile a
# longer sweep would draw next, at most 0.4 s of GPU time. Then the replay of the first call's
# forbidden state (TMA-tile-load+wait, cover round 1's profile, saved here).
# Results in $OUT/r.tgz; main's catalog/ copied into .device-bundle/catalog.
set -u
L=".device-bundle/run.sh litmus"
R=${OUT:-/tmp/out}/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
$L run -n 2e7 --budget 0.4 --timeout 6 --cover 420 --json "$R/catalogue.json" .device-bundle/catalog \
  > "$R/catalogue.txt" 2> "$R/catalogue.err"
echo "exit $?" >> "$R/catalogue.txt"
$L run --profile results/h200/catalogue-3/TMA-tile-load+wait.cover1.profile --seed 2 -n 20000000 \
  .device-bundle/catalog/tensor/TMA-tile-load+wait.yaml > "$R/replay.txt" 2>&1
echo "exit $?" >> "$R/replay.txt"
cd "$(dirname "$R")" && tar czf r.tgz r && rm -rf r
