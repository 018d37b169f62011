#!/usr/bin/env bash
# -j: check and suite print the same bytes with one worker and with several (docs/scale.md).
#   bash tests/scale/parallel.sh PATH-TO-LITMUS SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
cd "$2" || exit 2
SET=(catalog/shapes catalog/barriers catalog/loops)

"$LITMUS" suite -j 1 "${SET[@]}" >"$TMP/s1" 2>&1; r1=$?
"$LITMUS" suite -j 3 "${SET[@]}" >"$TMP/s3" 2>&1; r3=$?
check "suite -j 3 prints the bytes of -j 1" same "$TMP/s1" "$TMP/s3"
check "suite -j 3 exits as -j 1 ($r1)" test "$r1" -eq "$r3"
check "suite summary printed" grep -q " passed, " "$TMP/s3"

"$LITMUS" check -j 1 "${SET[@]}" >"$TMP/c1" 2>"$TMP/e1"; r1=$?
"$LITMUS" check -j 4 "${SET[@]}" >"$TMP/c4" 2>"$TMP/e4"; r4=$?
untimed "$TMP/c1" >"$TMP/c1u"; untimed "$TMP/c4" >"$TMP/c4u"
check "check -j 4 prints what -j 1 prints (times masked)" same "$TMP/c1u" "$TMP/c4u"
check "check -j 4: the same stderr" same "$TMP/e1" "$TMP/e4"
check "check -j 4 exits as -j 1 ($r1)" test "$r1" -eq "$r4"
check "check printed every test" test "$(grep -c '^Test ' "$TMP/c4")" -ge 120

"$LITMUS" check --json -j 1 catalog/shapes >"$TMP/j1"
"$LITMUS" check --json -j 2 catalog/shapes >"$TMP/j2"
untimed "$TMP/j1" >"$TMP/j1u"; untimed "$TMP/j2" >"$TMP/j2u"
check "check --json -j 2 = -j 1 (seconds masked)" same "$TMP/j1u" "$TMP/j2u"

# A failing test and bad input keep their place and status under -j.
mkdir -p "$TMP/mixed"
cp catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml "$TMP/mixed/a.yaml"
sed 's/^expect: .*/expect: always/' catalog/shapes/SB+fence.sc.gpu.yaml >"$TMP/mixed/b.yaml"
cp catalog/shapes/SB+fence.sc.gpu.yaml "$TMP/mixed/c.yaml"
"$LITMUS" check -j 1 "$TMP/mixed" >"$TMP/m1" 2>&1; r1=$?
"$LITMUS" check -j 3 "$TMP/mixed" >"$TMP/m3" 2>&1; r3=$?
untimed "$TMP/m1" >"$TMP/m1u"; untimed "$TMP/m3" >"$TMP/m3u"
check "a failing check: exit 1 with -j 1 and -j 3" test "$r1" = 1 -a "$r3" = 1
check "a failing check: the same output in the same place" same "$TMP/m1u" "$TMP/m3u"
"$LITMUS" suite -j 1 "$TMP/mixed" >"$TMP/n1" 2>&1
"$LITMUS" suite -j 3 "$TMP/mixed" >"$TMP/n3" 2>&1
check "a failing suite test: the same lines" same "$TMP/n1" "$TMP/n3"

"$LITMUS" check -j 0 catalog/loops >"$TMP/out" 2>&1
check "-j 0: usage error" test $? -eq 2
"$LITMUS" check -j 2 catalog/loops 2>"$TMP/err" | cat >/dev/null
check "piped: no progress line on stderr" test ! -s "$TMP/err"
finish
