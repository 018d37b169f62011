#!/usr/bin/env bash
# Reproduces the files in results/h100/ on a GPU machine, from the repository root:
#
#   results/h100/run.sh LITMUS OUTDIR STEP...
#
# LITMUS is the litmus program (on a machine without our libraries, a wrapper around the bundle's
# run.sh, see ../shared/docs/gpu-testing.md); STEP is one or more of
#   tune         litmus run --tune on MP, SB, LB (.relaxed.gpu): OUTDIR/litmus-gpu.profile
#   bench        bench/gpu with the built-in profile and with the tuned one
#   conformance  the whole catalogue, 1e8 instances per test, with the tuned profile
#                (OUTDIR/catalog.json, .txt, .err); `python3 -m litmuspy.summarize DIR` makes summary.md
#   patterns     the pattern library's reference sizes, 1e8 instances per test (OUTDIR/patterns.*)
#   proxy        the two catalogue tests of the consumer release before an async-proxy refill
#                (docs/model.md D36), 1e9 instances each (OUTDIR/proxy.*)
set -uo pipefail
litmus=$1
out=$2
shift 2
profile=${PROFILE:-$out/litmus-gpu.profile}  # PROFILE: use a saved one
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "commit: ${COMMIT:-unknown}"
  echo "gpu: $(nvidia-smi -L 2>/dev/null | head -1)"
  echo "steps: $*"
  echo "profile: $profile"
} >"$out/run.txt"
for step in "$@"; do
  case $step in
    tune)
      "$litmus" run --tune --trials 24 -n 2e7 --seed 1 --profile "$profile" >"$out/tune.txt" 2>&1
      echo "tune: exit $?" ;;
    bench)
      bench/gpu "$litmus" 1e9 >"$out/bench-builtin.txt" 2>&1
      echo "bench (built-in profile): exit $?"
      bench/gpu "$litmus" 1e9 -- --profile "$profile" >"$out/bench-tuned.txt" 2>&1
      echo "bench (tuned profile): exit $?" ;;
    conformance)
      start=$(date +%s)
      echo "conformance: litmus run -n 1e8 --seed 1 --timeout 10 --profile $profile --json catalog.json catalog" >>"$out/run.txt"
      "$litmus" run -n 1e8 --seed 1 --timeout 10 --profile "$profile" --json "$out/catalog.json" \
        catalog >"$out/catalog.txt" 2>"$out/catalog.err"
      echo "conformance: exit $? in $(( $(date +%s) - start )) s" ;;
    patterns)
      start=$(date +%s)
      echo "patterns: litmus run -n 1e8 --seed 1 --timeout 10 --profile $profile --json patterns.json patterns/reference" >>"$out/run.txt"
      "$litmus" run -n 1e8 --seed 1 --timeout 10 --profile "$profile" --json "$out/patterns.json" \
        patterns/reference >"$out/patterns.txt" 2>"$out/patterns.err"
      echo "patterns: exit $? in $(( $(date +%s) - start )) s" ;;
    proxy)
      start=$(date +%s)
      files="catalog/async/TMA-refill-after-generic-read-no-proxy-fence.yaml catalog/async/TMA-refill-after-generic-read+fence.proxy.async.yaml"
      echo "proxy: litmus run -n 1e9 --seed 1 --timeout 60 --profile $profile --json proxy.json $files" >>"$out/run.txt"
      # shellcheck disable=SC2086
      "$litmus" run -n 1e9 --seed 1 --timeout 60 --profile "$profile" --json "$out/proxy.json" \
        $files >"$out/proxy.txt" 2>"$out/proxy.err"
      echo "proxy: exit $? in $(( $(date +%s) - start )) s" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
