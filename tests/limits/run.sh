#!/usr/bin/env bash
# The oversized inputs of issue 30 (tests/limits/gen_inputs.py: 40,000 locations, 40,000 threads in
# one CTA, 50 MB lines) each end within --timeout + 1 s: checked (exit 0 or 1), Unknown (exit 3)
# or a located error (exit 2, `file:line:col: error: ...`, a short message).
#
#   tests/limits/run.sh LITMUS [TIMEOUT] [SCALE] [SLACK] [--quick]
# SLACK (default 1 s) is what a run may take past TIMEOUT; sanitizer builds, several times slower
# at tearing down what a large input built, get more (CMakeLists.txt).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
LIMIT=${2:-1}
SCALE=${3:-1}
SLACK=${4:-1}
QUICK=${5:-}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$TMP/inputs
mkdir "$DIR"
python3 "$HERE/gen_inputs.py" "$DIR" --scale "$SCALE" $QUICK || exit 1

bound=$(python3 -c "print($LIMIT + $SLACK)")
for f in "$DIR"/*; do
  name=$(basename "$f")
  t0=$(date +%s%N)
  timeout 60 "$LITMUS" check --timeout "$LIMIT" "$f" >"$OUT" 2>"$ERR"
  rc=$?
  t1=$(date +%s%N)
  secs=$(python3 -c "print(round(($t1 - $t0) / 1e9, 2))")
  why=""
  python3 -c "import sys; sys.exit(0 if $secs <= $bound else 1)" || why="took ${secs} s, over ${bound} s"
  case $rc in
    0 | 1 | 3) ;;
    2) head -1 "$ERR" | grep -Eq "^$f:[0-9]+(:[0-9]+)?: error: " || why="$why; exit 2 without a located error" ;;
    *) why="$why; exit $rc" ;;
  esac
  errBytes=$(wc -c <"$ERR")
  [ "$errBytes" -le 4096 ] || why="$why; $errBytes bytes on stderr"
  if [ -n "$why" ]; then
    notok "$name: ${why#; }" "$(head -c 300 "$ERR")"
  else
    detail=$(head -c 160 "$ERR" | head -1)
    [ -n "$detail" ] || detail=$(grep -m1 '^Unknown ' "$OUT" | head -c 160)
    ok "$name: exit $rc in $secs s: ${detail//$DIR\//}"
  fi
done

# --max-memory covers reading too: the 50 MB name under 100 MiB ends Unknown at once. (Sanitizer
# builds cannot enforce a limit and say so: nothing to check there.)
f=$DIR/long-bad-name.yaml
timeout 60 "$LITMUS" check --max-memory 100M "$f" >"$OUT" 2>"$ERR"
rc=$?
if [ "$SCALE" != 1 ]; then
  ok "# SKIP --max-memory 100M: a ${SCALE}th of the 50 MB line fits"
elif grep -Eq "cannot be enforced|is not enforced" "$ERR"; then
  ok "# SKIP --max-memory 100M: $(head -1 "$ERR")"
elif [ $rc -eq 3 ] && grep -qx "Unknown memory limit of 100 MiB exceeded while reading" "$OUT"; then
  ok "long-bad-name.yaml --max-memory 100M: exit 3, memory limit while reading"
else
  notok "long-bad-name.yaml --max-memory 100M: exit $rc" "$(head -c 300 "$OUT" "$ERR")"
fi
finish
