#!/usr/bin/env bash
# Stands in for litmus in tests/conformance/run.sh, to show that .ci/conformance notices what a
# broken litmus does to one test. It runs the real binary ($REAL_LITMUS) and then, for the test
# whose path ends in $FAKE_TEST:
#   FAKE_MODE=crash     prints the results before it, then dies of SIGSEGV (as a crash there would)
#   FAKE_MODE=disagree  rewrites its result into an engine disagreement, exit status unchanged
#   FAKE_MODE=drop      leaves its result out, exit status unchanged
set -uo pipefail
out=$(mktemp)
"$REAL_LITMUS" "$@" >"$out"
rc=$?
rewrite() {
  python3 -c '
import json, sys
mode, test = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    r = json.loads(line) if line.startswith("{") else None
    if r is None or not r["path"].endswith(test):
        sys.stdout.write(line)
        continue
    if mode == "crash":
        sys.stdout.flush()
        sys.exit(99)
    if mode == "disagree":
        r["verdict"] = "FAIL"
        r["message"] = "engines disagree on %s: [smt only: made up by fake_litmus.sh]" % test
        print(json.dumps(r))
' "$FAKE_MODE" "$FAKE_TEST" <"$out"
}
rewrite
status=$?
rm -f "$out"
if [ "$status" = 99 ]; then kill -SEGV $$; fi
exit "$rc"
