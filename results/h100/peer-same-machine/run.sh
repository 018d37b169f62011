#!/usr/bin/env bash
# Our side of both harnesses on one GPU, on the stratified sample of sample.tsv (written by
# litmuspy.same_machine_sample), with the same time per variant. Run on the GPU machine from the
# repository root, in pieces that fit the device tool's 10-minute calls. (The peer's side ran
# the peer's own harness; README.md describes how, and no script for it is kept here.)
#
#   run.sh ours LITMUS SAMPLE SECONDS JSON TESTDIR [MAXTIME]
#       Our runner on the sample's tests (each test once, even where it stands for several of
#       the peer's variants): --sweep 16 from the built-in profile, SECONDS GPU seconds per test,
#       seed 15, resumable through JSON, no test started after MAXTIME s (default 420).
set -uo pipefail

ours() {
  local litmus=$1 sample=$2 seconds=$3 json=$4 testdir=$5 maxtime=${6:-420}
  mapfile -t files < <(tail -n +2 "$sample" | cut -f4 | awk '!seen[$1]++' | sed "s|^|$testdir/|")
  "$litmus" run -n 1e12 --sweep 16 --budget "$seconds" --seed 15 --timeout 30 \
    --max-time "$maxtime" --resume --json "$json" "${files[@]}"
}

mode=$1; shift
case $mode in
  ours) ours "$@" ;;
  *) echo "usage: run.sh ours LITMUS SAMPLE SECONDS JSON TESTDIR [MAXTIME]" >&2; exit 2 ;;
esac
