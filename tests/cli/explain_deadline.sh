#!/usr/bin/env bash
# An explanation cut off by its deadline claims nothing: `check --explain --timeout T` on a
# correct pipeline whose violating candidate is not found in time prints the verdict, says the
# explanation is Unknown and why, never "the values it needs are never written", and exits 3.
#   bash tests/cli/explain_deadline.sh PATH-TO-LITMUS SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "$2"
test=$SRC/patterns/reference/tma-pipeline/tma-pipeline-S2-K3.yaml
out=$TMP/out
start=$(date +%s%N)
"$LITMUS" check --explain --timeout 1 "$test" >"$out" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "exit 3 (Unknown), got $rc" test "$rc" -eq 3
check "the verdict is printed" grep -q '^Observation tma-pipeline-S2-K3 Never' "$out"
check "the explanation says it was cut off" grep -q 'Unknown: the search .* was cut off (timeout after 1' "$out"
check "no unestablished reason" bash -c "! grep -q 'never written' '$out'"
check "ends within the timeout + 1 s (${ms} ms)" test "$ms" -lt 2500
[ "$FAILED" = 0 ] || { echo "--- output:"; cat "$out"; }
finish
