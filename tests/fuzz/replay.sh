#!/usr/bin/env bash
# Replays the minimised fuzz findings (tests/fuzz/regressions/TARGET/*) through the fuzz targets
# (docs/fuzzing.md): each input must run to its end, under the sanitizers in the sanitizer build.
# The inputs go by name, never as a directory: a libFuzzer binary (LITMUS_FUZZ, CI's sanitizer
# tree) runs named files once each, but would start fuzzing from a directory.
#   tests/fuzz/replay.sh BUILD_DIR REGRESSIONS_DIR
set -u
. "$(dirname "$0")/../lib.sh"
bin=$1
dir=$2
ran=0
for target in fuzz_yaml fuzz_herd fuzz_check; do
  [ -d "$dir/$target" ] || continue
  ran=1
  # a minute each at most: a regression of an endless loop must fail, not hang the suite
  mapfile -t inputs < <(find "$dir/$target" -type f | sort)
  if out=$(timeout 60 "$bin/$target" "${inputs[@]}" 2>&1); then ok "$target: ${#inputs[@]} inputs"
  else notok "$target: failed or ran past 60 s" "$out"; fi
done
check "regression inputs under $dir" test "$ran" -eq 1
finish
