#!/usr/bin/env bash
# Several GPUs without a GPU (docs/gpu-runner.md, "Several GPUs"): `litmus run --gpus` and tests
# across GPUs against the fake driver with $FAKE_CUDA_DEVICES devices. The fake logs each context
# it makes ("retain PID DEV") and module it loads ("load PID NAME DEV"), and fails a launch the
# runner gets wrong across devices (another context's kernel, a wrong p_gpu, no peer access, a
# device synchronized before every device had queued its roles).
#
#   bash tests/gpu/multi.sh PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA [SOURCE-DIR]
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA [SOURCE-DIR]" >&2
  exit 2
fi
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
FAKE=$2
lib_source "${3:-}"
cd "$SRC" || exit 2
MP=catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml
DIFF=catalog/shapes/MP+rel.gpu+acq.gpu-diffgpu.yaml

fake() {  # fake DEVICES ARGS...: litmus against the fake driver with that many devices
  local n=$1
  shift
  rm -f "$TMP/ctx" "$TMP/launches"
  FAKE_CUDA_DEVICES=$n FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_LAUNCH_LOG=$TMP/launches LITMUS_LIBCUDA=$FAKE lit "$@"
}
json() { grep -o "\"$1\":[^,]*" "$TMP/run.json" | head -1 | cut -d: -f2; }
jsonArray() { grep -o "\"$1\":\[[^]]*\]" "$TMP/run.json" | head -1 | sed 's/.*\[//; s/\]//'; }

# A test on one GPU, split over three: a worker and a context per device, the shares' instances
# summed, each share at least its part of -n (whole launches), the JSON naming the GPUs.
export FAKE_CUDA_STATES="0,0;1,1"
fake 3 run --gpus all -n 100000 --json "$TMP/run.json" "$MP"
check "--gpus all: exit 0" test $RC -eq 0
check "--gpus all: three workers" test "$(cut -d' ' -f2 "$TMP/ctx" | sort -u | wc -l)" -eq 3
check "--gpus all: one context per device" test "$(grep '^retain ' "$TMP/ctx" | cut -d' ' -f3 | sort | tr '\n' ' ')" = "0 1 2 "
check "--gpus all: each worker loads the test on its own device" \
  test "$(grep '^load ' "$TMP/ctx" | awk '{print $4}' | sort | tr '\n' ' ')" = "0 1 2 "
check "--gpus all: the header names the devices" has out "Test MP+rel.gpu+acq.gpu-diffcta on GPUs 0,1,2: Fake GPU (4 SMs, sm_90) each"
check "--gpus all: json gpus" test "$(jsonArray gpus)" = "0,1,2"
shares=$(jsonArray gpuInstances)
total=$(json instances)
check "--gpus all: the merged instances are the shares' sum ($shares: $total)" \
  test "$(echo "$shares" | tr ',' '\n' | awk '{s += $1} END {print s}')" = "$total"
check "--gpus all: each share runs at least its part of -n (33334, 33333, 33333)" \
  awk -v s="$shares" 'BEGIN { n = split(s, a, ","); exit !(n == 3 && a[1] >= 33334 && a[2] >= 33333 && a[3] >= 33333) }'
check "--gpus all: the histogram counts every instance" \
  test "$(grep -o '"count":[0-9]*' "$TMP/run.json" | cut -d: -f2 | awk '{s += $1} END {print s}')" = "$total"
check "--gpus all: the report's instance line" grep -qE "^Instances $total in " "$TMP/out"
# one GPU of the list keeps the seed: --gpus 0 runs what a run without --gpus runs
fake 3 run -n 100000 --json "$TMP/run.json" "$MP"
plain=$(json instances)
check "no --gpus: device 0 only, one worker" test "$(grep -c '^retain ' "$TMP/ctx")" -eq 1 -a "$(grep '^retain ' "$TMP/ctx" | cut -d' ' -f3)" = 0
check "no --gpus: json gpus [0]" test "$(jsonArray gpus)" = "0"
fake 3 run --gpus 0 -n 100000 --json "$TMP/run.json" "$MP"
check "--gpus 0 runs what no --gpus runs ($plain instances)" test "$(json instances)" = "$plain"
fake 3 run --gpus 2 -n 1000 --json "$TMP/run.json" "$MP"
check "--gpus 2: the worker uses device 2" test "$(grep '^retain ' "$TMP/ctx" | cut -d' ' -f3)" = 2 -a "$(jsonArray gpus)" = "2"
check "--gpus 2: the header names it" has out "Test MP+rel.gpu+acq.gpu-diffcta on GPU 2: Fake GPU (4 SMs, sm_90), seed 1"

# Bad lists: exit 2 before anything runs.
for bad in "0,0" "x" "1,,2" "" "0,3"; do
  fake 3 run --gpus "$bad" -n 1000 "$MP"
  check "--gpus '$bad': exit 2" test $RC -eq 2
  check "--gpus '$bad': says so" grep -qE "^litmus run: (bad value '.*' for --gpus|--gpus $bad): " "$TMP/err"
  check "--gpus '$bad': runs nothing" test ! -e "$TMP/ctx"
done
check "--gpus beyond the machine: names the count" has err "there is no GPU 3: this machine has 3 (0 to 2)"
fake 3 run --gpus all --self-test
check "--gpus with --self-test: usage error" test $RC -eq 2

# A test across two GPUs: one worker owns both devices, loads the module in each context and
# launches on both every time (test GPU 1's launches on device 1), the tally on the first.
fake 2 run -n 1000 --json "$TMP/run.json" "$DIFF"
check "across GPUs, 2 devices: runs, exit 0" test $RC -eq 0
check "across GPUs: one worker, a context on each device" \
  test "$(grep -c '^retain ' "$TMP/ctx")" -eq 2 -a "$(cut -d' ' -f2 "$TMP/ctx" | sort -u | wc -l)" -eq 1
check "across GPUs: the module loaded on both" test "$(grep -c '^load ' "$TMP/ctx")" -eq 2
launches=$(json launches)
check "across GPUs: a test launch per device per launch ($launches launches)" \
  test "$(grep -cx test "$TMP/launches")" -eq "$launches" -a "$(grep -cx 'test gpu 1' "$TMP/launches")" -eq "$launches"
check "across GPUs: the tally on the first device only" test "$(grep -c 'tally gpu' "$TMP/launches")" -eq 0
check "across GPUs: the header names both" has out "on GPUs 0,1: Fake GPU (4 SMs, sm_90) each"
check "across GPUs: json gpus and per-GPU instances" \
  test "$(jsonArray gpus)" = "0,1" -a "$(jsonArray gpuInstances)" = "$(json instances),$(json instances)"
fake 1 run -n 1000 --json "$TMP/run.json" "$DIFF"
check "across GPUs, 1 device: refused, exit 3" test $RC -eq 3
check "across GPUs, 1 device: the reason names the GPU count" \
  has err "the GPU runner cannot run test MP+rel.gpu+acq.gpu-diffgpu: it needs 2 GPUs; this machine has 1"
check "across GPUs, 1 device: json says refused" grep -q '"verdict":"refused".*needs 2 GPUs; this machine has 1' "$TMP/run.json"
check "across GPUs, 1 device: no worker started" test ! -e "$TMP/ctx"
FAKE_CUDA_NO_PEER=1 fake 2 run -n 1000 "$DIFF"
check "across GPUs without peer access: refused, exit 3" test $RC -eq 3
check "across GPUs without peer access: says so" has err "GPU 1 cannot access the memory of GPU 0"
fake 3 run --gpus 1 -n 1000 "$DIFF"
check "across GPUs, --gpus with one GPU: refused" test $RC -eq 3 -a "$(grep -c 'needs 2 GPUs; --gpus gives 1' "$TMP/err")" -eq 1
fake 3 run --gpus 2,0,1 -n 1000 --json "$TMP/run.json" "$DIFF" "$MP"
check "--gpus 2,0,1: the test across GPUs runs on GPUs 2 and 0" test $RC -eq 0 -a "$(jsonArray gpus)" = "2,0"
check "--gpus 2,0,1: ... in one worker, with the first list's worker" \
  test "$(grep '^retain ' "$TMP/ctx" | awk '{print $2}' | sort | uniq -c | sort -rn | head -1 | awk '{print $1}')" -eq 2
FAKE_CUDA_HANG="test MP+rel.gpu+acq.gpu-diffgpu" fake 2 run -n 1000 --timeout 2 "$DIFF" "$MP"
check "across GPUs, a hang: the watchdog stops it, exit 3" test $RC -eq 3
check "across GPUs, a hang: reported as a timeout, the next test runs" \
  has out "Summary: 2 tests: 1 ok, 0 violation, 0 inconclusive, 0 hung, 1 timeout, 0 refused, 0 error"
FAKE_CUDA_FAULT="test MP+rel.gpu+acq.gpu-diffgpu" fake 2 run -n 1000 "$DIFF" "$MP"
check "across GPUs, a fault: an error, exit 4, the next test runs" \
  test $RC -eq 4 -a "$(grep -c 'Summary: 2 tests: 1 ok.* 1 error' "$TMP/out")" -eq 1
FAKE_CUDA_HANG="test MP+rel.gpu+acq.gpu-diffcta" fake 3 run --gpus all -n 1000 --timeout 2 --json "$TMP/run.json" "$MP"
check "--gpus all, a hang: a timeout naming a GPU" grep -qE '^Test MP\+rel.gpu\+acq.gpu-diffcta: timeout: GPU [0-9]: stopped by the watchdog' "$TMP/out"

finish
