#!/usr/bin/env bash
# The cuda-litmus equivalents (gen/configs/peer-nine.yaml, 1,106 tests) on two H200 with
# `--gpus all`, within one 10-minute device call (issue 32 item 5): pass 1, every test under
# --sweep 8 for 0.25 GPU seconds per GPU; pass 2, the allowed tests pass 1 did not see, under
# --sweep 16 (other seeds) for 0.6 s, until 570 s have passed. Run from the device machine's
# repository root with the bundle of build/litmus in .device-bundle and the generated tests in
# .device-bundle/peer (made below when missing); the results go to $OUT/r.tgz.
set -u
L=".device-bundle/run.sh litmus"
B=.device-bundle
R=/tmp/r2
mkdir -p "$R"
start=$(date +%s)
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1
[ -d $B/peer ] || $L gen --config gen/configs/peer-nine.yaml -o $B/peer > "$R/gen.txt"
timeout 330 $L run --gpus all -n 1e12 --sweep 8 --budget 0.25 --seed 1 --timeout 20 --max-time 300 \
  --profile /dev/null --json "$R/pass1.json" $B/peer > "$R/pass1.txt" 2> "$R/pass1.err"
echo "pass1: exit $? at $(( $(date +%s) - start )) s"
# the files of the tests whose condition the model allows and pass 1 never saw (the top-level
# keys: each sweep share has a "condition" of its own)
mapfile -t files < <(awk '/"condition":0,"conditionAllowed":true/ {
  if (match($0, /"file":"[^"]*"/)) print substr($0, RSTART + 8, RLENGTH - 9) }' "$R/pass1.json")
left=$(( 570 - ($(date +%s) - start) ))
echo "pass2: ${#files[@]} tests unseen in pass 1, $left s left"
timeout "$left" $L run --gpus all -n 1e12 --sweep 16 --budget 0.6 --seed 2 --timeout 20 \
  --max-time $(( left - 25 )) --profile /dev/null --json "$R/pass2.json" "${files[@]}" \
  > "$R/pass2.txt" 2> "$R/pass2.err"
echo "pass2: exit $? at $(( $(date +%s) - start )) s"
grep -hE "^(Timing|Coverage|Summary|Test .*(timeout|error|violation))" "$R"/pass*.txt
for f in "$R"/*.json; do gzip -k "$f"; done
tar czf "${OUT:-/tmp/out}/r.tgz" -C "$R" --exclude='*.json' .
