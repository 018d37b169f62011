# Shared by tests/scale/*.sh: TAP-style checks and a scratch directory.
export LC_ALL=C
TMP=$(mktemp -d "${TMPDIR:-/tmp}/litmus-scale.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
PASSED=0
FAILED=0
check() {  # check DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1
  shift
  if "$@"; then
    PASSED=$((PASSED + 1))
    echo "ok - $what"
  else
    FAILED=$((FAILED + 1))
    echo "not ok - $what"
  fi
}
same() {  # same A B: byte-identical files (a diff excerpt otherwise)
  cmp -s "$1" "$2" || { diff "$1" "$2" | head -10 | sed 's/^/#   /'; return 1; }
}
nonempty() { [ -s "$1" ]; }
# Timings differ between any two runs: herd "Time" lines and JSON seconds are masked.
untimed() { sed -E -e 's/^Time (.*) [0-9.]+$/Time \1 T/' \
  -e 's/"(seconds|jitSeconds|overheadSeconds)":[0-9.e+-]+/"\1":T/g' -e 's/"freshWorker":(true|false)/"freshWorker":F/g' "$1"; }
finish() {
  echo "# $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}
