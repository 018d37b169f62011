#!/usr/bin/env bash
# The third campaign on the peer's nine families: the harness's touches of the tests' own
# lines (profile keys prefetchPct, lineStressPct and lineStressOps; docs/gpu-runner.md, "Prefetch
# and line stress"), on the tests no earlier run had seen, on the tests the peer saw and we did not,
# and on the tests whose condition the model forbids (a soundness check of the techniques on
# hardware). Run on the GPU machine from the repository root, in steps that fit the device tool's
# 10-minute calls.
#
#   results/h100/campaigns/third.sh LITMUS STATE OUT STEP...
#
# STATE holds the generated tests (STATE/peer, gen/configs/peer-nine.yaml) and STATE/lists (a copy of
# results/h100/campaigns/third-lists, whose lists name the tests as STATE=.campaign):
# unseen1.txt (allowed tests no earlier run had seen, from litmuspy/peer_compare.py's inputs),
# forbidden.txt (the tests the model forbids), miss.txt (allowed tests the peer saw and no earlier run
# of ours did), controls.txt (20 tests we saw, the A/B controls of docs/peer-gap.md section 4) and
# the profiles. MAXTIME (default 480 s) bounds each step.
#   pf1    unseen1 + forbidden, prefetchPct = 100 (other keys: defaults), 0.1 GPU s per test, seed 3
#   line8, line32, line128   miss + controls, lineStressPct = 100 with 8, 32, 128 reductions, 0.3 s
#   profA  unseen-multi (allowed tests in more than one CTA that no run had seen, after line*), under
#          profA.profile (the sweep share that saw the most rarely seen tests), 1 s per test, seed 6
#   long   long.txt (4 IRIW, 4 WRC, 4 WWC tests the peer saw with .gpu accesses and .cta fences),
#          --sweep 16 from the defaults, 35 s per test, seed 7: is any of them seen with 100x the time?
#   linef  forbidden, lineStressPct = 100, 32 reductions, 0.1 s
#   pf2    unseen2 (what pf1 left unseen), --sweep 8 from a prefetch profile, 0.4 s per test, seed 4
set -uo pipefail
litmus=$1 state=$2 out=$3
shift 3
maxtime=${MAXTIME:-480}
run() {  # NAME PROFILE SWEEP BUDGET SEED LIST...
  local name=$1 profile=$2 sweep=$3 budget=$4 seed=$5 start=$(date +%s)
  shift 5
  local files=()
  for list in "$@"; do mapfile -t -O "${#files[@]}" files <"$list"; done
  "$litmus" run -n 1e12 --sweep "$sweep" --budget "$budget" --seed "$seed" --timeout 20 \
    --max-time "$maxtime" --resume --profile "$profile" --json "$state/$name.json" "${files[@]}" \
    >"$out/$name.txt" 2>"$out/$name.err"
  local rc=$?
  gzip -c "$state/$name.json" >"$out/$name.json.gz"
  echo "$name: exit $rc in $(( $(date +%s) - start )) s; $(wc -l <"$state/$name.json") results of ${#files[@]}"
  grep -E '^(Resumed|Timing|Summary)' "$out/$name.txt"
}
# The files of a step's tests whose condition the model allows and whose run never satisfied it.
unseen() {
  awk '/"condition":0,"conditionAllowed":true/ {
         if (match($0, /"file":"[^"]*"/)) print substr($0, RSTART + 8, RLENGTH - 9) }' "$state/$1.json"
}
for step in "$@"; do
  case $step in
    pf1) run pf1 "$state/lists/prefetch.profile" 1 0.1 3 "$state/lists/unseen1.txt" "$state/lists/forbidden.txt" ;;
    pf2)
      unseen pf1 >"$state/lists/unseen2.txt"
      run pf2 "$state/lists/prefetch.profile" 8 0.4 4 "$state/lists/unseen2.txt" ;;
    line8 | line32 | line128)  # A/B against results/h100/campaigns/ab-base.json.gz (same seed, defaults)
      run "$step" "$state/lists/$step.profile" 1 0.3 1 "$state/lists/miss.txt" "$state/lists/controls.txt" ;;
    profA) run profA "$state/lists/profA.profile" 1 1.0 6 "$state/lists/unseen-multi.txt" ;;
    long) run long /dev/null 16 35 7 "$state/lists/long.txt" ;;
    linef) run linef "$state/lists/line32.profile" 1 0.1 5 "$state/lists/forbidden.txt" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
