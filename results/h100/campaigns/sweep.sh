#!/usr/bin/env bash
# The second campaign on the peer's nine families: every test under a sweep of stress
# profiles (`litmus run --sweep`), in two passes, run on the GPU machine from the repository root
# in pieces that fit the device tool's 10-minute calls (resumable: --resume with the JSON file).
#
#   results/h100/campaigns/sweep.sh LITMUS STATE OUT STEP...
#
# LITMUS: the litmus program; STATE: the folder with the generated tests (STATE/peer, from
# gen/configs/peer-nine.yaml) and the results so far (carried between calls); OUT: where copies of
# the results go. MAXTIME (seconds, default 480) bounds each step.
#   pass1  all 1,106 tests, --sweep 8, --budget 0.3 (GPU seconds per test), seed 1
#   pass2  the tests whose condition the model allows and pass 1 did not see, --sweep 16,
#          --budget 0.6, seed 2 (other profiles)
# Both start from the defaults (no profile file): the sweep draws the other profiles.
set -uo pipefail
litmus=$1 state=$2 out=$3
shift 3
maxtime=${MAXTIME:-480}
run() {  # NAME SWEEP BUDGET SEED FILES...
  local name=$1 sweep=$2 budget=$3 seed=$4 start=$(date +%s)
  shift 4
  "$litmus" run -n 1e12 --sweep "$sweep" --budget "$budget" --seed "$seed" --timeout 20 \
    --max-time "$maxtime" --resume --profile /dev/null --json "$state/$name.json" "$@" \
    >"$out/$name.txt" 2>"$out/$name.err"
  local rc=$?
  gzip -c "$state/$name.json" >"$out/$name.json.gz"
  echo "$name: exit $rc in $(( $(date +%s) - start )) s; $(wc -l <"$state/$name.json") results"
  grep -E '^(Resumed|Timing|Summary)' "$out/$name.txt"
}
# The files of pass 1's tests whose condition the model allows and whose run never satisfied it.
unseen() {
  # (the top-level keys: each sweep share has a "condition" of its own)
  awk '/"condition":0,"conditionAllowed":true/ {
         if (match($0, /"file":"[^"]*"/)) print substr($0, RSTART + 8, RLENGTH - 9) }' "$state/pass1.json"
}
for step in "$@"; do
  case $step in
    pass1) run pass1 8 0.3 1 "$state/peer" ;;
    pass2)
      mapfile -t files < <(unseen)
      echo "pass2: ${#files[@]} tests unseen in pass 1"
      run pass2 16 0.6 2 "${files[@]}" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
