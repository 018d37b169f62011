#!/usr/bin/env bash
# Issue 30's last "done when" after D53 (docs/findings.md F11): every test of the pattern library
# (patterns/reference, the pipelines and their bug kinds among them) under 8 stress profiles, 2 s
# each, on one GPU, as results/h200/issue30-32e step 1b ran it. Run from the device machine's
# repository root with the bundle of the build in .device-bundle (../shared/tools/device-bundle.sh);
# writes into $OUT.
set -u
L=".device-bundle/run.sh litmus"
out=${OUT:-/tmp/issue30-sweep}
mkdir -p "$out"
timeout 400 $L run --sweep 8 -n 1e9 --budget 2 --timeout 6 --json "$out/patterns-sweep8.json" patterns/reference \
  > "$out/patterns-sweep8.txt" 2> "$out/patterns-sweep8.err"
echo "exit $?" >> "$out/patterns-sweep8.txt"
gzip "$out/patterns-sweep8.json"
grep -hE "^(Timing|Coverage|Summary|Test .*(timeout|error|hung|violation)|Fault)" "$out/patterns-sweep8.txt"
# everything in one archive (the device returns a limited number of files)
tar czf /tmp/r.tgz -C "$out" . && rm -f "$out"/*.profile && mv /tmp/r.tgz "$out/r.tgz"
