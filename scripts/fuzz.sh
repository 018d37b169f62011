#!/usr/bin/env bash
# Fuzzing campaigns (docs/fuzzing.md): builds the libFuzzer targets of tests/fuzz/ with clang,
# AddressSanitizer and UBSan into build-fuzz/, seeds a corpus from the project's own tests (the
# catalogue, tests/**) and, when it is there, ../shared/corpus (read at run time, never copied into
# the repository), then runs each target for SECONDS.
#
#   scripts/fuzz.sh [--seconds N] [--build-only] [--all] [TARGET...]
#
# --all builds every target of the tree, not only the fuzz targets: the tree is then a sanitizer
# build of the whole project as well (CI runs ctest in it). LITMUS_CMAKE_ARGS adds cmake arguments
# (CI: -DLITMUS_WERROR=ON).
# TARGET: fuzz_yaml, fuzz_herd, fuzz_check (default: all three). N defaults to 60 (the CI smoke
# run); a campaign is the same command with a larger N, e.g. --seconds 3600. The corpus of each
# target grows in build-fuzz/corpus/TARGET across runs; a crash, leak, hang (-timeout) or memory
# blow-up (-rss_limit_mb) leaves its input in build-fuzz/findings/TARGET/ and fails the run.
# Minimise a finding with `build-fuzz/TARGET -minimize_crash=1 -runs=10000 FILE` and keep it in
# tests/fuzz/regressions/TARGET/ (or tests/bad-input/ when it is a bad input with a message).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build_only=0
all=0
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --all) all=1; shift ;;
    fuzz_yaml | fuzz_herd | fuzz_check) targets+=("$1"); shift ;;
    *) echo "usage: $0 [--seconds N] [--build-only] [--all] [fuzz_yaml|fuzz_herd|fuzz_check ...]" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_yaml fuzz_herd fuzz_check)

build=build-fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 and line tables only: the build is quicker, stack traces still name lines
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DLITMUS_FUZZ=ON "${launcher[@]}" ${LITMUS_CMAKE_ARGS:-} >/dev/null
if [ "$all" -eq 1 ]; then
  cmake --build "$build" -j"$(nproc)" >&2
else
  cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >&2
fi
[ "$build_only" -eq 0 ] || exit 0

# Seeds: every test the project has, YAML and herd, the bad inputs included (their messages are
# the paths the fuzzer should start from); the shared corpus when present.
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds/yaml" "$seeds/herd"
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  case $f in
    *.litmus) cp "$f" "$seeds/herd/$n.litmus" ;;
    *) cp "$f" "$seeds/yaml/$n.yaml" ;;
  esac
done < <(find litmus/catalog tests -type f \( -name '*.yaml' -o -name '*.litmus' \) -size -16k -print0)
shared=../shared/corpus
if [ -d "$shared" ]; then
  while IFS= read -r -d '' f; do
    n=$((n + 1))
    cp "$f" "$seeds/herd/$n.litmus"
  done < <(find "$shared" -type f -name '*.litmus' -size -16k -print0)
fi

status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  findings=$build/findings/$t/
  mkdir -p "$corpus" "$findings"
  case $t in
    fuzz_yaml) dirs=("$seeds/yaml") ;;
    fuzz_herd) dirs=("$seeds/herd") ;;
    *) dirs=("$seeds/yaml" "$seeds/herd") ;;
  esac
  echo "fuzz: $t for $seconds s" >&2
  # detect_leaks: the targets keep nothing between inputs; allocator_may_return_null: an
  # allocation that fails is bad_alloc, which the checker turns into Unknown
  # The outer timeout: libFuzzer's own (-timeout) reports a slow input from a signal handler that
  # allocates, and has been seen to deadlock when the signal came inside an allocation.
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    timeout --kill-after=10 $((seconds + 120)) \
    "$build/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
      -dict=tests/fuzz/ptx.dict -artifact_prefix="$findings" -print_final_stats=1 \
      "$corpus" "${dirs[@]}" 2>"$build/$t.log"; then
    echo "fuzz: $t found something (log: $build/$t.log, input in $findings):" >&2
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$build/$t.log" | head -5 >&2 || true
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$t.log" | sed "s/^/fuzz: $t /" >&2 || true
done
exit $status
