#!/usr/bin/env bash
# End-to-end tests of the `litmus` program: golden output, exit codes, suite/JUnit/TSV, convert,
# --graph, --timeout and the bad-input corpus, all through the command line.
#
#   bash tests/cli/run.sh PATH-TO-LITMUS [SOURCE-DIR]
#   UPDATE_GOLDEN=1 bash tests/cli/run.sh ...   # rewrite golden/*.expected, explain/*.expected
#
# Needs only bash, coreutils, diff, grep and awk; the shared checks are tests/lib.sh's. Exits 1 if
# any check failed, 2 on bad usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PATH-TO-LITMUS [SOURCE-DIR]" >&2
  exit 2
fi
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "${2:-}"
HERE=$SRC/tests/cli
BAD=$SRC/tests/bad-input
GUARD=20
# Paths in the program's output (suite lines, error messages) are relative to this directory.
cd "$HERE" || exit 2

# Timing changes from run to run, and the number of candidates examined depends on how much the
# engine prunes (an optimisation may change it without changing any result): both are masked.
normalise() {
  awk '{
    if ($1 == "Time" && NF == 3) $3 = "X.XXX";
    gsub(/"seconds":[0-9.eE+-]+/, "\"seconds\":X.XXX");
    gsub(/"candidates":[0-9]+/, "\"candidates\":N");
    print
  }'
}
# The state lines of herd-style output: those between `States N` and `Ok`/`No`.
states() {
  awk '/^States / { on = 1; next } /^(Ok|No)$/ { on = 0 } on' "$1"
}

# --- 1. golden output -------------------------------------------------------------------------
for f in golden/*.yaml golden/*.litmus; do
  base=${f%.*}
  for mode in herd json; do
    if [ $mode = json ]; then exp=$base.json.expected; lit check --json "$f"
    else exp=$base.expected; lit check "$f"; fi
    normalise <"$OUT" >"$TMP/got"
    what="golden $mode: $f"
    if [ "$RC" -ne 0 ] || [ -s "$ERR" ]; then
      notok "$what" "$(ran)"
    else
      golden "$TMP/got" "$exp" "$what"
    fi
  done
done

# Every golden test that states an expectation meets it; the herd test states none.
lit suite golden
[ "$RC" -eq 0 ] && [ "$(cat "$OUT")" = "7 passed, 0 failed (1 without expectation)" ]
ok_if $? "suite over golden/: every expectation holds" "$(ran suite golden)"

# Explanations (--explain, --explain=STATE) of catalogue tests, herd text and JSON, against
# explain/NAME.expected and explain/NAME.json.expected (UPDATE_GOLDEN=1 rewrites them).
explain_golden() {
  local name=$1 mode exp
  shift
  for mode in herd json; do
    if [ $mode = json ]; then exp=explain/$name.json.expected; lit check --json "$@"
    else exp=explain/$name.expected; lit check "$@"; fi
    normalise <"$OUT" >"$TMP/got"
    if [ "$RC" -ne 0 ] || [ -s "$ERR" ]; then
      notok "explain $mode: $name" "$(ran)"
    else
      golden "$TMP/got" "$exp" "explain $mode: $name"
    fi
  done
}
CAT=../../catalog
# allowed stale read: the flag store is relaxed, no release pattern
explain_golden MP-relaxed-flag --explain $CAT/shapes/MP+rlx.gpu+acq.gpu.yaml
# allowed stale read: .cta release and acquire in different CTAs, scope too narrow
explain_golden MP-cta-scope-diffcta --explain $CAT/shapes/MP+rel.cta+acq.cta-diffcta.yaml
# forbidden: the cause edge as po, release pattern (fence ; po), rf, acquire pattern (po ; fence), po
explain_golden MP-fences-cause-steps --explain $CAT/shapes/MP+fence.acq_rel.gpu.yaml
# a state named on the command line: forbidden with its cycle, and one no candidate reaches
explain_golden MP-fences-named-state "--explain=P1:r1=0; P1:r0=1" $CAT/shapes/MP+fence.acq_rel.gpu.yaml
explain_golden MP-unwritten-value --explain=P1:r0=7 $CAT/shapes/MP+rlx.gpu+acq.gpu.yaml
# allowed: base causality without the proxy fence that would make it causality
explain_golden constant-proxy-nofence --explain $CAT/proxy/constant-nofence.yaml
# allowed: a relaxed cluster-barrier arrival does not release
explain_golden barrier-cluster-relaxed --explain $CAT/barriers/MP+barrier.cluster.relaxed.yaml

# A state that names a term the test does not observe is bad usage: exit 2, nothing on stdout.
lit check "--explain=P1:r0=1; P1:r9=0" golden/MP+rel.gpu+acq.gpu.yaml
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] &&
  [ "$(cat "$ERR")" = "--explain:1:9: error: P1:r9 is not an observed term of the test (observed: P1:r0, P1:r1) (in golden/MP+rel.gpu+acq.gpu.yaml)" ]
ok_if $? "check --explain=STATE with a term the test does not observe: exit 2, file:line:col" \
  "$(ran check "--explain=P1:r0=1; P1:r9=0" golden/MP+rel.gpu+acq.gpu.yaml)"
lit check --explain=P1:r0 golden/MP+rel.gpu+acq.gpu.yaml
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^--explain:1:1: error: expected 'term=value'" "$ERR"
ok_if $? "check --explain=STATE without a value: exit 2" "$(ran check --explain=P1:r0 golden/MP+rel.gpu+acq.gpu.yaml)"
# The symbolic engine looks for no violating candidate: it says so rather than claim there is none.
lit check --explain --engine smt golden/MP+rel.gpu+acq.gpu.yaml
[ "$RC" -eq 0 ] && grep -qx 'Forbidden: the smt engine gives no explanation (use --engine explicit)' "$OUT"
ok_if $? "check --explain --engine smt: no explanation, and no false reason" \
  "$(ran check --explain --engine smt golden/MP+rel.gpu+acq.gpu.yaml)"
# `--explain PATH` stays a flag followed by a path (the state needs '=')
lit check --explain golden/MP+rel.gpu+acq.gpu.yaml
[ "$RC" -eq 0 ] && grep -q '^Forbidden P1:r0=1; P1:r1=0; violates Causality' "$OUT"
ok_if $? "check --explain PATH: the flag, then the path" "$(ran check --explain golden/MP+rel.gpu+acq.gpu.yaml)"

# --- 2. exit codes ----------------------------------------------------------------------------
lit check golden/CoRR.yaml
[ "$RC" -eq 0 ] && grep -qx 'Observation CoRR Never 0 3' "$OUT" && [ ! -s "$ERR" ]
ok_if $? "check exits 0 when the expectation holds" "$(ran check golden/CoRR.yaml)"

w=wrong-expect/MP+rel.gpu+acq.gpu-wrong.yaml
lit check "$w"
[ "$RC" -eq 1 ] && grep -qx 'Observation MP+rel.gpu+acq.gpu-wrong Never 0 3' "$OUT" &&
  [ "$(cat "$ERR")" = "$w: expected reachable, got observation Never (0 positive, 3 negative)" ]
ok_if $? "check exits 1 and says why when the expectation is contradicted" "$(ran check "$w")"

lit check golden/CoRR.yaml "$w" golden/SB+fence.sc.gpu.yaml
[ "$RC" -eq 1 ] && [ "$(grep -c '^Test ' "$OUT")" -eq 3 ]
ok_if $? "check of several files exits 1 when one expectation fails, and prints all three" \
  "$(ran check golden/CoRR.yaml "$w" golden/SB+fence.sc.gpu.yaml)"

b=$BAD/two-scopes.yaml
lit check "$b"
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
  grep -q "^$b:[0-9][0-9]*:[0-9][0-9]*: error: " "$ERR"
ok_if $? "bad input: exit 2, nothing on stdout, 'file:line:col: error:' on stderr" "$(ran check "$b")"

lit check golden/CoRR.yaml "$b" golden/SB+fence.sc.gpu.yaml
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q "^$b:7:22: error: " "$ERR"
ok_if $? "several files, one bad: exit 2 and nothing at all on stdout" \
  "$(ran check golden/CoRR.yaml "$b" golden/SB+fence.sc.gpu.yaml)"

lit check golden/CoRR.yaml "$BAD/missing-header.litmus" "$BAD/two-scopes.yaml"
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 2 ]
ok_if $? "several bad files: exit 2, one error line each, nothing on stdout" \
  "$(ran check golden/CoRR.yaml "$BAD/missing-header.litmus" "$BAD/two-scopes.yaml")"

lit check "$TMP/no-such-test.yaml"
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^$TMP/no-such-test.yaml: error: " "$ERR"
ok_if $? "unreadable file: exit 2, 'path: error:' on stderr" "$(ran check "$TMP/no-such-test.yaml")"

lit help
[ "$RC" -eq 0 ] && [ "$(sed -n 2p "$OUT")" = "Usage: litmus [OPTIONS] COMMAND" ] &&
  grep -q '^  check  ' "$OUT" && grep -q '^  run  ' "$OUT" && grep -q '4 > 2 > 1 > 3 > 0' "$OUT" &&
  [ ! -s "$ERR" ]
ok_if $? "help exits 0 and prints the commands and the exit statuses on stdout" "$(ran help)"

for c in check suite convert; do
  lit help "$c"
  [ "$RC" -eq 0 ] && grep -q "^Usage: litmus $c \[OPTIONS\]" "$OUT" && cp "$OUT" "$TMP/help1" &&
    lit "$c" --help && [ "$RC" -eq 0 ] && diff -q "$TMP/help1" "$OUT" >/dev/null
  ok_if $? "'litmus help $c' and 'litmus $c --help' print the same usage, exit 0" "$(ran "$c" --help)"
done
lit run --help
[ "$RC" -eq 0 ] && grep -qi '^usage: litmus run ' "$OUT" && [ ! -s "$ERR" ]
ok_if $? "'litmus run --help' reaches run's own usage, exit 0" "$(ran run --help)"

# `run` takes everything after the word unchanged: its own options reach it.
lit run --emit-ptx "$TMP/ptx" golden/CoRR.yaml
[ "$RC" -eq 0 ] && [ -n "$(ls "$TMP/ptx" 2>/dev/null)" ]
ok_if $? "'litmus run --emit-ptx DIR FILE' reaches run with its options, exit 0" "$(ran run --emit-ptx "$TMP/ptx" golden/CoRR.yaml)"

# One rule for state spaces: check and run --emit-ptx refuse the same file with the same message.
for b in global-access-to-shared-location.yaml shared-access-to-global-location.yaml; do
  lit check "$BAD/$b"; cp "$ERR" "$TMP/check.err"; rc1=$RC
  lit run --emit-ptx "$TMP/ptx-bad" "$BAD/$b"
  [ "$rc1" -eq 2 ] && [ "$RC" -eq 2 ] && [ -s "$ERR" ] && diff -q "$TMP/check.err" "$ERR" >/dev/null &&
    grep -q "^$BAD/$b:[0-9]*:[0-9]*: error: " "$ERR"
  ok_if $? "state space contradicting the location ($b): check and run --emit-ptx, same located error, exit 2" \
    "check: exit $rc1, $(cat "$TMP/check.err")" "$(ran run --emit-ptx "$TMP/ptx-bad" "$BAD/$b")"
done

# The version printed is the one CMake's project() declares.
want=$(sed -n 's/^project(ptx_litmus VERSION \([0-9.]*\) .*/\1/p' "$SRC/CMakeLists.txt")
lit --version
[ "$RC" -eq 0 ] && [ -n "$want" ] && [ "$(cat "$OUT")" = "litmus $want" ]
ok_if $? "--version prints 'litmus $want' (CMakeLists.txt), exit 0" "$(ran --version)"

# usage DESCRIPTION COMMAND EXPECTED-FIRST-STDERR-LINE ARGS...: exit 2, the message, where to
# find the options, nothing on stdout. COMMAND is 'litmus' or 'litmus check' etc.
usage() {
  local what=$1 cmd=$2 msg=$3
  shift 3
  lit "$@"
  local topic=options
  case $msg in "litmus: missing command" | "litmus: unknown command"*) topic=commands ;; esac
  [ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(head -n 1 "$ERR")" = "$msg" ] &&
    [ "$(tail -n 1 "$ERR")" = "Run '$cmd --help' for the $topic." ]
  ok_if $? "usage error, $what: exit 2" "$(ran "$@")"
}
usage "no command" litmus "litmus: missing command"
usage "unknown command" litmus "litmus: unknown command 'frob'" frob golden/CoRR.yaml
usage "option before the command" litmus "litmus: The following argument was not expected: --json" \
  --json check golden/CoRR.yaml
usage "unknown option" "litmus check" "litmus check: The following argument was not expected: --frob" \
  check --frob golden/CoRR.yaml
usage "suite's option on check" "litmus check" \
  "litmus check: The following argument was not expected: --junit" check --junit x.xml golden/CoRR.yaml
usage "check's option on suite" "litmus suite" \
  "litmus suite: The following argument was not expected: --explain" suite --explain golden
usage "check's option on convert" "litmus convert" \
  "litmus convert: The following argument was not expected: --json" convert --json golden/MP+fence.acq_rel.gpu-herd.litmus
usage "missing value" "litmus check" "litmus check: --timeout: 1 required S missing" \
  check golden/CoRR.yaml --timeout
usage "missing value of --engine" "litmus check" "litmus check: --engine: 1 required E missing" \
  check golden/CoRR.yaml --engine
usage "bad number" "litmus check" "litmus check: Could not convert: --timeout = soon" \
  check --timeout soon golden/CoRR.yaml
usage "negative timeout" "litmus check" "litmus check: --timeout: bad value '-1' (0 to 1e9 seconds)" \
  check --timeout=-1 golden/CoRR.yaml
usage "unknown engine" "litmus check" "litmus check: --engine: unknown engine 'warp'" \
  check --engine warp golden/CoRR.yaml
usage "check without files" "litmus check" "litmus check: PATH is required" check
usage "suite without files" "litmus suite" "litmus suite: PATH is required" suite
usage "convert of two files" "litmus convert" "litmus convert: FILE: At Most 1 required but received 2" \
  convert golden/MP+fence.acq_rel.gpu-herd.litmus tsv/Manual/SB-relaxed.litmus
lit help frob
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(cat "$ERR")" = "litmus help: unknown command 'frob'" ]
ok_if $? "help of an unknown command: exit 2" "$(ran help frob)"

# An output path that cannot be written is the user's mistake (2), found before any test runs.
lit suite --junit "$TMP/no-such-dir/junit.xml" golden
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^$TMP/no-such-dir/junit.xml: error: cannot write" "$ERR"
ok_if $? "suite --junit to an unwritable path: exit 2, nothing run" "$(ran suite --junit "$TMP/no-such-dir/junit.xml" golden)"
: >"$TMP/a-file"
lit check --graph "$TMP/a-file/graphs" golden/CoRR.yaml
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^$TMP/a-file/graphs: error: cannot create directory" "$ERR"
ok_if $? "check --graph to an uncreatable directory: exit 2, nothing run" "$(ran check --graph "$TMP/a-file/graphs" golden/CoRR.yaml)"

lit convert "$BAD/missing-header.litmus"
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^$BAD/missing-header.litmus:[0-9]*:[0-9]*: error: " "$ERR"
ok_if $? "convert of bad input: exit 2, located error" "$(ran convert "$BAD/missing-header.litmus")"

# --- 2b. what check says about liveness, and how statuses combine --------------------------------
h=hang/spin-forever.yaml
lit check "$h"
[ "$RC" -eq 1 ] && grep -qx 'States 0' "$OUT" && grep -q "^May hang: P0 spins forever at " "$OUT" &&
  grep -qx 'Vacuous: no allowed execution runs to its end (the test may hang), so States and the Observation count none' "$OUT" &&
  [ "$(cat "$ERR")" = "$h: may hang (P0 spins forever at '@%p bra L') and no liveness expectation says may-hang" ]
ok_if $? "check: a test that may hang, undeclared, with no finishing execution: May hang, Vacuous, exit 1" "$(ran check "$h")"

d=hang/spin-forever-declared.yaml
lit check "$d"
[ "$RC" -eq 0 ] && grep -q "^May hang: " "$OUT" && grep -q '^Vacuous: ' "$OUT" && [ ! -s "$ERR" ]
ok_if $? "check: the same test declaring 'liveness: may-hang': exit 0, still says May hang and Vacuous" "$(ran check "$d")"

lit check golden/CoRR.yaml
! grep -q '^Vacuous: ' "$OUT" && ! grep -q '^May hang: ' "$OUT"
ok_if $? "check: a terminating test has no May hang or Vacuous line" "$(ran check golden/CoRR.yaml)"

c=../../catalog/loops/counted-loop.yaml
lit check --unroll 1 "$c"
[ "$RC" -eq 3 ] && grep -qx 'States 0' "$OUT" && ! grep -q '^May hang: ' "$OUT" &&
  grep -qx 'Vacuous: no allowed execution runs to its end (longer paths were not explored), so States and the Observation count none' "$OUT"
ok_if $? "check --unroll 1 on a loop that needs 2: Vacuous because of the bound, exit 3 (unknown, not a pass)" "$(ran check --unroll 1 "$c")"
lit check "$c"
[ "$RC" -eq 0 ] && grep -qx 'x=3;' "$OUT" && ! grep -q '^May hang: ' "$OUT"
ok_if $? "check on a counted loop: x=3, no hang (a loop carrying a register is no spin loop), exit 0" "$(ran check "$c")"

lit check hang/terminates-declared-may-hang.yaml
[ "$RC" -eq 1 ] && grep -q "expected may-hang, got terminates" "$ERR"
ok_if $? "check: 'liveness: may-hang' on a test that always terminates: exit 1" "$(ran check hang/terminates-declared-may-hang.yaml)"

# One failure and one unknown: the failure wins (1, not 3); both tests are printed.
s=timeout/coherence-storm.yaml
lit check --timeout 1 "$w" "$s"
[ "$RC" -eq 1 ] && grep -qx 'Observation coherence-storm Unknown' "$OUT" &&
  grep -qx 'Observation MP+rel.gpu+acq.gpu-wrong Never 0 3' "$OUT"
ok_if $? "check of a failing and an Unknown test: exit 1 (a failure is not hidden by an unknown)" \
  "$(ran check --timeout 1 "$w" "$s")"
lit check --timeout 1 "$s" golden/CoRR.yaml
[ "$RC" -eq 3 ] && grep -qx 'Observation CoRR Never 0 3' "$OUT"
ok_if $? "check of an Unknown and a passing test: exit 3" "$(ran check --timeout 1 "$s" golden/CoRR.yaml)"
lit suite --timeout 1 "$s" suite
[ "$RC" -eq 1 ] && grep -q '^UNKNOWN timeout/coherence-storm.yaml: ' "$OUT" && grep -q '^FAIL suite/MP-fail.yaml: ' "$OUT"
ok_if $? "suite with a failing and an Unknown test: exit 1" "$(ran suite --timeout 1 "$s" suite)"

# --json carries the file, the expectation and liveness results and, with --explain, the reason.
lit check --json --explain golden/MP+rel.gpu+acq.gpu.yaml
[ "$RC" -eq 0 ] && [ "$(wc -l <"$OUT")" -eq 1 ] &&
  grep -q '"file":"golden/MP+rel.gpu+acq.gpu.yaml"' "$OUT" &&
  grep -q '"expect":{"verdict":"unreachable","met":true}' "$OUT" &&
  grep -q '"expectLiveness":{"declared":null,"met":true}' "$OUT" &&
  grep -q '"explanation":{"forbidden":"[^"]*","axiom":"[A-Za-z -]*","section":"[^"]*","relation":"[^"]*","steps":\[{"from":{"thread":"P[01]","instruction":"[^"]*"},"relation":"[^"]*","to":{"thread":"P[01]","instruction":"[^"]*"}}' "$OUT"
ok_if $? "check --json --explain: file, expectation, liveness and the explanation with its steps" \
  "$(ran check --json --explain golden/MP+rel.gpu+acq.gpu.yaml)"
lit check --json "$w"
[ "$RC" -eq 1 ] && grep -q '"expect":{"verdict":"reachable","met":false}' "$OUT" &&
  grep -q '"failures":\["expected reachable, got observation Never (0 positive, 3 negative)"\]' "$OUT"
ok_if $? "check --json of a failed expectation: met false, the failure, exit 1" "$(ran check --json "$w")"
lit check --json "$h"
[ "$RC" -eq 1 ] && grep -q '"vacuous":true' "$OUT" && grep -q '"expectLiveness":{"declared":null,"met":false}' "$OUT"
ok_if $? "check --json of an undeclared possible hang: vacuous, liveness not met, exit 1" "$(ran check --json "$h")"

# --- 3. suite ---------------------------------------------------------------------------------
lit suite --junit "$TMP/junit.xml" suite
[ "$RC" -eq 1 ] && [ "$(grep -c '^FAIL ' "$OUT")" -eq 1 ] &&
  grep -qx 'FAIL suite/MP-fail.yaml: expected reachable, got observation Never (0 positive, 3 negative)' "$OUT" &&
  [ "$(tail -n 1 "$OUT")" = "1 passed, 1 failed" ] && [ "$(wc -l <"$OUT")" -eq 2 ]
ok_if $? "suite: one FAIL line, '1 passed, 1 failed', exit 1" "$(ran suite --junit "$TMP/junit.xml" suite)"

j=$TMP/junit.xml
if [ ! -f "$j" ]; then
  notok "suite --junit writes the report" "no $j"
else
  ok "suite --junit writes the report"
  [ "$(head -n 1 "$j")" = '<?xml version="1.0" encoding="UTF-8"?>' ] &&
    grep -q '^<testsuite name="litmus" tests="2" failures="1" errors="0" skipped="0" ' "$j" &&
    [ "$(tail -n 1 "$j")" = "</testsuite>" ] && [ "$(grep -c '<testsuite' "$j")" -eq 1 ]
  ok_if $? "JUnit: XML declaration, one <testsuite> with the counts, closed at the end" "$(cat "$j")"
  # One <testcase per test, each closed (self-closing or by </testcase>), tags balanced.
  opened=$(grep -c '<testcase ' "$j")
  closed=$(( $(grep -c '<testcase .*/>$' "$j") + $(grep -c '</testcase>' "$j") ))
  [ "$opened" -eq 2 ] && [ "$closed" -eq 2 ]
  ok_if $? "JUnit: one <testcase per test, each closed" "$(cat "$j")"
  # The single <failure belongs to the failing test.
  owner=$(awk '/<testcase / { name = $0 } /<failure / { print name }' "$j")
  [ "$(grep -c '<failure ' "$j")" -eq 1 ] && case $owner in *'name="MP+rel.gpu+acq.gpu-wrong"'*) true ;; *) false ;; esac
  ok_if $? "JUnit: one <failure, inside the failing test's <testcase" "$(cat "$j")"
  # No raw '<', '>' or '&' inside attribute values (a cheap well-formedness check).
  ! grep -v '^<?xml' "$j" | awk -F'"' '{ for (i = 2; i <= NF; i += 2) if ($i ~ /[<>]|&[^a-z#]/) bad = 1 } END { exit !bad }'
  ok_if $? "JUnit: attribute values are escaped" "$(cat "$j")"
fi

lit suite --json suite
[ "$RC" -eq 1 ] && [ "$(grep -c '"kind":"suite","path":' "$OUT")" -eq 2 ] &&
  grep -q '^{"schema":{"name":"ptx-litmus-result","version":1},"kind":"suite","path":"suite/MP-fail.yaml","verdict":"FAIL","expected":"reachable",' "$OUT" &&
  [ "$(grep -vc '^{' "$OUT")" -eq 0 ] && [ "$(tail -n 1 "$ERR")" = "1 passed, 1 failed" ]
ok_if $? "suite --json: one JSON line per test on stdout and nothing else, the summary on stderr" "$(ran suite --json suite)"

# The TSV overrides the tests' own `expect` (CoRR.yaml says unreachable, the TSV reachable) and
# supplies one for the herd files, which have none. Two rows for one test (two models) agree.
lit suite --expected tsv/EXPECTED.tsv tsv
[ "$RC" -eq 1 ] && [ "$(wc -l <"$OUT")" -eq 2 ] &&
  grep -qx 'FAIL tsv/Shapes/CoRR.yaml: expected reachable, got observation Never (0 positive, 3 negative)' "$OUT" &&
  [ "$(tail -n 1 "$OUT")" = "2 passed, 1 failed" ]
ok_if $? "suite --expected TSV: expectations come from the TSV" "$(ran suite --expected tsv/EXPECTED.tsv tsv)"

lit suite tsv
[ "$RC" -eq 0 ] && [ "$(cat "$OUT")" = "1 passed, 0 failed (2 without expectation)" ]
ok_if $? "suite without --expected: the same tests use their own expect" "$(ran suite tsv)"

for t in tsv/malformed-columns.tsv tsv/malformed-expectation.tsv; do
  lit suite --expected "$t" tsv
  [ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q "^$t:2:1: error: " "$ERR"
  ok_if $? "suite --expected $t: exit 2, 'file:line:col: error:', no stdout" "$(ran suite --expected "$t" tsv)"
done
lit suite --expected "$TMP/none.tsv" tsv
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "^$TMP/none.tsv: error: " "$ERR"
ok_if $? "suite --expected with a missing TSV: exit 2" "$(ran suite --expected "$TMP/none.tsv" tsv)"

# --- 4. convert -------------------------------------------------------------------------------
for f in golden/*.litmus tsv/Manual/*.litmus convert/*.litmus; do
  lit convert "$f"
  if [ "$RC" -ne 0 ] || [ ! -s "$OUT" ] || [ -s "$ERR" ]; then
    notok "convert $f" "$(ran convert "$f")"
    continue
  fi
  y=$TMP/$(basename "${f%.litmus}").yaml
  cp "$OUT" "$y"
  lit check "$f"; cp "$OUT" "$TMP/orig"; rc1=$RC
  lit check "$y"; cp "$OUT" "$TMP/conv"; rc2=$RC
  states "$TMP/orig" >"$TMP/orig.states"
  states "$TMP/conv" >"$TMP/conv.states"
  [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ -s "$TMP/orig.states" ] &&
    diff -u "$TMP/orig.states" "$TMP/conv.states" >"$TMP/diff" &&
    [ "$(grep '^Observation ' "$TMP/orig")" = "$(grep '^Observation ' "$TMP/conv")" ]
  ok_if $? "convert $f: the YAML checks to the same states" "$(cat "$TMP/diff")" \
    "original (exit $rc1):" "$(cat "$TMP/orig")" "converted (exit $rc2):" "$(cat "$TMP/conv")"
done

# --- 4b. what a new user tripped over (issue 31) ----------------------------------------------
# A misspelt instruction, option, command or gen family gets the nearest known word.
printf 'name: typo\nthreads:\n  P0: {code: "fecne.sc.gpu;"}\ncondition: exists (x == 0)\n' >"$TMP/typo.yaml"
lit check "$TMP/typo.yaml"
[ "$RC" -eq 2 ] && grep -q "unknown instruction 'fecne'; did you mean 'fence'?" "$ERR"
ok_if $? "unknown instruction: did you mean" "$(ran check "$TMP/typo.yaml")"
lit check --timout 5 golden/CoRR.yaml
[ "$RC" -eq 2 ] && grep -q "did you mean '--timeout'?" "$ERR"
ok_if $? "unknown option: did you mean" "$(ran check --timout 5 golden/CoRR.yaml)"
lit chek golden/CoRR.yaml
[ "$RC" -eq 2 ] && grep -q "unknown command 'chek'; did you mean 'check'?" "$ERR"
ok_if $? "unknown command: did you mean" "$(ran chek golden/CoRR.yaml)"
lit gen -o "$TMP/gen-typo" MPP
[ "$RC" -eq 2 ] && grep -q "did you mean 'MP'?" "$ERR"
ok_if $? "unknown gen family: did you mean" "$(ran gen -o "$TMP/gen-typo" MPP)"

# The output says when the test's expectation was met (a failed one goes to stderr).
lit check golden/CoRR.yaml
[ "$RC" -eq 0 ] && grep -qx "Expectation met: expect unreachable, observation Never" "$OUT"
ok_if $? "check says the expectation was met" "$(ran check golden/CoRR.yaml)"

# A test too large for the model ends Unknown with where it grew too large, exit 3 (not 2).
{ printf 'name: too-many-events\nlocations:\n  x: 0\nthreads:\n  P0:\n    code: |\n'
  for i in $(seq 1 300); do printf '      st.u32 [x], %d;\n' "$i"; done
  printf 'condition: exists (x == 1)\n'; } >"$TMP/too-large.yaml"
lit check "$TMP/too-large.yaml"
[ "$RC" -eq 3 ] && grep -q "^Unknown .*too-large.yaml:[0-9]*:[0-9]*: thread P0 has more than 256 events" "$OUT"
ok_if $? "a test too large for the model: Unknown with a location, exit 3" "$(ran check "$TMP/too-large.yaml")"

# --- 5. --graph -------------------------------------------------------------------------------
g=$TMP/graphs
lit check --graph "$g" golden/MP+rel.gpu+acq.gpu.yaml
normalise <"$OUT" >"$TMP/got"
[ "$RC" -eq 0 ] && diff -q golden/MP+rel.gpu+acq.gpu.expected "$TMP/got" >/dev/null
ok_if $? "check --graph: same output, exit 0" "$(ran check --graph "$g" golden/MP+rel.gpu+acq.gpu.yaml)"
n=$(ls "$g" 2>/dev/null | grep -c '^MP+rel\.gpu+acq\.gpu\.allowed\.P1-r0=[01]_P1-r1=[01]\.dot$')
[ "$n" -eq 3 ]
ok_if $? "--graph writes NAME.allowed.STATE.dot per allowed state (3)" "$(ls -l "$g" 2>&1)"
fd=$g/MP+rel.gpu+acq.gpu.forbidden.P1-r0=1_P1-r1=0.dot
[ -f "$fd" ] && grep -Eq 'Causality|Coherence|Atomicity|SC per location|Fence-SC|No-Thin-Air' "$fd"
ok_if $? "--graph writes NAME.forbidden.STATE.dot naming the violated axiom" "$(ls -l "$g" 2>&1)" "$(head -n 5 "$fd" 2>&1)"
# Graphviz, where installed, renders each graph as SVG and PNG.
if command -v dot >/dev/null; then
  [ "$(ls "$g" | grep -c '\.svg$')" -eq 4 ] && [ "$(ls "$g" | grep -c '\.png$')" -eq 4 ] &&
    [ "$(head -c 4 "${fd%.dot}.png" | tail -c 3)" = PNG ]
  ok_if $? "--graph with Graphviz: an .svg and a .png per graph" "$(ls -l "$g" 2>&1)"
fi
bad=
for d in "$g"/*.dot; do
  [ "$(head -c 7 "$d")" = digraph ] && [ "$(awk 'NF { last = $0 } END { print last }' "$d")" = "}" ] || bad="$bad $d"
done
[ -z "$bad" ]
ok_if $? "every .dot starts with 'digraph' and ends with '}'" "bad:$bad"

g2=$TMP/graphs-allowed
lit check --graph "$g2" golden/MP+rel.cta+acq.cta-diffcta.yaml
[ "$RC" -eq 0 ] && [ "$(ls "$g2" | grep -c '\.allowed\..*\.dot$')" -eq 4 ] &&
  ! ls "$g2" | grep -q 'forbidden'
ok_if $? "--graph on an allowed outcome: a graph per state (4), no forbidden.dot" "$(ls -l "$g2" 2>&1)"

# Readings (issue 31): --reading with an unknown name is bad usage with a did-you-mean; the
# default output names the decision a verdict relies on and what the other reading gives.
lit check --reading D36=release-order golden/CoRR.yaml
[ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && grep -q "did you mean 'release-orders'" "$ERR"
ok_if $? "check --reading D36=release-order: exit 2, did you mean" "$(ran check --reading D36=release-order golden/CoRR.yaml)"
lit check "$CAT/async/TMA-refill-after-generic-read-no-proxy-fence.yaml"
[ "$RC" -eq 0 ] && grep -q '^Relies on D36: proxy-fence; under release-orders the outcome is Never (CUTLASS consumer_release' "$OUT"
ok_if $? "check names D36 and what release-orders gives" "$(ran check "$CAT/async/TMA-refill-after-generic-read-no-proxy-fence.yaml")"
lit check --reading D36=release-orders --no-alternatives "$CAT/async/TMA-refill-after-generic-read-no-proxy-fence.release-orders.yaml"
[ "$RC" -eq 0 ] && grep -q 'Observation .* Never' "$OUT" && ! grep -q '^Relies on D36' "$OUT"
ok_if $? "a test's readings: pin (release-orders): Never, nothing second-guessed" "$(ran check "$CAT/async/TMA-refill-after-generic-read-no-proxy-fence.release-orders.yaml")"
lit check "$CAT/grid/spin-on-dependent-flag-before-trigger.yaml"
[ "$RC" -eq 0 ] && grep -q '^Relies on D38: no-gate; under gates the outcome is Never and no execution finishes' "$OUT"
ok_if $? "check names D38 and what gates gives (no execution finishes)" "$(ran check "$CAT/grid/spin-on-dependent-flag-before-trigger.yaml")"
lit check --reading D38=gates "$CAT/grid/spin-on-dependent-flag-before-trigger.yaml"
[ "$RC" -eq 1 ] && grep -q 'Observation .* Never' "$OUT" && ! grep -q '^Relies on D38' "$OUT"
ok_if $? "--reading D38=gates: Never against the test's reachable, exit 1" "$(ran check --reading D38=gates "$CAT/grid/spin-on-dependent-flag-before-trigger.yaml")"

# By default a graph draws what decides the outcome; --graph-full every event (issue 31). In the
# pipeline with a .relaxed consumer arrive, the state the condition describes is drawn with the
# arrive, the two copies into the stage and the read, and far fewer events than the execution has.
g3=$TMP/graphs-decisive g4=$TMP/graphs-full
p=$SRC/patterns/reference/tma-pipeline/tma-pipeline-S2-K3-relaxed-arrive.yaml
lit check --no-alternatives --graph "$g3" "$p"
lit check --no-alternatives --graph "$g4" --graph-full "$p"
d3=$g3/tma-pipeline-S2-K3-relaxed-arrive.allowed.P1-r0=1_P1-r1=2_P1-r2=1.dot
d4=$g4/tma-pipeline-S2-K3-relaxed-arrive.allowed.P1-r0=1_P1-r1=2_P1-r2=1.dot
n3=$(grep -c '^    e[0-9]* \[label=' "$d3" 2>/dev/null) n4=$(grep -c '^    e[0-9]* \[label=' "$d4" 2>/dev/null)
[ "${n3:-0}" -gt 0 ] && [ "${n3:-0}" -lt 10 ] && [ "${n4:-0}" -gt 30 ] &&
  grep -q 'mbarrier.arrive.relaxed' "$d3" && grep -q 'ld.shared.u32 %r2' "$d3" && grep -q '\[g2\]' "$d3"
ok_if $? "--graph draws the decisive events ($n3), --graph-full all ($n4)" "$(ls -l "$g3" "$g4" 2>&1)"

# --- 6. timeout -------------------------------------------------------------------------------
# Four threads, each with three relaxed stores and three relaxed loads of one location: millions of
# candidates, so a microsecond can never be enough.
# --timeout is a deadline (docs/performance.md, Deadlines): each run must end within 2 s, far
# above T + 0.5 s, so that a loaded machine does not make the check flaky while an engine that
# ignores the deadline (it took 15-90 s here before) still fails it. If a run has to be killed,
# the later ones are not run, so that the script still ends within a minute.
GUARD=2
s=timeout/coherence-storm.yaml
lit check --timeout 0.000001 "$s"
[ "$RC" -eq 3 ] && grep -q '^Unknown timeout after' "$OUT" && grep -qx 'Observation coherence-storm Unknown' "$OUT" &&
  grep -q '^Time coherence-storm ' "$OUT"
ok_if $? "check --timeout 0.000001 on a big test: Unknown within 2 s, exit 3" "$(ran check --timeout 0.000001 "$s")"
lit check --engine smt --timeout 0.000001 "$s"
smt_rc=$RC
[ "$RC" -eq 3 ] && grep -q '^Unknown timeout after' "$OUT" && grep -qx 'Observation coherence-storm Unknown' "$OUT"
ok_if $? "check --engine smt --timeout 0.000001: Unknown (timeout) within 2 s, exit 3" \
  "$(ran check --engine smt --timeout 0.000001 "$s")"
lit check --engine both golden/CoRR.yaml
[ "$RC" -eq 0 ] && grep -qx 'Observation CoRR Never 0 3' "$OUT"
ok_if $? "check --engine both on CoRR: engines agree, exit 0" "$(ran check --engine both golden/CoRR.yaml)"
if [ "$smt_rc" -eq 124 ]; then
  notok "check --json --timeout: not run, check --timeout did not stop within $GUARD s"
  notok "suite --timeout: not run, check --timeout did not stop within $GUARD s"
else
  lit check --json --timeout 0.000001 "$s"
  [ "$RC" -eq 3 ] && grep -q '^{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"coherence-storm",.*"status":"unknown","detail":"timeout' "$OUT" &&
    ! grep -q '"observation"' "$OUT"
  ok_if $? "check --json --timeout: status unknown, no observation, exit 3" \
    "$(ran check --json --timeout 0.000001 "$s")"

  lit suite --timeout 0.5 "$s" golden/CoRR.yaml
  [ "$RC" -eq 3 ] && [ "$(grep -c '^UNKNOWN timeout/coherence-storm.yaml: timeout' "$OUT")" -eq 1 ] &&
    [ "$(tail -n 1 "$OUT")" = "1 passed, 0 failed (1 unknown)" ]
  ok_if $? "suite --timeout: an UNKNOWN line, counted apart from failures, exit 3" \
    "$(ran suite --timeout 0.5 "$s" golden/CoRR.yaml)"
fi
GUARD=20

# --- 6b. memory limit ------------------------------------------------------------------------
# --max-memory (docs/performance.md, Limits): a test that needs more ends Unknown with the limit
# it hit, exit 3, its herd block complete and without states; the next test runs normally.
# memory-limit/ is a corpus in the style of bad-input/: each file's first line gives the
# options, its second the reason expected. An AddressSanitizer build enforces no memory limit
# (its shadow memory needs terabytes of address space; the program says so on stderr), so there
# the checks that need one are skipped, and say so.
lit check --max-memory 64M golden/CoRR.yaml
asan=0
grep -q AddressSanitizer "$ERR" && asan=1
[ "$RC" -eq 0 ] && grep -qx 'Observation CoRR Never 0 3' "$OUT"
ok_if $? "check --max-memory 64M on a small test: room enough, exit 0" "$(ran check --max-memory 64M golden/CoRR.yaml)"
# quiet: stderr empty but for the AddressSanitizer note.
quiet() { ! grep -v AddressSanitizer "$ERR" | grep -q .; }
skip() { ok "# SKIP $1: AddressSanitizer build, no memory limit"; }
nmem=0
for f in memory-limit/*.yaml; do
  nmem=$((nmem + 1))
  args=$(sed -n '1s/^# check: //p' "$f")
  exp=$(sed -n '2s/^# expect: //p' "$f")
  name=$(sed -n 's/^name: //p' "$f")
  if [ "$asan" -eq 1 ]; then
    skip "$f"
    continue
  fi
  # shellcheck disable=SC2086
  lit check $args "$f"
  [ "$RC" -eq 3 ] && grep -qx "Unknown $exp" "$OUT" && grep -qx "Observation $name Unknown" "$OUT" &&
    grep -q "^Time $name " "$OUT" && ! grep -q '^States' "$OUT" && [ "$(grep -c '^Test ' "$OUT")" -eq 1 ] && quiet
  ok_if $? "memory limit: check $args $f: Unknown ($exp), exit 3" "$(ran check $args "$f")"
  # shellcheck disable=SC2086
  lit check --json $args "$f"
  [ "$RC" -eq 3 ] && [ "$(wc -l <"$OUT")" -eq 1 ] &&
    grep -q "^{\"schema\":{\"name\":\"ptx-litmus-result\",\"version\":1},\"kind\":\"check\",\"test\":\"$name\",.*\"status\":\"unknown\",\"detail\":\"$exp\"" "$OUT" &&
    grep -q '"states":\[\]' "$OUT" && quiet
  ok_if $? "memory limit: check --json $args $f: one line, detail '$exp', exit 3" "$(ran check --json $args "$f")"
done
[ "$nmem" -ge 3 ]
ok_if $? "memory-limit corpus has at least 3 files ($nmem)"

# Whichever limit hits first is the reason: here the deadline, on a test that needs time more than
# memory (the memory limit first: below).
lit check --max-memory 1G --timeout 0.5 timeout/coherence-storm.yaml
[ "$RC" -eq 3 ] && grep -qx 'Unknown timeout after 0.5 s' "$OUT"
ok_if $? "check --max-memory 1G --timeout 0.5 on a long test: the deadline comes first, exit 3" \
  "$(ran check --max-memory 1G --timeout 0.5 timeout/coherence-storm.yaml)"
if [ "$asan" -eq 1 ]; then
  skip "the memory limit in check, suite, with --timeout, and on memory-blowup/"
else
  m=memory-limit/many-states.yaml
  lit check --max-memory 64M --max-states 0 "$m" golden/CoRR.yaml
  [ "$RC" -eq 3 ] && grep -qx 'Unknown memory limit of 64 MiB exceeded' "$OUT" &&
    grep -qx 'Observation CoRR Never 0 3' "$OUT"
  ok_if $? "check: after a test that hit the memory limit the next one runs normally, exit 3" \
    "$(ran check --max-memory 64M --max-states 0 "$m" golden/CoRR.yaml)"
  lit suite --json --max-memory 64M --max-states 0 "$m" golden/CoRR.yaml
  [ "$RC" -eq 3 ] && [ "$(grep -c '' "$OUT")" -eq 2 ] &&
    head -n 1 "$OUT" | grep -q '^{"schema":{"name":"ptx-litmus-result","version":1},"kind":"suite","path":"memory-limit/many-states.yaml","verdict":"UNKNOWN",.*"message":"memory limit of 64 MiB exceeded"' &&
    tail -n 1 "$OUT" | grep -q '^{"schema":{"name":"ptx-litmus-result","version":1},"kind":"suite","path":"golden/CoRR.yaml","verdict":"pass"' &&
    [ "$(tail -n 1 "$ERR")" = "1 passed, 0 failed (1 unknown)" ]
  ok_if $? "suite: a test over the memory limit is UNKNOWN, the next one passes, exit 3" \
    "$(ran suite --json --max-memory 64M --max-states 0 "$m" golden/CoRR.yaml)"
  c=memory-limit/coherence-100-smt.yaml
  # -j 1: the tests share --max-memory, so with two at once CoRR could start while the first
  # still held the 64 MiB and be cut too (seen under load)
  lit suite -j 1 --engine smt --max-memory 64M "$c" golden/CoRR.yaml
  [ "$RC" -eq 3 ] && [ "$(head -n 1 "$OUT")" = "UNKNOWN $c: memory limit of 64 MiB exceeded" ] &&
    [ "$(tail -n 1 "$OUT")" = "1 passed, 0 failed (1 unknown)" ]
  ok_if $? "suite --engine smt: after Z3 ran out of memory, Z3 checks the next test normally, exit 3" \
    "$(ran suite -j 1 --engine smt --max-memory 64M "$c" golden/CoRR.yaml)"

  # The same 2^20 states under the default listing cut: 100 listed, the observation exact.
  lit check --max-memory 64M "$m"
  [ "$RC" -eq 0 ] && grep -qx 'States 101' "$OUT" && grep -q '^Cut: the listing stopped at 100 states' "$OUT" &&
    grep -qx 'Observation many-states Sometimes 1 100' "$OUT"
  ok_if $? "check --max-memory 64M: the default cut lists 100 of 2^20 states, one of the other side, and the observation, exit 0" \
    "$(ran check --max-memory 64M "$m")"
  lit check --max-memory 64M --max-states 0 --timeout 60 "$m"
  [ "$RC" -eq 3 ] && grep -qx 'Unknown memory limit of 64 MiB exceeded' "$OUT"
  ok_if $? "check --max-memory 64M --timeout 60: the memory limit comes first, exit 3" \
    "$(ran check --max-memory 64M --max-states 0 --timeout 60 "$m")"

  # A test that once ran the engines out of memory (std::bad_alloc, or an OOM kill): a verdict or
  # Unknown for the memory limit, never a crash.
  t=memory-blowup/tma-pipeline-S1-K2.yaml
  lit check --max-memory 256M "$t"
  { [ "$RC" -eq 0 ] && grep -q '^Observation TMA-pipeline-S1-K2 \(Never\|Sometimes\|Always\)' "$OUT"; } ||
    { [ "$RC" -eq 3 ] && grep -qx 'Unknown memory limit of 256 MiB exceeded' "$OUT"; }
  ok_if $? "check --max-memory 256M on the TMA pipeline: a verdict or Unknown (memory), no crash" \
    "$(ran check --max-memory 256M "$t")"

  # Limits around the point where the symbolic engine's own data leaves Z3 too little for a new
  # context, which crashed the program before the C++ heap kept room for Z3: each run ends with a
  # verdict or Unknown, never a crash. (The first input of this sweep, 2^14 states whose traces
  # filled the heap, no longer needs memory since read values are lazy; this one runs Z3 out of
  # memory while its terms are built.)
  e=memory-limit/coherence-100-smt.yaml
  crashed=""
  for lim in 64 68 72 76 80 88 96; do
    lit check --engine smt --max-memory ${lim}M "$e"
    { [ "$RC" -eq 0 ] || [ "$RC" -eq 3 ]; } && grep -q '^Observation coherence-100-smt ' "$OUT" ||
      crashed="$crashed ${lim}M:exit-$RC"
  done
  [ -z "$crashed" ]
  ok_if $? "check --engine smt --max-memory 64M..96M on $e: never a crash" "crashed at:$crashed"
fi

for cmd in check suite; do
  usage "bad size" "litmus $cmd" \
    "litmus $cmd: --max-memory: bad value 'lots' (a size such as 512M, 4G, 1073741824, or none)" \
    $cmd --max-memory lots golden/CoRR.yaml
  usage "size below the minimum" "litmus $cmd" \
    "litmus $cmd: --max-memory: bad value '1M' (at least 64 MiB: Z3 needs about 20 MiB for itself; 0 or none for no limit)" \
    $cmd --max-memory 1M golden/CoRR.yaml
done
for v in none 0 4G 4294967296 512MiB; do
  lit check --max-memory "$v" golden/CoRR.yaml
  [ "$RC" -eq 0 ] && grep -qx 'Observation CoRR Never 0 3' "$OUT" && quiet
  ok_if $? "check --max-memory $v: accepted, exit 0" "$(ran check --max-memory "$v" golden/CoRR.yaml)"
done

# --- 7. bad input -----------------------------------------------------------------------------
nbad=0
for f in "$BAD"/*.yaml "$BAD"/*.yml "$BAD"/*.litmus; do
  [ -f "$f" ] || continue
  nbad=$((nbad + 1))
  case $f in
    *.litmus) exp=$(head -n 1 "$f.expect" 2>/dev/null) ;;
    *) exp=$(head -n 1 "$f"); exp=${exp#"# expect: "} ;;
  esac
  lit check "$f"
  got=$(cat "$ERR")
  got=${got//"$f"/FILE}
  [ "$RC" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] && [ "$got" = "$exp" ]
  ok_if $? "bad input ${f#"$SRC/"}" "$(ran check "$f")" "expected stderr: $exp"
done
[ "$nbad" -ge 30 ]
ok_if $? "bad-input corpus has at least 30 files ($nbad)"

# ----------------------------------------------------------------------------------------------
finish
