#!/usr/bin/env bash
# The TMA and warp-specialized pipelines (correct and buggy) and the no-expect_tx catalogue tests
# under 8 profiles, after the drain's wait for the test's last phase was bounded (issue 30). Same
# setup as ../run.sh; results in $OUT/r.
set -u
L=".device-bundle/run.sh litmus"
R=${OUT:-/tmp/out}/r
mkdir -p "$R"
$L run --sweep 8 -n 1e9 --budget 2 --timeout 6 --json "$R/pipelines-sweep8.json" \
  .device-bundle/patterns/reference/tma-pipeline .device-bundle/patterns/reference/warp-specialized \
  .device-bundle/catalog/async/TMA-load-no-expect_tx.yaml .device-bundle/catalog/tensor/TMA-multicast-remote-no-expect_tx.yaml \
  > "$R/pipelines-sweep8.txt" 2>&1
