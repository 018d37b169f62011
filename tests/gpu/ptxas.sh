#!/usr/bin/env bash
# Every catalogue test's generated PTX assembles with ptxas for the target its `.target` line
# names (`-arch=sm_90`, or `-arch=sm_90a` for the architecture-specific wgmma and setmaxnreg), and every test is
# either generated or refused with a reason (never dropped silently); so does every known-answer
# test of `litmus run --self-test` (gpu-runner/self-test), none of which may be refused.
#
#   bash tests/gpu/ptxas.sh PATH-TO-LITMUS [SOURCE-DIR]
#
# ptxas is $LITMUS_PTXAS when set, else looked up in PATH, then in /usr/local/cuda/bin. Without it
# the script exits 77, which ctest reports as skipped. Exit 1 when a module does not assemble.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PATH-TO-LITMUS [SOURCE-DIR]" >&2
  exit 2
fi
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "${2:-}"
if [ -n "${LITMUS_PTXAS+set}" ]; then
  PTXAS=$LITMUS_PTXAS
else
  PTXAS=$(command -v ptxas || true)
  if [ -z "$PTXAS" ] && [ -x /usr/local/cuda/bin/ptxas ]; then PTXAS=/usr/local/cuda/bin/ptxas; fi
fi
if [ -z "$PTXAS" ] || [ ! -x "$PTXAS" ]; then
  echo "skipped: ptxas not found (PATH, /usr/local/cuda/bin)"
  exit 77
fi

"$LITMUS" run --emit-ptx "$TMP/ptx" "$SRC/catalog" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then  # 3: some test refused
  echo "litmus run --emit-ptx exited $rc"
  cat "$TMP/err"
  exit 1
fi
# The known-answer tests of --self-test must all generate (none refused) and assemble too.
"$LITMUS" run --emit-ptx "$TMP/self" "$SRC/gpu-runner/self-test" >"$TMP/self.out" 2>"$TMP/self.err"
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: litmus run --emit-ptx gpu-runner/self-test exited $rc"
  cat "$TMP/self.err"
  exit 1
fi
mv "$TMP"/self/*.ptx "$TMP/ptx/"
files=$(find "$SRC/catalog" "$SRC/gpu-runner/self-test" -name '*.yaml' | wc -l)
generated=$(find "$TMP/ptx" -name '*.ptx' 2>/dev/null | wc -l)
refused=$(grep -c ': error: ' "$TMP/err")
failed=0
for f in "$TMP"/ptx/*.ptx; do
  [ -e "$f" ] || continue
  # the module's own target: sm_90a code does not assemble for sm_90, and the reverse hides nothing
  arch=$(sed -n 's/^\.target[[:space:]]*\(sm_[0-9]*a\?\).*/\1/p' "$f" | head -n 1)
  if ! "$PTXAS" -arch="${arch:-sm_90}" "$f" -o /dev/null 2>"$TMP/ptxas.err"; then
    failed=$((failed + 1))
    echo "FAIL $(basename "$f"):"
    head -5 "$TMP/ptxas.err" | sed 's/^/  /'
  fi
done
if [ "$refused" -gt 0 ]; then
  echo "refused (file: reason):"
  sed "s|^$SRC/||; s/^/  /" "$TMP/err"
fi
echo "$("$PTXAS" --version | tail -1)"
echo "$files catalogue and self-test tests: $generated generated, $((generated - failed)) assembled with ptxas -arch=TARGET," \
     "$failed failed to assemble, $refused refused"
# The generated peer tests (gen/configs/peer-nine.yaml) all run in serial roles (kFlagSerial): their
# PTX holds the serial path and the launch-wide barrier, whatever the profile (the launch words
# choose at run time). Every one must have it; a sample of 1 in 16 is assembled (all 1,106 take
# about 3 minutes here).
peer_failed=0
if [ -f "$SRC/gen/configs/peer-nine.yaml" ]; then
  (cd "$SRC" && "$LITMUS" gen --config gen/configs/peer-nine.yaml -o "$TMP/peer" >"$TMP/peer.out" 2>&1) &&
    "$LITMUS" run --emit-ptx "$TMP/peerptx" "$TMP/peer" >>"$TMP/peer.out" 2>&1 || peer_failed=1
  peers=$(find "$TMP/peerptx" -name '*.ptx' 2>/dev/null | wc -l)
  serial=$(grep -l '^H_SERIAL:' "$TMP"/peerptx/*.ptx 2>/dev/null | wc -l)
  sample=0
  for f in $(find "$TMP/peerptx" -name '*.ptx' | sort | awk 'NR % 16 == 1'); do
    sample=$((sample + 1))
    if ! "$PTXAS" -arch=sm_90 "$f" -o /dev/null 2>"$TMP/ptxas.err"; then
      peer_failed=1
      echo "FAIL $(basename "$f"):"
      head -5 "$TMP/ptxas.err" | sed 's/^/  /'
    fi
  done
  echo "peer tests: $peers generated, $serial with the serial path, $sample sampled and assembled"
  if [ "$peers" -eq 0 ] || [ "$serial" -ne "$peers" ]; then
    echo "FAIL: every generated peer test must have the serial path"
    cat "$TMP/peer.out"
    peer_failed=1
  fi
fi
# --trace-waits (docs/wait-trace.md): the traced modules of the pattern library and of catalogue
# tests in every mode (lane, warp, fixed, serial roles, clusters, warpgroups, texture aliases) carry
# p_trace (unless across GPUs, which are not traced) and assemble too.
trace_failed=0
"$LITMUS" run --trace-waits --emit-ptx "$TMP/traced" "$SRC/patterns/reference" "$SRC/catalog/shapes" \
  "$SRC/catalog/alias" "$SRC/catalog/warp" "$SRC/catalog/wgmma" "$SRC/catalog/proxy" >"$TMP/traced.out" 2>&1
traced=0
for f in "$TMP"/traced/*.ptx; do
  [ -e "$f" ] || continue
  traced=$((traced + 1))
  arch=$(sed -n 's/^\.target[[:space:]]*\(sm_[0-9]*a\?\).*/\1/p' "$f" | head -n 1)
  # a test across GPUs (p_gpu) is not traced
  if ! grep -q '\.param \.u64 p_trace\|\.param \.u32 p_gpu' "$f" || ! "$PTXAS" -arch="${arch:-sm_90}" "$f" -o /dev/null 2>"$TMP/ptxas.err"; then
    trace_failed=1
    echo "FAIL (--trace-waits) $(basename "$f"):"
    head -5 "$TMP/ptxas.err" | sed 's/^/  /'
  fi
done
echo "--trace-waits: $traced modules assembled, each with p_trace or across GPUs (untraced)"
[ "$traced" -gt 100 ] || { echo "FAIL: too few traced modules ($traced)"; trace_failed=1; }
status=0
[ "$peer_failed" -eq 0 ] && [ "$trace_failed" -eq 0 ] || status=1
if [ $((generated + refused)) -ne "$files" ]; then
  echo "FAIL: $((files - generated - refused)) tests were neither generated nor refused"
  status=1
fi
[ "$failed" -eq 0 ] && [ "$generated" -gt 0 ] || status=1
exit $status
