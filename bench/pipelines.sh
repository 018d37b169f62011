#!/usr/bin/env bash
# The scaling curve of a pipeline family of the pattern library (litmuspy/patterns): time and peak
# memory per engine over its sizes, for the correct pipeline and, with --bugs, each of its bug
# kinds. The tests are written by the pattern generator at each size into a temporary directory
# (nothing is committed) and timed by bench/patterns.sh, one check per process, one core.
#
#   bench/pipelines.sh [--family F] [--timeout T] [--engines "explicit smt"] [--bugs]
#                      [--litmus PATH] [--args "CHECK OPTIONS"] [SIZE...]
#
# F is warp-specialized (default), persistent, multicast-pipeline or ping-pong (or any family of
# litmuspy/patterns/registry.py). SIZE is NAME=VALUE,NAME=VALUE... (e.g. S=4,T=8,B=2), or for
# warp-specialized also S,K,C,W; default: the family's curve below. Prints one Markdown table; a
# check that runs out of time or memory is listed as Unknown with its reason.
set -uo pipefail
cd "$(dirname "$0")/.."
family=warp-specialized
timeout=60
engines="explicit smt"
bugs=0
litmus=build/litmus
args=""
sizes=()
while [ $# -gt 0 ]; do
  case $1 in
    --family) family=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --bugs) bugs=1; shift ;;
    --litmus) litmus=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    -*) echo "usage: $0 [--family F] [--timeout T] [--engines LIST] [--bugs] [--litmus PATH] [--args OPTIONS] [SIZE...]" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
if [ ${#sizes[@]} -eq 0 ]; then
  case $family in
    warp-specialized) sizes=(2,2,2,4 2,3,1,4 2,3,2,1 2,3,2,4 2,3,2,16 2,3,3,4 2,4,2,4 2,6,2,4 3,6,2,4 4,8,2,4) ;;
    persistent) sizes=(S=2,T=2,B=2 S=2,T=4,B=2 S=4,T=8,B=2) ;;
    multicast-pipeline) sizes=(N=2,S=2,K=3 N=2,S=2,K=4 N=4,S=2,K=3 N=4,S=4,K=8) ;;
    ping-pong) sizes=(S=2,K=3 S=2,K=4 S=4,K=8) ;;
    *) echo "$0: no default sizes for --family $family: give SIZE..." >&2; exit 2 ;;
  esac
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in "${sizes[@]}"; do
  if [[ $size != *=* ]]; then  # S,K,C,W
    IFS=, read -r S K C W <<<"$size"
    size="S=$S,K=$K,C=$C,W=$W"
  fi
  args_=()
  IFS=, read -r -a pairs <<<"$size"
  for p in "${pairs[@]}"; do args_+=(--size "$p"); done
  out="$tmp/${size//[=,]/}"
  python3 -m litmuspy.patterns.generate --out "$out" --only "$family" "${args_[@]}" >/dev/null || exit 2
  # the correct pipeline is the family's first test; its bug kinds add "-KIND" to its name
  if [ "$bugs" = 0 ]; then
    base=$(python3 -c 'import sys
from litmuspy.patterns.generate import family_tests, parse_sizes
print(family_tests(sys.argv[1], parse_sizes(sys.argv[2:]))[0]["name"])' "$family" "${pairs[@]}") || exit 2
    for f in "$out/$family"/*.yaml; do
      [ "$(basename "$f" .yaml)" = "$base" ] || rm -f "$f"
    done
  fi
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), timeout ${timeout} s"
echo "check options: ${args:-(none)}"
taskset -c 0 bash bench/patterns.sh --timeout "$timeout" --engines "$engines" --litmus "$litmus" --args "$args" "$tmp"
