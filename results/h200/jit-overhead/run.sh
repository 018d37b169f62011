#!/usr/bin/env bash
# On one H200 (the device machine), from the root of a checkout holding .device-bundle/ (this
# branch's build/litmus bundled with ../shared/tools/device-bundle.sh, and its catalog/ and
# bench/jit-overhead.sh copied next to it): the texture-alias tests, the JIT bench, the catalogue.
# Results under $OUT: proxy/, bench/, catalogue/.
set -u
B=$PWD/.device-bundle
L="$B/run.sh litmus"
O=${OUT:-/tmp/out}
mkdir -p "$O/proxy" "$O/bench" "$O/catalogue"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/gpu.txt" 2>&1
nproc >> "$O/gpu.txt"
# 1. the proxy chapter: 1e8 instances under 4 stress profiles each, and the texture tests' code
$L run -n 1e8 --sweep 4 --timeout 20 --json "$O/proxy/proxy.json" "$B/catalog/proxy" \
  > "$O/proxy/proxy.txt" 2> "$O/proxy/proxy.err"
$L run --emit-sass "$O/proxy/sass" "$B"/catalog/proxy/texture-*.yaml > "$O/proxy/sass.txt" 2>&1
# 2. the per-test overhead of a campaign: 60 shapes tests, 0.2 s of GPU each, three ways
printf '#!/bin/sh\nexec %s/run.sh litmus "$@"\n' "$B" > "$B/litmus" && chmod +x "$B/litmus"
LITMUS=$B/litmus bash "$B/bench/jit-overhead.sh" 60 0.2 > "$O/bench/jit-overhead.txt" 2>&1
# 3. the whole catalogue as results/h200/catalogue ran it, with the JIT ahead (cache cold)
XDG_CACHE_HOME=$O/xdg CUDA_CACHE_DISABLE=1 $L run -n 2e7 --timeout 6 --json "$O/catalogue/catalogue.json" \
  "$B/catalog" > "$O/catalogue/catalogue.txt" 2> "$O/catalogue/catalogue.err"
rm -rf "$O/xdg"
gzip -f "$O/catalogue/catalogue.json"
