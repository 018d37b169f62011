#!/usr/bin/env bash
# `litmus suite -j 1` against `-j N` over the dat3m PTX corpus as .ci/conformance runs it (its
# EXPECTED.tsv and LIVENESS.tsv), the engine `auto` unless given: the wall-clock time of each
# (best of R runs, alternating so that a change in the machine's load hits both), the speedup,
# the CPU time, and whether the two print the same bytes (they must: docs/scale.md).
#   bench/parallel.sh [CORPUS_DIR] [JOBS] [RUNS]   (defaults: ../shared/corpus/dat3m-ptx, 2, 3)
# Environment: LITMUS (default build/litmus), ENGINE (default auto).
# Exit: 0, or 1 when the outputs differ.
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus/dat3m-ptx}
[ -d "$corpus" ] || [ -n "${1:-}" ] || corpus=/work/shared/corpus/dat3m-ptx
jobs=${2:-2}
runs=${3:-3}
litmus=${LITMUS:-build/litmus}
engine=${ENGINE:-auto}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
suite() {  # suite J OUT: prints "wall_ms cpu_ms" (cpu: user + system of litmus)
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$litmus" suite -j "$1" --engine "$engine" "$corpus" --expected "$corpus/EXPECTED.tsv" \
    --liveness "$corpus/LIVENESS.tsv" >"$2" 2>&1; } 2>&1 )
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%d %d\n", a[1] * 1000, (a[2] + a[3]) * 1000 }'
}
if [ ! -f "$corpus/EXPECTED.tsv" ]; then
  echo "bench/parallel.sh: $corpus: no corpus (EXPECTED.tsv) there" >&2
  exit 2
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# What the machine gives this session now: N busy loops for 3 s; their CPU time over the wall
# time is the cores a perfectly parallel program would get (on a loaded machine with autogroup
# scheduling, a session's share does not grow with its threads).
calibrate() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time (for _ in $(seq 1 "$jobs"); do
    bash -c 'end=$((SECONDS + 3)); while [ $SECONDS -lt $end ]; do :; done' & done; wait); } 2>&1 )
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.2f", (a[2] + a[3]) / a[1] }'
}
echo "cores this session gets ($jobs busy loops, 3 s): $(calibrate)"
echo "corpus: $(find "$corpus" -name '*.litmus' | wc -l) files, engine $engine"
best1="" bestN="" same=yes
for r in $(seq 1 "$runs"); do
  read -r w1 c1 < <(suite 1 "$tmp/out1.$r")
  read -r wN cN < <(suite "$jobs" "$tmp/outN.$r")
  cmp -s "$tmp/out1.1" "$tmp/out1.$r" && cmp -s "$tmp/out1.1" "$tmp/outN.$r" || same=no
  echo "run $r: -j 1 ${w1} ms (cpu ${c1} ms), -j $jobs ${wN} ms (cpu ${cN} ms)"
  { [ -z "$best1" ] || [ "$w1" -lt "$best1" ]; } && best1=$w1
  { [ -z "$bestN" ] || [ "$wN" -lt "$bestN" ]; } && bestN=$wN
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "summary line: $(tail -n 1 "$tmp/out1.1")"
awk -v a="$best1" -v b="$bestN" -v j="$jobs" -v r="$runs" \
  'BEGIN { printf "best of %d: -j 1 %.2f s, -j %d %.2f s, speedup %.2fx\n", r, a / 1000, j, b / 1000, a / b }'
echo "same bytes (every run, -j 1 and -j $jobs): $same"
# What -j N can gain at most on an idle machine with N free cores: the per-test times of a serial
# run, handed in file order to N workers as the pool does (suite/parallel.h).
"$litmus" suite --json -j 1 --engine "$engine" "$corpus" --expected "$corpus/EXPECTED.tsv" \
  --liveness "$corpus/LIVENESS.tsv" 2>/dev/null | python3 -c '
import heapq, json, sys
n = int(sys.argv[1])
times = [json.loads(l)["outcome"].get("seconds", 0) for l in sys.stdin if l.strip()]
free = [0.0] * n
for t in times:
    heapq.heapreplace(free, free[0] + t)
total, span = sum(times), max(free)
print("schedule bound: tests %.2f s in all, longest %.2f s; %d workers in file order %.2f s: at most %.2fx"
      % (total, max(times), n, span, total / span))' "$jobs"
[ "$same" = yes ]
