#!/usr/bin/env bash
# Time to check every file of the dat3m PTX corpus in one process with the explicit engine.
#   bench/corpus.sh [CORPUS_DIR] [LITMUS]      (defaults: ../shared/corpus/dat3m-ptx, build/litmus)
# Prints the file count, how many were checked (the rest are refused with an error, e.g. features
# the model does not cover yet), and the wall-clock time of the best of three runs.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus/dat3m-ptx}
litmus=${2:-build/litmus}
files=$(find "$corpus" -name '*.litmus' | wc -l)
best=""
for run in 1 2 3; do
  t0=$(date +%s%N)
  "$litmus" check --engine explicit "$corpus" >/tmp/bench-corpus.out 2>/tmp/bench-corpus.err || true
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  echo "run $run: ${ms} ms"
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
checked=$(grep -c '^Observation ' /tmp/bench-corpus.out || true)
refused=$(grep -c 'error:' /tmp/bench-corpus.err || true)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "corpus: $files files, $checked checked, $refused refused"
awk -v ms="$best" 'BEGIN { printf "explicit engine, whole corpus, one process: %.2f s (best of 3)\n", ms / 1000 }'
