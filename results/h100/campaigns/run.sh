#!/usr/bin/env bash
# The campaigns on the peer's nine families and the Hopper campaign, run on the GPU machine from
# the repository root in pieces that fit the device tool's 10-minute calls (every run is
# resumable: --resume with its JSON file):
#
#   results/h100/campaigns/run.sh LITMUS STATE OUT STEP...
#
# LITMUS is the litmus program (on a bare GPU machine: .device-bundle/run.sh litmus), STATE the
# folder holding the generated tests (STATE/peer from gen/configs/peer-nine.yaml, STATE/hopper
# from gen/configs/hopper.yaml) and the results so far (STATE/*.json, carried between calls),
# OUT where copies of the results go. MAXTIME (seconds, default 500) bounds each run step.
#   overhead  per-test overhead: 60 catalogue shapes with the persistent worker and with a
#             worker per test (bench/campaign overhead), 1e7 instances, --budget 0.05
#   peerA     the peer's nine families, the single tuned profile (results/h100/litmus-gpu.profile),
#             --budget 0.1 s of GPU time per test
#   tune      per-family tuning on the peer tests (8 trials, 4 tests a family, 0.1 s a run)
#             into STATE/families.profile, which starts from the single tuned profile
#   peerB     the peer's nine families again with each family's tuned profile, --budget 0.1
#   hopper    the Hopper campaign, the single tuned profile, --budget 0.05
set -uo pipefail
litmus=$1 state=$2 out=$3
shift 3
maxtime=${MAXTIME:-500}
run() {  # NAME PROFILE BUDGET DIR
  local start=$(date +%s)
  "$litmus" run -n 1e11 --budget "$3" --seed 1 --timeout 10 --max-time "$maxtime" --resume \
    --profile "$2" --json "$state/$1.json" "$4" >"$out/$1.txt" 2>"$out/$1.err"
  local rc=$?
  cp "$state/$1.json" "$out/"
  echo "$1: exit $rc in $(( $(date +%s) - start )) s; $(wc -l <"$state/$1.json") results"
  grep -E '^(Resumed|Timing|Summary)' "$out/$1.txt"
}
for step in "$@"; do
  case $step in
    overhead)
      bench/campaign make /tmp/c60 60 >/dev/null
      bench/campaign overhead "$litmus" /tmp/c60 "$out" -n 1e7 --budget 0.05 --timeout 30 2>&1 | tail -8 ;;
    peerA) run peer-A results/h100/litmus-gpu.profile 0.1 "$state/peer" ;;
    tune)
      [ -f "$state/families.profile" ] || cp results/h100/litmus-gpu.profile "$state/families.profile"
      start=$(date +%s)
      "$litmus" run --tune --per-family --trials 8 -n 1e11 --budget 0.1 --seed 1 --timeout 10 \
        --profile "$state/families.profile" "$state/peer" >"$out/tune.txt" 2>&1
      echo "tune: exit $? in $(( $(date +%s) - start )) s"; tail -3 "$out/tune.txt"
      cp "$state/families.profile" "$out/" ;;
    peerB) run peer-B "$state/families.profile" 0.1 "$state/peer" ;;
    hopper) run hopper results/h100/litmus-gpu.profile 0.05 "$state/hopper" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
