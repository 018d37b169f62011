#!/usr/bin/env bash
# `litmus run --gpus 0` against `--gpus all` on the same tests, alternating: wall time and GPU
# seconds per test of each, and the speedup. Run on a machine with several GPUs, JIT cache warm
# (run it twice, or after another run of the same tests).
#   bench/gpus.sh [N-TESTS] [COUNT] [ROUNDS]   (defaults: 40 shapes tests, 1e9, 2)
# Environment: LITMUS (default build/litmus). Numbers of 2026-11-27: docs/gpu-performance.md.
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-40} count=${2:-1e9} rounds=${3:-2}
litmus=${LITMUS:-build/litmus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t tests < <(ls catalog/shapes/*.yaml | grep -v diffgpu | head -n "$n")
for r in $(seq 1 "$rounds"); do
  for mode in 0 all; do
    start=$(date +%s.%N)
    "$litmus" run --gpus "$mode" -n "$count" --seed 1 --timeout 60 --json "$tmp/$mode.json" "${tests[@]}" >/dev/null 2>&1
    rc=$?
    end=$(date +%s.%N)
    gpu=$(awk -F'"seconds":' '{ split($2, a, ","); s += a[1]; n++ } END { printf "%.3f", s / n }' "$tmp/$mode.json")
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    echo "round $r: --gpus $mode: exit $rc, wall $wall s, GPU $gpu s per test"
    eval "w_$mode=$wall"
  done
  awk -v a="$w_0" -v b="$w_all" -v r="$r" 'BEGIN { printf "round %d: speedup %.2fx (wall)\n", r, a / b }'
done
