#!/usr/bin/env bash
# Scaling of the pattern library (docs/patterns.md): time and peak memory of `litmus check` per
# pattern, size and engine, each test in its own process, printed as a Markdown table.
#
#   bench/patterns.sh [--timeout T] [--memory KB] [--engines "explicit smt"] [--litmus PATH]
#                     [--args "CHECK OPTIONS"] [PATH...]
#
# --args passes options to each `litmus check` (e.g. "--max-states 256" or "--explain").
# Defaults: T = 60 s per check, the address space capped at 4000000 KB (ulimit -v), both engines,
# build/litmus, paths patterns/scaling and patterns/reference. A check that runs out
# of time or memory is listed as Unknown with its reason; the table says where each engine stops.
set -uo pipefail
cd "$(dirname "$0")/.."
limit=60
memory=4000000
engines="explicit smt"
litmus=build/litmus
args=""
paths=()
while [ $# -gt 0 ]; do
  case $1 in
    --timeout) limit=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --litmus) litmus=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    -*) echo "usage: $0 [--timeout T] [--memory KB] [--engines LIST] [--litmus PATH] [--args OPTIONS] [PATH...]" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -gt 0 ] || paths=(patterns/scaling patterns/reference)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| test | engine | verdict | seconds | cpu s | peak MB |"
echo "|---|---|---|---:|---:|---:|"
while IFS= read -r f; do
  for e in $engines; do
    ( ulimit -v "$memory"
      /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" timeout $((limit + 30)) \
        "$litmus" check --engine "$e" --timeout "$limit" $args "$f" > "$tmp/out" 2>&1 )
    read -r secs kb user sys < <(tail -1 "$tmp/time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    verdict=$(grep -m1 '^Observation' "$tmp/out" | cut -d' ' -f3)
    reason=$(grep -m1 '^Unknown' "$tmp/out" | cut -d' ' -f2-)
    [ -n "$reason" ] && verdict="Unknown ($reason)"
    [ -z "$verdict" ] && verdict="error: $(head -1 "$tmp/out")"
    echo "| $(basename "$f" .yaml) | $e | $verdict | $secs | $cpu | $((kb / 1024)) |"
  done
done < <(find "${paths[@]}" -name '*.yaml' | sort)
