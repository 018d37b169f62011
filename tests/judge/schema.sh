#!/usr/bin/env bash
# Every writer's records validate against docs/result.schema.json: check --json and suite --json
# over the catalogue and an Unknown record of each, run --json against the fake driver (an ok run and a violation), and merge
# of two runs of one test (a merged-run record).
#   bash tests/judge/schema.sh PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
fake=$2
lib_source "$3"
litmus=$LITMUS root=$SRC tmp=$TMP
mp=$root/catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml
"$litmus" check --json -j 2 "$root/catalog" "$root/tests/judge" >"$tmp/check.json" 2>/dev/null
"$litmus" suite --json -j 2 "$root/catalog" "$root/tests/judge" >"$tmp/suite.json" 2>/dev/null
# An Unknown record (its unknownReason is required) from each: a timeout in check, a test that a
# TSV lists and that does not exist in suite.
"$litmus" check --json --timeout 0.000001 "$root/tests/cli/timeout/coherence-storm.yaml" >>"$tmp/check.json"
grep -q '"unknownReason":"timeout"' "$tmp/check.json" || { echo "schema: no timeout record"; exit 1; }
# A listing cut at --max-states (statesCut).
"$litmus" check --json --max-states 3 "$root/tests/cli/memory-limit/many-states.yaml" >>"$tmp/check.json"
grep -q '"statesCut":3' "$tmp/check.json" || { echo "schema: no cut record"; exit 1; }
mkdir "$tmp/listed" && cp "$mp" "$tmp/listed/"
printf 'test\tmodel\tquantifier\tcondition\ngone.litmus\tPTX\texists\tunreachable\n' >"$tmp/listed/EXPECTED.tsv"
"$litmus" suite --json "$tmp/listed" --expected "$tmp/listed/EXPECTED.tsv" >>"$tmp/suite.json" 2>/dev/null
grep -q '"unknownReason":"not-run"' "$tmp/suite.json" || { echo "schema: no not-run record"; exit 1; }
# MP observes (P1:r0, P1:r1): (0,0) and (1,1) are allowed, (1,0) is forbidden.
LITMUS_LIBCUDA=$fake FAKE_CUDA_STATES="0,0;1,1" "$litmus" run -n 1000 --seed 1 --json "$tmp/run1.json" "$mp" >/dev/null
LITMUS_LIBCUDA=$fake FAKE_CUDA_STATES="0,0;1,0" "$litmus" run -n 1000 --seed 2 --json "$tmp/run2.json" "$mp" >/dev/null
# A timeout with --trace-waits (docs/wait-trace.md): its waits object.
LITMUS_LIBCUDA=$fake FAKE_CUDA_HANG="test MP+rel.gpu+acq.gpu-diffcta" FAKE_CUDA_TRACE="0:1:32,1:2:32" \
  "$litmus" run -n 1000 --timeout 1 --trace-waits --json "$tmp/run3.json" "$mp" >/dev/null
grep -q '"waits":{"launch":1,"sites":\[{' "$tmp/run3.json" || { echo "schema: no waits in the traced timeout"; exit 1; }
"$litmus" merge "$tmp/run1.json" "$tmp/run2.json" >"$tmp/merged.json" || { echo "schema: merge failed"; exit 1; }
grep -q '"kind":"merged-run".*"verdict":"violation"' "$tmp/merged.json" ||
  { echo "schema: the merged record is not a violation: $(head -c 300 "$tmp/merged.json")"; exit 1; }
python3 "$root/tests/judge/validate.py" "$root/docs/result.schema.json" check,suite,run,merged-run \
  "$tmp/check.json" "$tmp/suite.json" "$tmp/run1.json" "$tmp/run2.json" "$tmp/run3.json" "$tmp/merged.json"
