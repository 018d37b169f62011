# The shell every tests/**/*.sh script shares (sourced, never run):
#
#   . "$(dirname "$0")/../lib.sh"
#   lib_litmus "$1"          # LITMUS: the program under test, absolute; exit 2 if not executable
#   lib_source "${2:-}"      # SRC: the source tree, absolute (default: two folders above the script)
#   lib_sanitized            # true when $LITMUS is built with AddressSanitizer
#
# It sets LC_ALL=C and makes TMP, a scratch directory removed on exit. Checks print TAP-style
# lines (`ok - ...`, `not ok - ...` with `#   ` detail lines) and are counted; `finish` prints the
# total and returns 1 if any failed.
#
#   lit ARGS...               run $LITMUS: stdout in $OUT, stderr in $ERR, exit status in RC;
#                             killed after $GUARD seconds (default 60), so that a test always ends
#   has out|err TEXT          the last run's stdout or stderr contains TEXT
#   check DESC COMMAND...     ok when COMMAND succeeds (with the last run's output when it fails)
#   ok_if STATUS DESC [DETAIL...]   ok when STATUS is 0 (`...; ok_if $? "what" "detail"`)
#   golden GOT EXPECTED DESC  GOT equals the golden file EXPECTED; with UPDATE_GOLDEN=1 EXPECTED is
#                             rewritten and the check fails, so that an update never passes
#                             unreviewed (the C++ golden tests do the same)
#   same A B                  byte-identical files (a diff excerpt otherwise)
#   untimed FILE              FILE with timings masked (herd Time lines, JSON seconds)
export LC_ALL=C
TMP=$(mktemp -d "${TMPDIR:-/tmp}/litmus-test.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
# `litmus run` keeps the driver's compilations under $XDG_CACHE_HOME: each test script starts with
# none, and writes nothing into the user's cache
export XDG_CACHE_HOME=$TMP/cache
OUT=$TMP/out
ERR=$TMP/err
RC=0
GUARD=60
PASSED=0
FAILED=0
LAST_RUN=""
UPDATE_GOLDEN=${UPDATE_GOLDEN:-0}

lib_litmus() {
  case $1 in /*) LITMUS=$1 ;; *) LITMUS=$PWD/$1 ;; esac
  if [ ! -x "$LITMUS" ] || [ -d "$LITMUS" ]; then
    echo "$0: '$1' is not an executable" >&2
    exit 2
  fi
}
# AddressSanitizer reserves terabytes of address space: a sanitizer build cannot run under
# `ulimit -v`. Its runtime is linked dynamically by GCC and statically by clang, so the symbol is
# looked for in the program itself rather than in what ldd lists.
lib_sanitized() { grep -qa __asan_init "$LITMUS"; }
lib_source() {
  SRC=${1:-$(dirname "$0")/../..}
  SRC=$(cd "$SRC" && pwd) || exit 2
}

lit() {
  LAST_RUN="litmus $*"
  timeout "$GUARD" "$LITMUS" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}
has() { grep -qF -- "$2" "$TMP/$1"; }
# What the last run did, for failure details.
ran() {
  echo "$LAST_RUN -> exit $RC"
  echo "stdout: $(head -c 2000 "$OUT" 2>/dev/null)"
  echo "stderr: $(head -c 2000 "$ERR" 2>/dev/null)"
}

ok() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
notok() {
  FAILED=$((FAILED + 1))
  echo "not ok - $1"
  shift
  local line
  for line in "$@"; do printf '%s\n' "$line" | head -n 40 | sed 's/^/#   /'; done
}
ok_if() {
  local status=$1
  shift
  if [ "$status" -eq 0 ]; then ok "$1"; else notok "$@"; fi
}
check() {
  local what=$1
  shift
  if "$@"; then
    ok "$what"
  elif [ -n "$LAST_RUN" ]; then
    notok "$what" "$(ran)"
  else
    notok "$what"
  fi
}

same() {
  cmp -s "$1" "$2" || { diff "$1" "$2" | head -10 | sed 's/^/#   /'; return 1; }
}
untimed() {
  sed -E -e 's/^Time (.*) [0-9.]+$/Time \1 T/' \
    -e 's/"(seconds|jitSeconds|overheadSeconds)":[0-9.e+-]+/"\1":T/g' \
    -e 's/"freshWorker":(true|false)/"freshWorker":F/g' "$1"
}
golden() {
  local got=$1 exp=$2 what=$3
  if [ "$UPDATE_GOLDEN" = 1 ]; then
    cp "$got" "$exp" && notok "$what" "rewrote $exp (UPDATE_GOLDEN=1): review the diff, then run without it"
  elif [ ! -f "$exp" ]; then
    notok "$what" "missing $exp (UPDATE_GOLDEN=1 creates it)"
  elif diff -u "$exp" "$got" >"$TMP/golden.diff"; then
    ok "$what"
  else
    notok "$what" "$(cat "$TMP/golden.diff")"
  fi
}

finish() {
  echo "# $PASSED passed, $FAILED failed, $((PASSED + FAILED)) checks"
  [ "$FAILED" -eq 0 ]
}
