#!/usr/bin/env bash
# F11 (docs/findings.md): where do the no-expect_tx pipelines' threads wait when a launch under the
# share-2 profile never ends? Run on the device from the repository root with the bundle
# (.device-bundle, ../shared/tools/device-bundle.sh); writes into $OUT.
# (ONLY_VARIANTS=1: step 4 only.)
# 1: the default profile with --trace-waits (the traced harness itself runs: both tests ok);
# 2: the share-2 profile untraced (the hang is still there: timeout);
# 3: the share-2 profile with --trace-waits (where the last launch's threads were).
set -u
L=(.device-bundle/run.sh litmus run)
P=results/h200/sweeps/tma-pipeline-S2-K3-no-expect_tx.share2.profile
WS=patterns/reference/warp-specialized/warp-specialized-S2-K3-C2-no-expect_tx.yaml
TMA=patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml
out=${OUT:-/tmp/f11-trace}
mkdir -p "$out"
[ -n "${ONLY_VARIANTS:-}" ] || {
"${L[@]}" --trace-waits --seed 3 -n 1e12 --budget 2 --timeout 12 "$WS" "$TMA" > "$out/default-traced.txt" 2>&1
echo "exit $?" >> "$out/default-traced.txt"
"${L[@]}" --profile "$P" --seed 3 -n 1e12 --budget 3 --timeout 12 "$WS" "$TMA" > "$out/share2-untraced.txt" 2>&1
echo "exit $?" >> "$out/share2-untraced.txt"
"${L[@]}" --trace-waits --profile "$P" --seed 3 -n 1e12 --budget 3 --timeout 12 --json "$out/share2-traced.json" \
  "$WS" "$TMA" > "$out/share2-traced.txt" 2>&1
echo "exit $?" >> "$out/share2-traced.txt"
}
# 4: two variants of each test under the share-2 profile, traced: the producer waits for its own
# arrival to complete the phase before it issues the last copy (arrive-done), and the copy issued
# before the arrival (copy-first, a hang the model allows); then copy-first under the default profile.
D=results/h200/f11-trace
"${L[@]}" --trace-waits --profile "$P" --seed 3 -n 1e12 --budget 3 --timeout 12 --json "$out/variants-share2.json" \
  "$D"/*-arrive-done.yaml "$D"/*-copy-first.yaml > "$out/variants-share2.txt" 2>&1
echo "exit $?" >> "$out/variants-share2.txt"
"${L[@]}" --trace-waits --seed 3 -n 1e12 --budget 3 --timeout 12 "$D"/*-copy-first.yaml > "$out/copy-first-default.txt" 2>&1
echo "exit $?" >> "$out/copy-first-default.txt"
