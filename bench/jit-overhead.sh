#!/usr/bin/env bash
# Per-test overhead of a campaign (docs/gpu-runner.md, "The JIT off the critical path"): the same
# N tests run three times, and for each the mean per test of the JIT on the critical path, the
# other overhead and the GPU time, over all tests and in the steady state (the tests after the
# first, whose worker was running already):
#   behind: --jit-ahead 0 --jit-cache none (each test's JIT when it starts, as before issue 32)
#   ahead:  --jit-ahead 3 with an empty cache (the next tests compile while the GPU runs)
#   cached: ahead again over the cache the second run filled
# The driver's own JIT cache is off (CUDA_CACHE_DISABLE=1), so that every compilation is one.
#   bench/jit-overhead.sh [N-TESTS] [BUDGET]   (defaults: 40 catalogue shapes tests, 0.2 s)
# Environment: LITMUS (default build/litmus).
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-40} budget=${2:-0.2}
litmus=${LITMUS:-build/litmus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t tests < <(ls catalog/shapes/*.yaml | grep -v diffgpu | head -n "$n")
export CUDA_CACHE_DISABLE=1
# mean of a JSON field over the result lines; steady: skip the lines with "freshWorker":true
mean() {
  awk -v f="\"$2\":" -v steady="$3" '
    steady && /"freshWorker":true/ { next }
    { i = index($0, f); if (!i) next; split(substr($0, i + length(f)), a, /[,}]/); s += a[1]; k++ }
    END { if (k) printf "%.1f", 1000 * s / k; else printf "-" }' "$1"
}
report() {
  local json=$1 what=$2 rc=$3 wall=$4
  local k
  k=$(grep -c '"jitSeconds"' "$json")
  for steady in 0 1; do
    printf '%-7s %-6s exit %d, %d tests run, wall %.1f s (%.0f ms a test); per test: JIT %s ms, other overhead %s ms, GPU %s ms\n' \
      "$what" "$([ $steady = 1 ] && echo steady || echo all)" "$rc" "$k" "$wall" "$(awk -v w="$wall" -v k="$k" 'BEGIN { print k ? 1000 * w / k : 0 }')" \
      "$(mean "$json" jitSeconds $steady)" "$(mean "$json" overheadSeconds $steady)" "$(mean "$json" seconds $steady)"
  done
}
run() {
  local what=$1
  shift
  local start end rc
  start=$(date +%s.%N)
  "$litmus" run -n 1e9 --budget "$budget" --seed 1 --timeout 30 --json "$tmp/$what.json" "$@" "${tests[@]}" \
    >"$tmp/$what.out" 2>"$tmp/$what.err"
  rc=$?
  end=$(date +%s.%N)
  report "$tmp/$what.json" "$what" "$rc" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
  grep '^Timing' "$tmp/$what.out" | sed "s/^/$what: /"
}
echo "$("$litmus" --version 2>/dev/null | head -1); ${#tests[@]} tests, --budget $budget"
run behind --jit-ahead 0 --jit-cache none
run ahead --jit-ahead 3 --jit-cache "$tmp/cache"
run cached --jit-ahead 3 --jit-cache "$tmp/cache"
