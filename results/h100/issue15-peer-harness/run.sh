#!/bin/bash
# run.sh SECONDS OUTDIR
# Runs each of the 12 peer litmus variants (cuda-litmus @805e221, built for sm_90) for
# SECONDS of wall time each, drawing a fresh random stress config per invocation exactly
# like their tune.sh (random_config 1024 256; testIterations=1000), and invoking the
# runner the way tune.sh does:  <runner> -s <stress params file> -t params/2-loc.txt
# Needs only the CUDA driver (binaries link cudart statically). No bc, no nvcc.
#
# Optional env: BIN_DIR (default <script dir>/bin), VARIANTS (space-separated subset of names).

set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 SECONDS OUTDIR" >&2
  exit 1
fi

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUDGET=$1
OUTDIR=$2
BIN_DIR=${BIN_DIR:-"$HERE/bin"}
TEST_PARAMS="$HERE/params/2-loc.txt"   # all of iriw/wrc/wwc use 2-loc.txt in their tuning-files

case "$BUDGET" in ''|*[!0-9]*) echo "SECONDS must be a non-negative integer" >&2; exit 1;; esac
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"

ALL_VARIANTS="
iriw_TB_0_1_2_3_SCOPE_DEVICE_NO_FENCE_RELAXED
isa2_TB_0_1_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_ALL_FENCE
z6_3_TB_0_12_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_ALL_FENCE
iriw_TB_012_3_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_3_FENCE
iriw_TB_01_2_3_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_3_FENCE
iriw_TB_0_12_3_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_3_FENCE
iriw_TB_012_3_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_BOTH_FENCE
wrc_TB_01_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wrc_TB_1_02_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wrc_TB_0_1_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wrc_TB_01_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_BOTH_FENCE
wwc_TB_01_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wwc_TB_1_02_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wwc_TB_0_1_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_THREAD_2_FENCE_ACQ
wwc_TB_01_2_SCOPE_DEVICE_FENCE_SCOPE_BLOCK_BOTH_FENCE
"
VARIANTS=${VARIANTS:-$ALL_VARIANTS}

# ---- param drawing: same as tune.sh ------------------------------------------------
function make_even() {
  if (( $1 % 2 == 0 )); then echo "$1"; else echo "$(($1 + 1))"; fi
}

# Random number between min and max (inclusive), same formula as tune.sh
function random_between() {
  local min=$1
  local max=$2
  local range=$((max - min + 1))
  echo "$((RANDOM % range + min))"
}

# random_config workgroupLimiter workgroupSizeLimiter PARAM_FILE
function random_config() {
  local workgroupLimiter=$1
  local workgroupSizeLimiter=$2
  local PARAM_FILE=$3

  echo "testIterations=1000" > "$PARAM_FILE"
  local testingWorkgroups=$(random_between 4 $workgroupLimiter)
  echo "testingWorkgroups=$testingWorkgroups" >> "$PARAM_FILE"
  local maxWorkgroups=$(random_between $testingWorkgroups $workgroupLimiter)
  echo "maxWorkgroups=$maxWorkgroups" >> "$PARAM_FILE"
  # ensures total threads is divisible by 2
  local workgroupSize=$(make_even $(random_between 1 $workgroupSizeLimiter))
  echo "workgroupSize=$workgroupSize" >> "$PARAM_FILE"
  echo "shufflePct=$(random_between 0 100)" >> "$PARAM_FILE"
  echo "barrierPct=$(random_between 0 100)" >> "$PARAM_FILE"
  local base=$(random_between 2 10)
  local stressLineSize=$((base * base))          # tune.sh: echo "$(random_between 2 10)^2" | bc
  echo "stressLineSize=$stressLineSize" >> "$PARAM_FILE"
  local stressTargetLines=$(random_between 1 16)
  echo "stressTargetLines=$stressTargetLines" >> "$PARAM_FILE"
  echo "scratchMemorySize=$((32 * stressLineSize * stressTargetLines))" >> "$PARAM_FILE"
  echo "memStride=$(random_between 1 7)" >> "$PARAM_FILE"
  echo "memStressPct=$(random_between 0 100)" >> "$PARAM_FILE"
  echo "memStressIterations=$(random_between 0 1024)" >> "$PARAM_FILE"
  echo "memStressPattern=$(random_between 0 3)" >> "$PARAM_FILE"
  echo "preStressPct=$(random_between 0 100)" >> "$PARAM_FILE"
  echo "preStressIterations=$(random_between 0 128)" >> "$PARAM_FILE"
  echo "preStressPattern=$(random_between 0 3)" >> "$PARAM_FILE"
  echo "stressAssignmentStrategy=$(random_between 0 1)" >> "$PARAM_FILE"
  echo "permuteThread=419" >> "$PARAM_FILE"
}

now_s() { date +%s.%N; }
# elapsed seconds (integer ms) between two date +%s.%N stamps, without bc
ms_between() {
  local a=$1 b=$2
  local as=${a%.*} an=${a#*.} bs=${b%.*} bn=${b#*.}
  an=${an:0:3}; bn=${bn:0:3}
  echo $(( (bs*1000 + 10#$bn) - (as*1000 + 10#$an) ))
}

if [ ! -f "$TEST_PARAMS" ]; then echo "missing $TEST_PARAMS" >&2; exit 1; fi
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUTDIR/gpu.txt" 2>&1
fi

SUMMARY="$OUTDIR/summary.txt"
: > "$SUMMARY"
budget_ms=$((BUDGET * 1000))

for name in $VARIANTS; do
  bin="$BIN_DIR/$name"
  log="$OUTDIR/$name.log"
  pfile="$OUTDIR/params.$name.txt"
  : > "$log"
  if [ ! -x "$bin" ]; then
    echo "missing binary $bin" >&2
    printf '%s iterations=0 weak=0 total=0 wall_s=0 failed=0 zero_total=0 MISSING\n' "$name" | tee -a "$SUMMARY"
    continue
  fi
  iters=0; weak_sum=0; total_sum=0; failed=0; zero_total=0; consec_fail=0
  t0=$(now_s)
  while :; do
    el=$(ms_between "$t0" "$(now_s)")
    (( el >= budget_ms )) && break
    random_config 1024 256 "$pfile"
    {
      echo "Iteration: $iters"
      echo "# params: $(tr '\n' ' ' < "$pfile")"
    } >> "$log"
    tparams=$TEST_PARAMS
    case "$name" in isa2_* | z6_3_*) tparams="$HERE/params/3-loc.txt" ;; esac  # as their tuning-files say
    res=$("$bin" -s "$pfile" -t "$tparams" 2>&1)
    rc=$?
    echo "$res" >> "$log"
    w=$(echo "$res" | sed -n 's/^Number of weak behaviors: \([0-9-]*\)$/\1/p' | tail -n 1)
    t=$(echo "$res" | sed -n 's/^Total behaviors: \([0-9-]*\)$/\1/p' | tail -n 1)
    r=$(echo "$res" | sed -n 's/^Weak behavior rate: \(.*\) per second$/\1/p' | tail -n 1)
    if [ $rc -ne 0 ] || [ -z "$w" ] || [ -z "$t" ]; then
      failed=$((failed + 1)); consec_fail=$((consec_fail + 1))
      echo "  Test $name FAILED rc=$rc" >> "$log"
      if (( consec_fail >= 10 )); then
        echo "$name: 10 consecutive failed invocations, giving up on this variant" >&2
        iters=$((iters + 1)); break
      fi
    else
      consec_fail=0
      weak_sum=$((weak_sum + w)); total_sum=$((total_sum + t))
      (( t == 0 )) && zero_total=$((zero_total + 1))
      # same line format as tune.sh prints
      echo "  Test $name weak: $w, total: $t, rate: $r per second" >> "$log"
    fi
    iters=$((iters + 1))
  done
  el=$(ms_between "$t0" "$(now_s)")
  printf '%s iterations=%d weak=%d total=%d wall_s=%d.%03d failed=%d zero_total=%d\n' \
    "$name" "$iters" "$weak_sum" "$total_sum" $((el / 1000)) $((el % 1000)) "$failed" "$zero_total" | tee -a "$SUMMARY"
done
