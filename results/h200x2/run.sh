#!/usr/bin/env bash
# Two GPUs of one host, from the repository root:
#   results/h200x2/run.sh LITMUS OUT
# 1. the six catalogue tests that place threads on two GPUs, each thread's GPU as written;
# 2. the same refused when only one GPU is visible;
# 3. a test that hangs on GPU 1 (the watchdog across GPUs), then a two-GPU test in a fresh worker;
# 4. the whole catalogue on one GPU (--gpus 0) and on every GPU (--gpus all), for the speedup
#    and the distributions. Budgets keep the whole under 9 minutes.
set -uo pipefail
litmus=$1 out=$2
mkdir -p "$out"
step() {  # NAME COMMAND...: runs it, keeps stdout/stderr, prints the exit and the summary
  local name=$1 start=$(date +%s.%N)
  shift
  timeout 200 "$@" >"$out/$name.txt" 2>"$out/$name.err"
  local rc=$?
  echo "$name: exit $rc in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
  grep -E '^(Timing|Summary)' "$out/$name.txt"
}
nvidia-smi -L
nvidia-smi topo -m
mapfile -t two < <(grep -l 'gpu:' -r catalog | sort)
step diffgpu "$litmus" run -n 1e8 --budget 5 --timeout 60 --json "$out/diffgpu.json" "${two[@]}"
grep -E '^(Test|Verdict|Condition|Instances|VIOLATION)' "$out/diffgpu.txt"
CUDA_VISIBLE_DEVICES=0 step refused-one-gpu "$litmus" run -n 1e6 catalog/shapes/MP+rel.gpu+acq.gpu-diffgpu.yaml
tail -2 "$out/refused-one-gpu.err"
cat >/tmp/hang-diffgpu.yaml <<'YAML'
name: hang-diffgpu
locations: {x: 0}
threads:
  P0:
    cta: 0
    code: |
      ld.relaxed.sys.global.u32 %r0, [x];
  P1:
    cta: 1
    gpu: 1
    code: |
      L: ld.relaxed.sys.global.u32 %r1, [x];
      setp.eq.u32 %p, %r1, 0;
      @%p bra L;
condition: exists (P0:r0 == 0)
YAML
step hang "$litmus" run --timeout 10 -n 1e6 /tmp/hang-diffgpu.yaml catalog/shapes/MP+rel.gpu+acq.gpu-diffgpu.yaml
grep -E '^Test' "$out/hang.txt"
step catalog-all "$litmus" run --gpus all -n 1e8 --seed 1 --timeout 5 --json "$out/catalog-all.json" catalog
step catalog-one "$litmus" run --gpus 0 -n 1e8 --seed 1 --timeout 5 --json "$out/catalog-one.json" catalog
