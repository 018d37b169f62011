#!/usr/bin/env bash
# Surface-proxy message passing in one CTA (docs/findings.md F16) on one H200: the test and a
# generic control (control.yaml) under the default profile and under stress.profile (the sweep
# profile that showed it), 5e7 instances each, then the machine code of the test (results in
# $OUT/r.tgz). Run from the repository root with .device-bundle carried.
set -u
L=".device-bundle/run.sh litmus"
D=results/h200/surface-mp
R=${OUT:-/tmp/out}/r
mkdir -p "$R/sass"
for p in default stress; do
  for t in catalog/proxy/MP+sust+suld-samecta.yaml "$D/control.yaml" catalog/proxy/MP+sust+suld-diffcta.yaml; do
    if [ $p = default ]; then $L run -n 5e7 --json "$R/$p-$(basename "$t" .yaml).json" "$t"
    else $L run -n 5e7 --profile "$D/stress.profile" --json "$R/$p-$(basename "$t" .yaml).json" "$t"; fi
  done
done > "$R/runs.txt" 2>&1
$L run --emit-sass "$R/sass" catalog/proxy/MP+sust+suld-samecta.yaml > "$R/sass.txt" 2>&1
cd "$(dirname "$R")" && tar czf r.tgz r && rm -rf r
