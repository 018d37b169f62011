#!/usr/bin/env bash
# Scaling of the two engines on parameterized families of litmus tests.
#   bench/scaling.sh [MAX_N] [LIMIT_S] [LITMUS]   (defaults: 8, 60, build/litmus)
# Families: IRIW with N readers; a WRC/ISA2-style release-acquire chain of N threads; N relaxed
# writes per thread to one location (two writers, one observer); MP with N data locations.
# Prints seconds per engine, or ">LIMIT" when an engine needed more than LIMIT_S seconds.
set -uo pipefail
cd "$(dirname "$0")/.."
max=${1:-8}
limit=${2:-60}
litmus=${3:-build/litmus}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

iriw() {  # writers of x and y, N readers reading x then y with fence.sc between
  local n=$1
  echo "name: IRIW-$n"; echo "locations: {x: 0, y: 0}"; echo "threads:"
  echo "  W0: {cta: 0, code: 'st.relaxed.gpu.global.u32 [x], 1;'}"
  echo "  W1: {cta: 1, code: 'st.relaxed.gpu.global.u32 [y], 1;'}"
  for i in $(seq 1 "$n"); do
    echo "  R$i: {cta: $((i + 1)), code: 'ld.relaxed.gpu.global.u32 %r0, [x]; fence.sc.gpu; ld.relaxed.gpu.global.u32 %r1, [y];'}"
  done
  echo "condition: exists (R1:r0 == 1 /\\ R1:r1 == 0)"
}
chain() {  # P0 writes data and releases f1; Pi acquires f(i) and releases f(i+1); last reads data
  local n=$1
  echo "name: CHAIN-$n"; echo "locations:"; echo "  data: 0"
  for i in $(seq 1 "$n"); do echo "  f$i: 0"; done
  echo "threads:"
  echo "  P0: {cta: 0, code: 'st.global.u32 [data], 1; st.release.gpu.global.u32 [f1], 1;'}"
  for i in $(seq 1 $((n - 1))); do
    echo "  P$i: {cta: $i, code: 'ld.acquire.gpu.global.u32 %r0, [f$i]; st.release.gpu.global.u32 [f$((i + 1))], 1;'}"
  done
  echo "  P$n: {cta: $n, code: 'ld.acquire.gpu.global.u32 %r0, [f$n]; ld.global.u32 %r1, [data];'}"
  echo "condition: exists (P$n:r0 == 1 /\\ P$n:r1 == 0)"
}
writes() {  # two threads each writing 1..N to x, an observer reading x twice
  local n=$1 a="" b=""
  for i in $(seq 1 "$n"); do a="$a st.relaxed.gpu.global.u32 [x], $i;"; b="$b st.relaxed.gpu.global.u32 [x], $((i + 100));"; done
  echo "name: WRITES-$n"; echo "locations: {x: 0}"; echo "threads:"
  echo "  P0: {cta: 0, code: '$a'}"; echo "  P1: {cta: 1, code: '$b'}"
  echo "  P2: {cta: 2, code: 'ld.relaxed.gpu.global.u32 %r0, [x]; ld.relaxed.gpu.global.u32 %r1, [x];'}"
  echo "condition: exists (P2:r0 == $n /\\ P2:r1 == 1)"
}
mpdata() {  # N weak data writes, a release flag; the consumer acquires and reads every datum
  local n=$1 p="" c="ld.acquire.gpu.global.u32 %r0, [f];"
  echo "name: MP-$n"; echo "locations:"; echo "  f: 0"
  for i in $(seq 1 "$n"); do echo "  d$i: 0"; p="$p st.global.u32 [d$i], 1;"; c="$c ld.global.u32 %r$i, [d$i];"; done
  echo "threads:"; echo "  P0: {cta: 0, code: '$p st.release.gpu.global.u32 [f], 1;'}"; echo "  P1: {cta: 1, code: '$c'}"
  echo "condition: exists (P1:r0 == 1 /\\ P1:r1 == 0)"
}

time_engine() {  # prints seconds or >limit
  local engine=$1 file=$2 t0 t1
  t0=$(date +%s%N)
  if timeout "$limit" "$litmus" check --engine "$engine" "$file" >/dev/null 2>&1; then
    t1=$(date +%s%N)
    awk -v ns="$((t1 - t0))" 'BEGIN { printf "%.3f", ns / 1e9 }'
  else
    echo ">$limit"
  fi
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-8s %4s %12s %12s\n' family N explicit_s smt_s
for fam in iriw chain writes mpdata; do
  skip_e=0 skip_s=0
  for n in $(seq 2 "$max"); do
    f="$dir/$fam-$n.yaml"
    "$fam" "$n" >"$f"
    e=">$limit"; s=">$limit"
    [ $skip_e = 0 ] && e=$(time_engine explicit "$f")
    [ $skip_s = 0 ] && s=$(time_engine smt "$f")
    [[ $e == ">"* ]] && skip_e=1
    [[ $s == ">"* ]] && skip_s=1
    printf '%-8s %4d %12s %12s\n' "$fam" "$n" "$e" "$s"
    [ $skip_e = 1 ] && [ $skip_s = 1 ] && break
  done
done
