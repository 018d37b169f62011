#!/usr/bin/env bash
# .ci/conformance must fail, naming the test, whenever the thing it measures breaks. It runs on
# copies of the small corpus beside this script (corpus/, its TSVs, and corpus-level): intact it
# passes; with a file deleted, an expectation flipped, a level raised, or a litmus that crashes on,
# disagrees about or leaves out one test (fake_litmus.sh), it fails.
#   tests/conformance/run.sh LITMUS_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
lib_litmus "$1"
litmus=$LITMUS
tmp=$TMP

# A fresh copy of the corpus and its level file, as $tmp/NAME and $tmp/NAME.level.
fresh() {
  cp -r "$here/corpus" "$tmp/$1"
  cp "$here/corpus-level" "$tmp/$1.level"
}

# conformance NAME [VAR=value...]: .ci/conformance on $tmp/NAME; its output goes to $tmp/NAME.out.
conformance() {
  local name=$1
  shift
  env LITMUS="$litmus" CONFORMANCE_LEVEL="$tmp/$name.level" CONFORMANCE_JUNIT="$tmp/$name.xml" \
    "$@" bash "$root/.ci/conformance" "$tmp/$name" >"$tmp/$name.out" 2>&1
}

bad() { notok "$1: $2" "$(cat "$tmp/$1.out")"; }

# expect_fail NAME TEXT...: the run failed and its output contains each TEXT.
expect_fail() {
  local name=$1
  shift
  if [ "$conformance_status" = 0 ]; then bad "$name" "conformance passed"; return; fi
  for text in "$@"; do
    if ! grep -qF -- "$text" "$tmp/$name.out"; then bad "$name" "no '$text' in the output"; return; fi
  done
  ok "$name (failed as it must: status $conformance_status)"
}

run_case() {  # run_case NAME [VAR=value...]
  conformance "$@"
  conformance_status=$?
}

# Intact: every count complete, and the JUnit report written.
fresh intact
run_case intact
if [ "$conformance_status" != 0 ]; then
  bad intact "status $conformance_status"
elif ! grep -qF "core (no barrier, no proxy) 5/5 = 100.0%; all with expectation 6/6 = 100.0%; liveness 3/3 = 100.0%" "$tmp/intact.out"; then
  bad intact "unexpected counts"
elif [ ! -s "$tmp/intact.xml" ]; then
  bad intact "no JUnit report"
else
  ok intact
fi

fresh deleted
rm "$tmp/deleted/core/sb-fence-sc.litmus"
run_case deleted
expect_fail deleted "FATAL core/sb-fence-sc.litmus" "all with expectation 5/6"

fresh verdict-flipped
sed -i 's|^core/mp-relaxed.litmus\(.*\)reachable$|core/mp-relaxed.litmus\1unreachable|' \
  "$tmp/verdict-flipped/EXPECTED.tsv"
run_case verdict-flipped
expect_fail verdict-flipped "core/mp-relaxed.litmus: FAIL: expected unreachable" \
  "core (no barrier, no proxy) 4/5" "below the recorded level"

fresh liveness-flipped
sed -i 's|may-hang$|terminates|' "$tmp/liveness-flipped/LIVENESS.tsv"
run_case liveness-flipped
expect_fail liveness-flipped "barrier/count-too-large-hang.litmus: FAIL: expected terminates" \
  "liveness 2/3"

fresh level-raised
sed -i 's/^all 6$/all 7/' "$tmp/level-raised.level"
run_case level-raised
expect_fail level-raised "all below the recorded level"

fake=(REAL_LITMUS="$litmus" LITMUS="$here/fake_litmus.sh")
fresh crash
run_case crash "${fake[@]}" FAKE_MODE=crash FAKE_TEST=core/mp-relaxed.litmus
expect_fail crash "killed by signal 11" "FATAL core/mp-relaxed.litmus: no result"

fresh disagree
run_case disagree "${fake[@]}" FAKE_MODE=disagree FAKE_TEST=core/corr-unlisted.litmus
expect_fail disagree "FATAL core/corr-unlisted.litmus: engines disagree"

fresh dropped
run_case dropped "${fake[@]}" FAKE_MODE=drop FAKE_TEST=core/atom-add-twice.litmus
expect_fail dropped "FATAL core/atom-add-twice.litmus: no result"

finish
