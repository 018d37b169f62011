#!/usr/bin/env bash
# Interoperability through the command line (docs/interop.md): `check --herd` against
# hand-checked golden blocks (Time masked) and through an mcompare7-style reader; `check
# --keep-going`; `convert` both ways, refusals included.
#
#   bash tests/interop/run.sh PATH-TO-LITMUS [SOURCE-DIR]
#   UPDATE_GOLDEN=1 bash tests/interop/run.sh ...   # rewrite golden/*.expected (then check them by eye)
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PATH-TO-LITMUS [SOURCE-DIR]" >&2
  exit 2
fi
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "${2:-}"
HERE=$SRC/tests/interop
cd "$SRC" || exit 2

mask() { sed -E 's/^(Time [^ ]+) [0-9.]+$/\1 T/' "$1"; }

# --- check --herd: golden blocks ---
# (~exists swaps the Witnesses; forall is Required; a race prints Flag data-race)
for t in catalog/chapter8/ch8-L5-corr catalog/chapter8/ch8-L8-sb-fence-sc-sys \
         catalog/chapter8/asplos19-fig9-CoWR catalog/chapter8/ch8-L2-atomicity-not-ms \
         tests/cli/golden/CoWR-notexists; do
  name=$(basename "$t")
  lit check --herd "$t.yaml"
  mask "$TMP/out" >"$TMP/masked"
  golden "$TMP/masked" "$HERE/golden/$name.herd.expected" "check --herd $name"
done

# --- an mcompare7-style reader takes every block of chapter 8 ---
lit check --herd catalog/chapter8
n=$(find catalog/chapter8 -name '*.yaml' | wc -l)
if python3 "$HERE/parse_herd.py" "$TMP/out" >"$TMP/parsed" 2>&1 && grep -qx "parsed $n tests" "$TMP/parsed"; then
  ok "parse_herd.py reads all $n chapter-8 blocks"
else
  notok "parse_herd.py reads all $n chapter-8 blocks" "$(cat "$TMP/parsed")"
fi
# The reader must be able to fail: '==' in a condition and a P-name key are not herd's.
sed 's/=1;/==1;/' "$TMP/out" >"$TMP/broken"
if python3 "$HERE/parse_herd.py" "$TMP/broken" >/dev/null 2>&1; then notok "parse_herd.py rejects a bad binding"; else ok "parse_herd.py rejects a bad binding"; fi
lit check catalog/chapter8/ch8-L5-corr.yaml
if python3 "$HERE/parse_herd.py" "$TMP/out" >/dev/null 2>&1; then notok "parse_herd.py rejects the default output (P-names)"; else ok "parse_herd.py rejects the default output (P-names)"; fi
lit check --herd --json catalog/chapter8/ch8-L5-corr.yaml
[ "$RC" = 2 ] && ok "--herd excludes --json (exit 2)" || notok "--herd excludes --json (exit $RC)"

# --- check --keep-going ---
KG=$HERE/keep-going
lit check "$KG"
if [ "$RC" = 2 ] && [ ! -s "$TMP/out" ] && grep -q 'bad.yaml:[0-9]*:[0-9]*: error' "$TMP/err"; then
  ok "check without --keep-going: bad file, nothing checked, exit 2"
else notok "check without --keep-going (exit $RC)" "$(cat "$TMP/err")"; fi
lit check --keep-going "$KG"
if [ "$RC" = 2 ] && [ "$(grep -c '^Test ' "$TMP/out")" = 2 ] && grep -q 'bad.yaml:[0-9]*:[0-9]*: error' "$TMP/err"; then
  ok "check --keep-going: error reported, both good files checked, exit 2"
else notok "check --keep-going (exit $RC)" "$(cat "$TMP/err")"; fi
lit check --keep-going "$KG/good-mp.yaml" "$KG/good-sb.yaml"
[ "$RC" = 0 ] && ok "check --keep-going, all good: exit 0" || notok "check --keep-going, all good: exit $RC" "$(cat "$TMP/err")"

# --- convert both ways ---
lit convert catalog/chapter8/ch8-L5-corr.yaml
if [ "$RC" = 0 ] && head -1 "$TMP/out" | grep -qx 'PTX ch8-L5-corr' && grep -qx 'Expect=[a-z-]*' "$TMP/out"; then
  ok "convert YAML -> herd (auto), expectation kept"
else notok "convert YAML -> herd (exit $RC)" "$(cat "$TMP/err")"; fi
cp "$TMP/out" "$TMP/corr.litmus"
lit convert "$TMP/corr.litmus"
[ "$RC" = 0 ] && grep -q '^expect:' "$TMP/out" && ok "convert herd -> YAML (auto), expect kept" || notok "convert herd -> YAML (exit $RC)" "$(cat "$TMP/err")"
lit check --herd "$TMP/corr.litmus"
mask "$TMP/out" | grep -v '^Hash=' >"$TMP/a"
lit check --herd catalog/chapter8/ch8-L5-corr.yaml
mask "$TMP/out" | grep -v '^Hash=' >"$TMP/b"
diff -u "$TMP/b" "$TMP/a" >"$TMP/diff" && ok "the herd file checks as the YAML test does" || notok "the herd file checks as the YAML test does" "$(cat "$TMP/diff")"
lit convert --to herd catalog/mbarrier/"$(ls catalog/mbarrier | head -1)"
if [ "$RC" = 2 ] && grep -q "cannot write this test in herd's dialect" "$TMP/err" && [ ! -s "$TMP/out" ]; then
  ok "convert refuses an mbarrier test (exit 2, nothing printed)"
else notok "convert refuses an mbarrier test (exit $RC)" "$(cat "$TMP/err")"; fi
lit convert --to yaml "$HERE/SB-info.litmus"
grep -qx 'expect: reachable' "$TMP/out" && ok "convert --to yaml reads herd info lines" || notok "convert --to yaml reads herd info lines" "$(cat "$TMP/out")"

finish
