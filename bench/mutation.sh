#!/usr/bin/env bash
# Mutation testing of the GPU runner (docs/mutation.md). The conformance set is the catalogue's
# tests whose condition the model forbids and that the runner can run (`litmus mutate
# --runnable`); their mutants are judged by the model, and the killable ones are what the GPU runs.
#   bench/mutation.sh generate [DIR]          mutants into DIR (default build/mutants), then the
#                                             `litmus run` command to give the GPU
#   bench/mutation.sh score RESULTS [DIR]     the mutation score of that run
# LITMUS names the program (default build/litmus).
set -euo pipefail
cd "$(dirname "$0")/.."
litmus=${LITMUS:-build/litmus}
mode=${1:-}

case "$mode" in
  generate)
    dir=${2:-build/mutants}
    rm -rf "$dir"
    nice "$litmus" mutate --runnable -o "$dir" catalog
    n=$(find "$dir/killable" -name '*.yaml' | wc -l)
    echo
    echo "On the GPU ($n killable mutants; about 0.4 s each with start-up):"
    echo "  $litmus run $dir/killable -n 1e7 --seed 1 --timeout 10 --profile results/h100/litmus-gpu.profile --json $dir/results.json > $dir/run.txt"
    echo "Then: bench/mutation.sh score $dir/results.json $dir"
    ;;
  score)
    results=${2:?RESULTS (the --json file of the run) is required}
    dir=${3:-build/mutants}
    "$litmus" mutate --score "$results" "$dir/index.tsv"
    ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
