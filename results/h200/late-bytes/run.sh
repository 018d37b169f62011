#!/usr/bin/env bash
# Does an mbarrier phase complete when a copy's bytes reached it before the arrive that expects
# them? Four shapes (late-bytes-*.yaml), then the tests whose drains depend on it, under 8 profiles.
# Same setup as ../sweeps/run.sh; results in $OUT/r.
set -u
L=".device-bundle/run.sh litmus"
R=${OUT:-/tmp/out}/r
mkdir -p "$R"
$L run -n 1e7 --timeout 10 --json "$R/late-bytes.json" .device-bundle/late-bytes > "$R/late-bytes.txt" 2>&1
$L run --sweep 8 -n 4e8 --budget 2 --timeout 6 --json "$R/no-expect_tx.json" \
  .device-bundle/catalog/async/TMA-load-no-expect_tx.yaml .device-bundle/catalog/tensor/TMA-multicast-remote-no-expect_tx.yaml \
  .device-bundle/patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml \
  .device-bundle/patterns/reference/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml \
  .device-bundle/catalog/wgmma > "$R/no-expect_tx.txt" 2>&1
