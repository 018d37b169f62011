#!/usr/bin/env bash
# Issue 15: both harnesses on one GPU, on the stratified sample of sample.tsv (written by
# results/same_machine_sample.py), with the same time per variant. Run on the GPU machine from
# the repository root, in pieces that fit the device tool's 10-minute calls:
#
#   run.sh peer PEERDIR SAMPLE SECONDS SUMMARY [FIRST LAST]
#       The peer's harness, built outside this repository (README.md: PEERDIR holds bin/VARIANT
#       and their params/). Each variant runs for SECONDS
#       of wall time, each call of their runner with a fresh random stress configuration drawn
#       from the ranges of their tune.sh (random_config 1024 256; 1000 iterations per call) and
#       invoked as tune.sh invokes it (-s STRESS -t params/<n>-loc.txt). Variants FIRST..LAST
#       (1-based, sample order) only; those already in SUMMARY are skipped. One SUMMARY line per
#       variant: name, calls, weak, instances, wall ms, failed calls.
#   run.sh ours LITMUS SAMPLE SECONDS JSON TESTDIR [MAXTIME]
#       Our runner on the sample's tests (each test once, even where it stands for several of
#       the peer's variants): --sweep 16 from the built-in profile, SECONDS GPU seconds per test,
#       seed 15, resumable through JSON, no test started after MAXTIME s (default 420).
set -uo pipefail

draw() {  # a stress configuration, the ranges of the peer's tune.sh (their random_config 1024 256)
  local wgs=$((RANDOM % 1021 + 4))
  local maxwgs=$((RANDOM % (1024 - wgs + 1) + wgs))
  local size=$((RANDOM % 256 + 1)); size=$((size + size % 2))
  local base=$((RANDOM % 9 + 2)); local line=$((base * base)) lines=$((RANDOM % 16 + 1))
  printf '%s\n' testIterations=1000 "testingWorkgroups=$wgs" "maxWorkgroups=$maxwgs" \
    "workgroupSize=$size" "shufflePct=$((RANDOM % 101))" "barrierPct=$((RANDOM % 101))" \
    "stressLineSize=$line" "stressTargetLines=$lines" "scratchMemorySize=$((32 * line * lines))" \
    "memStride=$((RANDOM % 7 + 1))" "memStressPct=$((RANDOM % 101))" \
    "memStressIterations=$((RANDOM % 1025))" "memStressPattern=$((RANDOM % 4))" \
    "preStressPct=$((RANDOM % 101))" "preStressIterations=$((RANDOM % 129))" \
    "preStressPattern=$((RANDOM % 4))" "stressAssignmentStrategy=$((RANDOM % 2))" permuteThread=419
}

ms() { date +%s%3N; }

peer_variant() {  # DIR VARIANT PARAMS SECONDS -> one summary line
  local dir=$1 v=$2 params=$3 budget=$(($4 * 1000)) calls=0 weak=0 total=0 failed=0
  local stress t0; stress=$(mktemp); t0=$(ms)
  while (( $(ms) - t0 < budget )); do
    draw >"$stress"
    local res w t
    res=$(LD_LIBRARY_PATH="$dir" "$dir/bin/$v" -s "$stress" -t "$dir/params/$params" 2>&1)
    local rc=$?
    w=$(sed -n 's/^Number of weak behaviors: \([0-9]*\)$/\1/p' <<<"$res" | tail -n 1)
    t=$(sed -n 's/^Total behaviors: \([0-9]*\)$/\1/p' <<<"$res" | tail -n 1)
    calls=$((calls + 1))
    # Their runner checks no CUDA call: where one fails it prints whatever its buffers held. A
    # call counts only if it exited 0 and its numbers fit the launch (at most one instance per
    # testing thread and iteration).
    local cap=$((1000 * $(sed -n 's/^testingWorkgroups=//p' "$stress") \
                      * $(sed -n 's/^workgroupSize=//p' "$stress")))
    if (( rc != 0 )) || [ -z "$w" ] || [ -z "$t" ] || (( t > cap || w > t )); then
      failed=$((failed + 1)); continue
    fi
    weak=$((weak + w)) total=$((total + t))
  done
  rm -f "$stress"
  printf '%s\t%d\t%d\t%d\t%d\t%d\n' "$v" "$calls" "$weak" "$total" $(($(ms) - t0)) "$failed"
}

peer() {
  local dir=$1 sample=$2 seconds=$3 summary=$4 first=${5:-1} last=${6:-100000} i=0
  touch "$summary"
  tail -n +2 "$sample" | cut -f3,7 | awk '!seen[$1]++' | while read -r v params; do
    i=$((i + 1))
    (( i < first || i > last )) && continue
    grep -q "^$v	" "$summary" && continue
    peer_variant "$dir" "$v" "$params" "$seconds" | tee -a "$summary"
  done
}

ours() {
  local litmus=$1 sample=$2 seconds=$3 json=$4 testdir=$5 maxtime=${6:-420}
  mapfile -t files < <(tail -n +2 "$sample" | cut -f4 | awk '!seen[$1]++' | sed "s|^|$testdir/|")
  "$litmus" run -n 1e12 --sweep 16 --budget "$seconds" --seed 15 --timeout 30 \
    --max-time "$maxtime" --resume --json "$json" "${files[@]}"
}

mode=$1; shift
case $mode in
  peer) peer "$@" ;;
  ours) ours "$@" ;;
  *) echo "usage: run.sh peer|ours ..." >&2; exit 2 ;;
esac
