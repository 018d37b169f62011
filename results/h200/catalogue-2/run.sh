#!/usr/bin/env bash
# The whole catalogue on one H200 (issue 32: surface, constant and setmaxnreg tests run): the known
# answers, every test at 2e7 instances, then the proxy tests and setmaxnreg under 4 sweep profiles
# (results in $OUT/r.tgz), with main's catalog/ copied into .device-bundle/catalog.
set -u
L=".device-bundle/run.sh litmus"
R=${OUT:-/tmp/out}/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
$L run --self-test -n 1e7 > "$R/self-test.txt" 2>&1
$L run -n 2e7 --timeout 6 --json "$R/catalogue.json" .device-bundle/catalog \
  > "$R/catalogue.txt" 2> "$R/catalogue.err"
$L run -n 1e7 --sweep 4 --timeout 20 .device-bundle/catalog/proxy .device-bundle/catalog/wgmma/setmaxnreg-orders-nothing.yaml \
  > "$R/proxy-sweep4.txt" 2> "$R/proxy-sweep4.err"
cd "$(dirname "$R")" && tar czf r.tgz r && rm -rf r
