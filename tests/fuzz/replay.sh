#!/usr/bin/env bash
# Replays the minimised fuzz findings (tests/fuzz/regressions/TARGET/*) through the fuzz targets
# built as plain drivers (docs/fuzzing.md): each input must run to its end, under the sanitizers
# in the sanitizer build.
#   tests/fuzz/replay.sh BUILD_DIR REGRESSIONS_DIR
set -euo pipefail
bin=$1
dir=$2
ran=0
for target in fuzz_yaml fuzz_herd fuzz_check; do
  [ -d "$dir/$target" ] || continue
  # a minute each at most: a regression of an endless loop must fail, not hang the suite
  out=$(timeout 60 "$bin/$target" "$dir/$target") || { echo "$target: failed or ran past 60 s" >&2; exit 1; }
  echo "$target: $out"
  ran=1
done
[ "$ran" -eq 1 ] || { echo "no regression inputs under $dir" >&2; exit 1; }
