#!/usr/bin/env bash
# `litmus report` in a real browser: the page is made from a GPU run's lines (tests/report/run.json,
# four tests of the H100 catalogue run, gzip-compressed here) and a live `litmus check --json`,
# loaded in headless Chromium, and the content its script draws is asserted on; a screenshot must
# come out. Bad input: exit 2, FILE:LINE:COL, nothing written. Exits 77 (skipped) only where
# Chromium is not installed.
#   browser.sh LITMUS SOURCE_DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "$2"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium is not installed (scripts/setup.sh installs it)"; exit 77; }
cd "$SRC" || exit 2
gzip -c tests/report/run.json >"$TMP/run.json.gz"
"$LITMUS" check --json tests/cli/golden/MP+rel.gpu+acq.gpu.yaml >"$TMP/check.json"
"$LITMUS" report "$TMP/run.json.gz" "$TMP/check.json" -o "$TMP/r.html" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] && [ -s "$TMP/r.html" ]
ok_if $? "report writes the page (exit 0)" "exit $rc" "$(cat "$TMP/err")"
! grep -Eiq '(src|href)="(https?:)?//|@import|url\(' "$TMP/r.html"
ok_if $? "the page references nothing outside itself" "$(grep -Eio '(src|href)="(https?:)?//[^"]*' "$TMP/r.html" | head -3)"

# Headless Chromium runs the page's script; --dump-dom prints the DOM it drew.
chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }
chrome --dump-dom "file://$TMP/r.html" >"$TMP/dom.html"
cell() { grep -o "<td id=\"$1\">[^<]*</td>" "$TMP/dom.html" | sed 's/<[^>]*>//g'; }
[ "$(cell sum-run-tests)" = 4 ] && [ "$(cell sum-run-ok)" = 2 ] && [ "$(cell sum-run-violation)" = 1 ] &&
  [ "$(cell sum-run-refused)" = 1 ] && [ "$(cell sum-check-tests)" = 1 ] && [ "$(cell sum-check-never)" = 1 ]
ok_if $? "the summary tables, as the script fills them in" \
  "run: $(cell sum-run-tests) tests, $(cell sum-run-ok) ok, $(cell sum-run-violation) violation, $(cell sum-run-refused) refused" \
  "check: $(cell sum-check-tests) tests, $(cell sum-check-never) Never"
grep -q 'data-rendered="5"' "$TMP/dom.html" && [ "$(grep -o '<section class="test' "$TMP/dom.html" | wc -l)" -eq 5 ]
ok_if $? "a section per result (5)" "$(grep -o 'data-rendered="[0-9]*"' "$TMP/dom.html")"
# The violation's histogram: its forbidden states marked, the condition starred by class.
grep -q 'class="bar-row forbidden' "$TMP/dom.html" && grep -q 'class="bar-row allowed' "$TMP/dom.html" &&
  grep -q 'class="bar-row [a-z]* cond"' "$TMP/dom.html"
ok_if $? "histogram bars: allowed, forbidden, condition marked" "$(grep -o 'class="bar-row[^"]*"' "$TMP/dom.html" | sort | uniq -c)"
grep -q 'Allowed by the model, never observed (1):' "$TMP/dom.html" && grep -q '<li>P1:r0=1; P1:r1=0</li>' "$TMP/dom.html"
ok_if $? "the model's states never observed (MP+alias-nofence: P1:r0=1; P1:r1=0)"
grep -q 'States the model allows (3):' "$TMP/dom.html" && grep -q 'Data races (' "$TMP/dom.html"
ok_if $? "the check's states (3) and races"
grep -q '<div class="family-group" data-family="alias"><h3 class="family">Family alias (' "$TMP/dom.html" &&
  ! grep -q 'class="siblings"' "$TMP/dom.html"
ok_if $? "the tests grouped by family (alias), no links repeated in every section" "$(grep -o '<div class="family-group".\{0,120\}' "$TMP/dom.html" | head -3)"
if command -v dot >/dev/null; then
  n=$(grep -o '<div class="graph"><svg' "$TMP/dom.html" | wc -l)
  [ "$n" -eq 3 ] && grep -q 'phase [0-9]*, pending' "$TMP/dom.html"
  ok_if $? "execution graphs of the forbidden outcomes as inline SVG (3), mbarrier values decoded" "graphs: $n"
else
  grep -q 'id="graphviz-note"' "$TMP/dom.html"
  ok_if $? "without Graphviz the page says so"
fi
chrome --window-size=1000,900 --screenshot="$TMP/shot.png" "file://$TMP/r.html" >/dev/null
[ "$(head -c 4 "$TMP/shot.png" 2>/dev/null | tail -c 3)" = PNG ] && [ "$(stat -c %s "$TMP/shot.png")" -gt 10000 ]
ok_if $? "a screenshot (PNG) of the page" "$(ls -l "$TMP/shot.png" 2>&1)"

# A suite record whose expectation fails counts as failed (suite writes FAIL; the page used to
# compare with 'fail', and failing tests vanished from the summary).
sed 's/^expect: unreachable/expect: reachable/' tests/cli/golden/CoRR.yaml >"$TMP/CoRR-wrong.yaml"
"$LITMUS" suite --json "$TMP/CoRR-wrong.yaml" tests/cli/golden/CoRR.yaml >"$TMP/suite.json" 2>/dev/null
"$LITMUS" report "$TMP/suite.json" -o "$TMP/s.html" 2>"$TMP/err"
chrome --dump-dom "file://$TMP/s.html" >"$TMP/dom.html"
[ "$(cell sum-check-tests)" = 2 ] && [ "$(cell sum-check-failed)" = 1 ]
ok_if $? "a failing suite test counts as failed in the summary" \
  "tests $(cell sum-check-tests), failed $(cell sum-check-failed)"

# Bad input: the position of the bad line, exit 2, nothing written and an old page left as it was.
printf '%s\n' "$(head -n 1 tests/report/run.json)" '{"test": "x", oops}' >"$TMP/bad.json"
echo old >"$TMP/old.html"
"$LITMUS" report "$TMP/bad.json" -o "$TMP/old.html" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "^$TMP/bad.json:2:[0-9]*: error: not JSON" "$TMP/err" && [ "$(cat "$TMP/old.html")" = old ] &&
  [ -z "$(ls -A "$TMP" | grep '\.tmp')" ]
ok_if $? "bad JSON: FILE:LINE:COL, exit 2, the old page untouched" "exit $rc" "$(cat "$TMP/err")"
echo '{"test": "x"}' >"$TMP/neither.json"
"$LITMUS" report "$TMP/neither.json" -o "$TMP/n.html" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "neither.json:1:1: error: not a result of" "$TMP/err" && [ ! -e "$TMP/n.html" ]
ok_if $? "a line of neither kind: exit 2, nothing written" "exit $rc" "$(cat "$TMP/err")"
printf '\x1f\x8bnot gzip' >"$TMP/torn.json.gz"
"$LITMUS" report "$TMP/torn.json.gz" -o "$TMP/n.html" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$TMP/n.html" ]
ok_if $? "a broken .gz: exit 2, nothing written" "exit $rc" "$(cat "$TMP/err")"
"$LITMUS" report "$TMP/check.json" -o "$TMP/no/such/dir/r.html" 2>"$TMP/err"
[ $? -eq 2 ]
ok_if $? "an output in a missing directory: exit 2" "$(cat "$TMP/err")"

finish
