#!/usr/bin/env bash
# The explicit engine on the dat3m corpus against an earlier commit (default da6e0e4, the last
# before the pruning was derived from the axioms), measured in the same run: both binaries check
# the whole corpus with one thread, alternately, ROUNDS times; prints CPU seconds (user + sys,
# which load on the machine inflates less than wall time) per run, the best of each, and their
# ratio. The earlier commit is built in a git worktree beside this checkout (its build is kept for
# the next run).
#
#   bench/corpus-ratio.sh [--base COMMIT] [--rounds N] [CORPUS_DIR] [LITMUS]
set -euo pipefail
cd "$(dirname "$0")/.."
base=da6e0e4
rounds=3
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -*) echo "usage: $0 [--base COMMIT] [--rounds N] [CORPUS_DIR] [LITMUS]" >&2; exit 2 ;;
    *) break ;;
  esac
done
corpus=${1:-../shared/corpus/dat3m-ptx}
litmus=${2:-build/litmus}
tree=../ptx-litmus-$base
if [ ! -x "$tree/build/litmus" ]; then
  [ -d "$tree" ] || git worktree add --detach "$tree" "$base" >&2
  cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$tree/build" -j"$(nproc)" --target litmus >&2
fi
# The earlier binary may not know -j; one thread was its only mode.
jobs_flag() { "$1" check --help 2>&1 | grep -q -- '-j' && echo "-j 1" || true; }
cpu_seconds() {  # BINARY: CPU seconds of one run over the corpus
  local t
  t=$(mktemp)
  # shellcheck disable=SC2046
  /usr/bin/time -o "$t" -f "%U %S" "$1" check $(jobs_flag "$1") --engine explicit "$corpus" \
    >/dev/null 2>&1 || true
  tail -1 "$t" | awk '{ printf "%.2f", $1 + $2 }'
  rm -f "$t"
}
best_base="" best_head=""
for r in $(seq "$rounds"); do
  b=$(cpu_seconds "$tree/build/litmus")
  h=$(cpu_seconds "$litmus")
  echo "round $r: $base ${b} s, this build ${h} s"
  best_base=$(awk -v a="$b" -v m="${best_base:-1e9}" 'BEGIN { print (a < m) ? a : m }')
  best_head=$(awk -v a="$h" -v m="${best_head:-1e9}" 'BEGIN { print (a < m) ? a : m }')
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
awk -v b="$best_base" -v h="$best_head" -v c="$base" \
  'BEGIN { printf "explicit engine, corpus, one thread, best CPU s: %s %.2f, this build %.2f, ratio %.2f\n", c, b, h, h / b }'
