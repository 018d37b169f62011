#!/usr/bin/env bash
# Is `--timeout` a deadline? Checks every test under the given paths in its own `litmus check
# --timeout T` process and measures each process's wall time (start-up, parsing, checking, the
# solver's teardown and printing: what a user waits for).
#
#   bench/timeout.sh [--engine E] [--timeout T] [--bound B] [--litmus PATH] [PATH...]
#
# Defaults: engine auto, T = 0.2 s, B = 0.7 s, build/litmus, paths catalog and
# ../shared/corpus/dat3m-ptx. Prints the tests over B (name and seconds), the slowest test, and
# totals: tests, exit codes (0 ok, 1 expectation failed, 2 refused, 3 unknown), summed wall time.
# Exits 1 when some test took longer than B, 0 otherwise. Each process is also stopped after 60 s
# (counted as 60 s), so a deadline that is ignored cannot hang the bench.
set -uo pipefail
cd "$(dirname "$0")/.."
engine=auto
limit=0.2
bound=0.7
litmus=build/litmus
paths=()
while [ $# -gt 0 ]; do
  case $1 in
    --engine) engine=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --bound) bound=$2; shift 2 ;;
    --litmus) litmus=$2; shift 2 ;;
    -*) echo "usage: $0 [--engine E] [--timeout T] [--bound B] [--litmus PATH] [PATH...]" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -gt 0 ] || paths=(catalog ../shared/corpus/dat3m-ptx)
[ -x "$litmus" ] || { echo "$0: $litmus is not an executable" >&2; exit 2; }

times=$(mktemp)
trap 'rm -f "$times"' EXIT
while IFS= read -r f; do
  t0=$(date +%s%N)
  timeout 60 "$litmus" check --engine "$engine" --timeout "$limit" "$f" >/dev/null 2>&1
  rc=$?
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $rc $f" >>"$times"
done < <(find "${paths[@]}" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.litmus' \) | sort)

echo "litmus check --engine $engine --timeout $limit, one process per test, bound $bound s"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
awk -v bound="$bound" '
  { us = $1; rc = $2; name = $3; n++; sum += us; codes[rc]++
    if (us > max) { max = us; slowest = name }
    if (us / 1e6 > bound) { over++; printf "over %s s: %.3f s  %s (exit %d)\n", bound, us / 1e6, name, rc } }
  END {
    printf "tests %d, over %s s: %d\n", n, bound, over + 0
    printf "slowest: %.3f s  %s\n", max / 1e6, slowest
    printf "exit codes:"; for (c in codes) printf " %s:%d", c, codes[c]; printf "\n"
    printf "summed wall time: %.1f s, mean %.3f s\n", sum / 1e6, n ? sum / n / 1e6 : 0
    exit over > 0 } ' "$times"
