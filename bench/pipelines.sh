#!/usr/bin/env bash
# The scaling curve of the warp-specialized TMA pipeline (patterns/families.py): time and peak
# memory per engine over stages S, tiles K, consumer warps C and words per tile W, for the correct
# pipeline and, with --bugs, each of its bug kinds. The tests are written by the pattern generator
# at each size into a temporary directory (nothing is committed) and timed by bench/patterns.sh,
# one check per process, one core.
#
#   bench/pipelines.sh [--timeout T] [--engines "explicit smt"] [--bugs] [--litmus PATH]
#                      [--args "CHECK OPTIONS"] [SIZE...]
#
# SIZE is S,K,C,W (default: the curve below). Prints one Markdown table; a check that runs out
# of time or memory is listed as Unknown with its reason.
set -uo pipefail
cd "$(dirname "$0")/.."
timeout=60
engines="explicit smt"
bugs=0
litmus=build/litmus
args=""
sizes=()
while [ $# -gt 0 ]; do
  case $1 in
    --timeout) timeout=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --bugs) bugs=1; shift ;;
    --litmus) litmus=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    -*) echo "usage: $0 [--timeout T] [--engines LIST] [--bugs] [--litmus PATH] [--args OPTIONS] [S,K,C,W...]" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(2,2,2,4 2,3,1,4 2,3,2,1 2,3,2,4 2,3,2,16 2,3,3,4 2,4,2,4 2,6,2,4
                                 3,6,2,4 4,8,2,4)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in "${sizes[@]}"; do
  IFS=, read -r S K C W <<<"$size"
  out="$tmp/S$S-K$K-C$C-W$W"
  python3 -m litmuspy.patterns.generate --out "$out" --only warp-specialized \
    --size "S=$S" --size "K=$K" --size "C=$C" --size "W=$W" >/dev/null || exit 2
  # the correct pipeline is named after its sizes; its bug kinds add "-KIND"
  base="warp-specialized-S$S-K$K"
  [ "$C" -gt 1 ] && base="$base-C$C"
  [ "$W" -gt 1 ] && base="$base-W$W"
  if [ "$bugs" = 0 ]; then
    for f in "$out"/warp-specialized/*.yaml; do
      [ "$(basename "$f" .yaml)" = "$base" ] || rm -f "$f"
    done
  fi
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), timeout ${timeout} s"
echo "check options: ${args:-(none)}"
taskset -c 0 bash bench/patterns.sh --timeout "$timeout" --engines "$engines" --litmus "$litmus" --args "$args" "$tmp"
