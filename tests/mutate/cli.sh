#!/usr/bin/env bash
# `litmus mutate` end to end (docs/mutation.md): mutants of tests/mutate/inputs, the same twice
# (deterministic), a `litmus run --json` of two of them against the fake driver, the score of that
# run, and bad input (exit 2, nothing written).
#
#   bash tests/mutate/cli.sh PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA [SOURCE-DIR]
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA [SOURCE-DIR]" >&2
  exit 2
fi
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
FAKE=$2
lib_source "${3:-}"
fail() { notok "$*"; }
expect_rc() {  # expect_rc WANT COMMAND...: the command exits WANT (stdout in $OUT, stderr in $ERR)
  local want=$1; shift
  "$@" >"$OUT" 2>"$ERR"
  RC=$?
  if [ $RC -eq "$want" ]; then ok "exit $want: ${*:2}"; else fail "exit $RC, expected $want: $* ($(head -c 300 "$ERR"))"; fi
}

expect_rc 0 "$LITMUS" mutate -o "$TMP/a" "$SRC/tests/mutate/inputs"
grep -q "^total *23 *8 *0 *0 *5$" "$OUT" || fail "summary: $(cat "$OUT")"
[ "$(find "$TMP/a/killable" -name '*.yaml' | wc -l)" -eq 23 ] || fail "23 killable files expected"
[ "$(wc -l <"$TMP/a/index.tsv")" -eq 32 ] || fail "index: a header and 31 mutants expected"
expect_rc 0 "$LITMUS" mutate -o "$TMP/b" "$SRC/tests/mutate/inputs"
diff -r "$TMP/a" "$TMP/b" >/dev/null || fail "two generations differ"
# every written mutant is a test that litmus reads and checks
expect_rc 0 "$LITMUS" check "$TMP/a/killable" "$TMP/a/equivalent"

# The mutants' PTX assembles (when ptxas is here): the runner emits their instructions as written.
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$PTXAS" ]; then
  expect_rc 3 "$LITMUS" run --emit-ptx "$TMP/ptx" "$TMP/a/killable" "$TMP/a/equivalent"  # 3: the texture fence is refused
  for f in "$TMP"/ptx/*.ptx; do
    arch=sm_90
    grep -q '^\.target sm_90a' "$f" && arch=sm_90a
    "$PTXAS" -arch=$arch -o /dev/null "$f" 2>"$TMP/ptxas.err" || fail "ptxas $(basename "$f"): $(head -2 "$TMP/ptxas.err")"
  done
fi

# A run that kills one mutant and runs another without killing it; the rest are not in the results.
MP="$TMP/a/killable/MP+rel+acq"
FAKE_CUDA_STATES="1,0" LITMUS_LIBCUDA=$FAKE "$LITMUS" run -n 1000 --json "$TMP/r1.json" "$MP~sync-weaken-1.yaml" >/dev/null 2>&1
FAKE_CUDA_STATES="0,0;1,1" LITMUS_LIBCUDA=$FAKE "$LITMUS" run -n 1000 --json "$TMP/r2.json" "$MP~po-reverse-1.yaml" >/dev/null 2>&1
cat "$TMP/r1.json" "$TMP/r2.json" >"$TMP/r.json"
expect_rc 0 "$LITMUS" mutate --score "$TMP/r.json" "$TMP/a/index.tsv"
grep -q "^Mutation score: 1 of 23 killable mutants killed (4.3%)$" "$OUT" || fail "score: $(cat "$OUT")"
grep -q "^sync-weaken *9 *1 *0 *8 *11.1%$" "$OUT" || fail "sync-weaken row: $(cat "$OUT")"
grep -q "^po-reverse *3 *0 *1 *2 *0.0%$" "$OUT" || fail "po-reverse row: $(cat "$OUT")"
expect_rc 0 "$LITMUS" mutate --score "$TMP/r.json" "$TMP/a/index.tsv" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["total"]["killed"] == 1, d' "$OUT" ||
  fail "--json score"

# Bad input: exit 2, and nothing written.
expect_rc 2 "$LITMUS" mutate -o "$TMP/c" "$SRC/tests/mutate/no-such-test.yaml"
[ ! -e "$TMP/c" ] || fail "output written for a missing test"
expect_rc 2 "$LITMUS" mutate -o "$TMP/a" "$SRC/tests/mutate/inputs"
grep -q "not empty" "$ERR" || fail "non-empty output directory: $(cat "$ERR")"
expect_rc 2 "$LITMUS" mutate --category po-sideways "$SRC/tests/mutate/inputs"
expect_rc 2 "$LITMUS" mutate
echo "not json" >"$TMP/bad.json"
expect_rc 2 "$LITMUS" mutate --score "$TMP/bad.json" "$TMP/a/index.tsv"
grep -q "bad.json:1:1: error:" "$ERR" || fail "bad results: $(cat "$ERR")"
expect_rc 0 "$LITMUS" help mutate
grep -q -- "--score" "$OUT" || fail "help mutate"

finish
