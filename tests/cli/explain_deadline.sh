#!/usr/bin/env bash
# Explanations under a deadline. `check --explain --timeout T` on a correct pipeline finds the
# violating candidate within T (it searches with the model but one axiom), prints the axiom and
# exits 0; with a deadline too short for the check itself, the verdict is Unknown, nothing is
# claimed and it exits 3. (A deadline inside the explanation's own search, after the verdict, is
# injected in tests/checker/explain_test.cpp.)
#   bash tests/cli/explain_deadline.sh PATH-TO-LITMUS SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "$2"
test=$SRC/patterns/reference/tma-pipeline/tma-pipeline-S2-K3.yaml
out=$TMP/out
start=$(date +%s%N)
"$LITMUS" check --explain --timeout 10 "$test" >"$out" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "exit 0, got $rc" test "$rc" -eq 0
check "the verdict is printed" grep -q '^Observation tma-pipeline-S2-K3 Never' "$out"
check "the axiom is named" grep -q '^Forbidden .* violates Causality' "$out"
check "no unestablished reason" bash -c "! grep -q 'never written' '$out'"
check "ends within the timeout (${ms} ms)" test "$ms" -lt 10000
[ "$FAILED" = 0 ] || { echo "--- output:"; cat "$out"; }
"$LITMUS" check --explain --timeout 0.001 "$test" >"$out" 2>&1
rc=$?
check "a deadline before the verdict: exit 3, got $rc" test "$rc" -eq 3
check "... Unknown" grep -q '^Observation tma-pipeline-S2-K3 Unknown' "$out"
check "... no reason claimed" bash -c "! grep -q '^Forbidden' '$out'"
[ "$FAILED" = 0 ] || { echo "--- output:"; cat "$out"; }
finish
