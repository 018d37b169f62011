#!/usr/bin/env bash
# --shard K/N and `litmus merge`: N shards merged print what one unsharded run prints, for check,
# suite (byte for byte, timings masked) and run (the fake driver, tests/gpu/fake_cuda.cc); repeated
# runs add up; merge's verdicts are the runner's; gen's shards partition its tests.
#   bash tests/scale/shards.sh PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
FAKE=$2
cd "$3" || exit 2
# Two directories in sorted order: merge orders records by path (docs/scale.md).
SET=(catalog/loops catalog/shapes)
N=3

# check --json
"$LITMUS" check --json "${SET[@]}" >"$TMP/check.all"
for k in 1 2 3; do "$LITMUS" check --json --shard $k/$N "${SET[@]}" >"$TMP/check.$k"; done
for k in 1 2 3; do check "check shard $k/$N is not empty" test -s "$TMP/check.$k"; done
check "check shards partition the tests" test "$(cat "$TMP"/check.[123] | wc -l)" -eq "$(wc -l <"$TMP/check.all")"
"$LITMUS" merge "$TMP"/check.[312] >"$TMP/check.merged"
untimed "$TMP/check.all" >"$TMP/a"; untimed "$TMP/check.merged" >"$TMP/b"
check "check: 3 shards merged = unsharded (seconds masked)" same "$TMP/a" "$TMP/b"

# suite --json, with a TSV that lists missing tests (their entries come last, wherever their names
# sort: "0-gone" before the tests, "gone" after them)
mkdir -p "$TMP/corpus"
cp catalog/shapes/MP*.yaml catalog/shapes/SB*.yaml "$TMP/corpus/"
{ printf 'test\tmodel\tquantifier\tcondition\n'
  for f in "$TMP"/corpus/*.yaml; do printf '%s\tPTX\texists\tforbidden\n' "$(basename "$f")"; done
  printf 'gone.litmus\tPTX\texists\tforbidden\n0-gone.litmus\tPTX\texists\tforbidden\n'; } >"$TMP/corpus/EXPECTED.tsv"
sed -i 's/\tforbidden$/\tunreachable/' "$TMP/corpus/EXPECTED.tsv"
"$LITMUS" suite --json "$TMP/corpus" --expected "$TMP/corpus/EXPECTED.tsv" >"$TMP/suite.all" 2>/dev/null
for k in 1 2 3; do
  "$LITMUS" suite --json --shard $k/$N "$TMP/corpus" --expected "$TMP/corpus/EXPECTED.tsv" >"$TMP/suite.$k" 2>/dev/null
done
check "suite lists the missing tests last" test "$(tail -n 2 "$TMP/suite.all" | grep -c '"path":"[^"]*gone.litmus"')" -eq 2
"$LITMUS" merge "$TMP"/suite.[123] >"$TMP/suite.merged"
untimed "$TMP/suite.all" >"$TMP/a"; untimed "$TMP/suite.merged" >"$TMP/b"
check "suite: 3 shards merged = unsharded (seconds masked)" same "$TMP/a" "$TMP/b"

# bad input
"$LITMUS" merge "$TMP/check.1" "$TMP/check.1" >"$TMP/out" 2>"$TMP/err"
check "merge: a shard twice is an error (exit 2, nothing printed)" test $? -eq 2 -a ! -s "$TMP/out"
check "merge: says the shards overlap" grep -q "overlap" "$TMP/err"
"$LITMUS" merge "$TMP/check.1" "$TMP/suite.1" >"$TMP/out" 2>"$TMP/err"
check "merge: check and suite results mixed: exit 2" test $? -eq 2 -a ! -s "$TMP/out"
printf '{"test":"x","model":true}\n' >"$TMP/old"
"$LITMUS" merge "$TMP/old" >"$TMP/out" 2>"$TMP/err"
check "merge: a record of no known kind: exit 2 with its place" grep -q "old:1:1: error: not a result of" "$TMP/err"
printf '{"test":\n' >"$TMP/torn"
"$LITMUS" merge "$TMP/torn" >"$TMP/out" 2>"$TMP/err"
check "merge: a line that is not JSON: exit 2 with its place" grep -q "torn:1:1: error: not a JSON line" "$TMP/err"
for bad in 0/3 4/3 3 1/0 x/2; do
  "$LITMUS" suite --shard "$bad" catalog/loops >/dev/null 2>&1
  check "suite --shard $bad: usage error" test $? -eq 2
done
LITMUS_LIBCUDA=$FAKE "$LITMUS" run --shard 2/1 catalog/loops >/dev/null 2>&1
check "run --shard 2/1: usage error" test $? -eq 2

# run (fake driver): shards merged = unsharded; repeated runs add up
RUNSET=(catalog/shapes/MP*.yaml catalog/shapes/SB*.yaml)
fake() { LITMUS_LIBCUDA=$FAKE FAKE_CUDA_STATES="$1" "$LITMUS" run -n 1000 "${@:2}" >/dev/null 2>&1; }
fake "0,0;1,1" --json "$TMP/run.all" "${RUNSET[@]}"
for k in 1 2 3; do fake "0,0;1,1" --shard $k/$N --json "$TMP/run.$k" "${RUNSET[@]}"; done
check "run: shards partition the tests" test "$(cat "$TMP"/run.[123] | wc -l)" -eq "$(wc -l <"$TMP/run.all")"
"$LITMUS" merge "$TMP"/run.[123] >"$TMP/run.merged"
untimed "$TMP/run.all" >"$TMP/a"; untimed "$TMP/run.merged" >"$TMP/b"
check "run: 3 shards merged = unsharded (timings masked)" same "$TMP/a" "$TMP/b"
"$LITMUS" merge --rejudge "$TMP/run.all" >"$TMP/rejudged"
"$LITMUS" merge "$TMP/run.all" >"$TMP/plain"
check "merge words each verdict as litmus run does (--rejudge changes nothing)" same "$TMP/plain" "$TMP/rejudged"
fake "1,0;1,1" --json "$TMP/viol.json" "${RUNSET[@]}"
check "the fake run has violations" grep -q '"verdict":"violation"' "$TMP/viol.json"
"$LITMUS" merge --rejudge "$TMP/viol.json" >"$TMP/rejudged"
"$LITMUS" merge "$TMP/viol.json" >"$TMP/plain"
check "violations: --rejudge changes nothing" same "$TMP/plain" "$TMP/rejudged"
# One test run twice: the merged record holds the sums (instances are rounded up to whole launches,
# so a run of 2000 is no reference; the sums of the two records are).
MP=catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml
fake "0,0;1,1" --seed 1 --json "$TMP/r1" "$MP"
fake "0,0;1,1;0,1" --seed 2 --json "$TMP/r2" "$MP"
fake "1,0;1,1" --seed 3 --json "$TMP/r3" "$MP"
"$LITMUS" merge "$TMP/r1" "$TMP/r2" >"$TMP/sum"
adds_up() {
  python3 - "$TMP/sum" "$TMP/r1" "$TMP/r2" <<'PY'
import json, sys
m, a, b = (json.loads(open(p).readline()) for p in sys.argv[1:4])
for k in ("instances", "launches", "condition", "violations"):
    assert m[k] == a[k] + b[k], (k, m[k], a[k], b[k])
counts = {}
for r in (a, b):
    for e in r["histogram"]:
        key = json.dumps(e["state"])
        counts[key] = counts.get(key, 0) + e["count"]
assert {json.dumps(e["state"]): e["count"] for e in m["histogram"]} == counts, m["histogram"]
assert len(m["histogram"]) == 3 and m["verdict"] == "ok" and m["reason"] == a["reason"], m
# the allowed states neither run saw: those both list, less what the other saw
seen = set(counts)
assert [json.dumps(s) for s in m["neverObserved"]] == [json.dumps(s) for s in a["neverObserved"] if json.dumps(s) not in seen], m
assert m["runs"] == 2 and m["seeds"] == [1, 2] and m["verdicts"] == {"ok": 2}, m
PY
}
check "two runs add up" adds_up
"$LITMUS" merge "$TMP/r1" "$TMP/r3" >"$TMP/sum"
check "a run with a violation makes the merged verdict a violation" grep -q '"verdict":"violation","reason":"[0-9]* instances in 1 states the model forbids"' "$TMP/sum"
check "the merged record counts its runs' verdicts" grep -q '"verdicts":{"ok":1,"violation":1}' "$TMP/sum"

# gen: the shards partition the generated tests
GEN=(MP SB --orders rlx,ra --scopes gpu,cta --no-check)
"$LITMUS" gen "${GEN[@]}" -o "$TMP/gen.all" >/dev/null 2>&1
for k in 1 2 3; do "$LITMUS" gen "${GEN[@]}" --shard $k/$N -o "$TMP/gen.$k" >/dev/null 2>&1; done
ls "$TMP/gen.all" | grep yaml >"$TMP/a"
ls "$TMP"/gen.[123] | grep yaml | sort >"$TMP/b"
check "gen: the shards' tests are the unsharded ones" same "$TMP/a" "$TMP/b"
check "gen: every shard has tests" test "$(ls "$TMP"/gen.1/*.yaml "$TMP"/gen.2/*.yaml "$TMP"/gen.3/*.yaml | wc -l)" -gt 3 -a -n "$(ls "$TMP"/gen.1/*.yaml)" -a -n "$(ls "$TMP"/gen.3/*.yaml)"
finish
