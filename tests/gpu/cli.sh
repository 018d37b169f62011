#!/usr/bin/env bash
# End-to-end tests of `litmus run` without a GPU: no driver, a driver without a device (the CUDA
# stub, when installed), and a fake driver (tests/gpu/fake_cuda.cc) that reports chosen final
# states, hangs or rejects the PTX, so that the report, verdicts, VIOLATION lines, exit codes, JSON,
# the watchdog, --self-test, --tune and --emit-sass are exercised.
#
#   bash tests/gpu/cli.sh PATH-TO-LITMUS PATH-TO-FAKE-LIBCUDA [SOURCE-DIR]
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
SB=catalog/shapes/SB+fence.sc.gpu.yaml

fake() { LITMUS_LIBCUDA=$FAKE lit "$@"; }

LITMUS_LIBCUDA=$TMP/none/libcuda.so.1 lit run -n 1000 "$MP"
check "no driver: exit 2" test $RC -eq 2
check "no driver: says so" has err "litmus run: no CUDA driver found ($TMP/none/libcuda.so.1)"
check "no driver: nothing on stdout" test ! -s "$TMP/out"

if [ -e /usr/local/cuda/lib64/stubs/libcuda.so ]; then
  LITMUS_LIBCUDA=/usr/local/cuda/lib64/stubs/libcuda.so lit run -n 1000 "$MP"
  check "driver without a device (CUDA stub): exit 2" test $RC -eq 2
  check "driver without a device: says so" has err "litmus run: no usable CUDA device: cuInit failed"
fi

lit run
check "no test: usage error" test $RC -eq 2
check "no test: says so" has err "litmus run: run needs at least one test file or directory"
lit run -n lots "$MP"
check "bad -n: exit 2" test $RC -eq 2
lit run --bogus "$MP"
check "an unknown option: exit 2" test $RC -eq 2
check "an unknown option: named" has err "--bogus"
lit run --help
check "--help: exit 0 and usage" test $RC -eq 0
check "--help: lists run's own options" has out "--self-test"
lit run --self-test "$MP"
check "--self-test with a path: exit 2" test $RC -eq 2
printf 'memStride = 4\nbogus = 1\n' >"$TMP/bad.profile"
fake run --profile "$TMP/bad.profile" "$MP"
check "bad profile: positioned error" has err "$TMP/bad.profile:2:1: error: unknown profile key 'bogus'"

lit run --emit-ptx "$TMP/ptx" "$MP" catalog/proxy/texture-fence-other-cta.yaml
check "--emit-ptx with a refused test: exit 3" test $RC -eq 3
check "--emit-ptx writes the PTX" test -s "$TMP/ptx/MP+rel.gpu+acq.gpu-diffcta.ptx"
check "--emit-ptx names the refused instruction" has err "catalog/proxy/texture-fence-other-cta.yaml:12:7: error: the GPU runner cannot run 'fence.proxy.texture'"
check "--emit-ptx counts" has out "1 written, 1 refused"

# --emit-sass: the driver's JIT linker (the fake's cubin names the test) and nvdisasm (a stand-in
# script that prints its arguments and the cubin, or fails on request); a test's files appear
# together or not at all.
MPNAME=MP+rel.gpu+acq.gpu-diffcta
printf '%s\n' '#!/bin/sh' '[ -n "${FAKE_NVDISASM_FAIL:-}" ] && { echo "fake nvdisasm: cannot read $2" >&2; exit 1; }' \
  'echo "fake nvdisasm $1"; cat "$2"' >"$TMP/nvdisasm"
chmod +x "$TMP/nvdisasm"
nodir() { [ -z "$(ls -A "$1" 2>/dev/null)" ]; }
LITMUS_LIBCUDA=$TMP/none/libcuda.so.1 lit run --emit-sass "$TMP/sass0" "$MP"
check "--emit-sass, no driver: exit 2" test $RC -eq 2
check "--emit-sass, no driver: says so" has err "litmus run: no CUDA driver found"
LITMUS_NVDISASM=$TMP/nvdisasm fake run --emit-sass "$TMP/sass" "$MP" catalog/proxy/texture-fence-other-cta.yaml
check "--emit-sass with a refused test: exit 3" test $RC -eq 3
check "--emit-sass: the driver's cubin, named by test" grep -qx "FAKE-CUBIN test $MPNAME, [0-9]* bytes of PTX" "$TMP/sass/$MPNAME.cubin"
check "--emit-sass: the disassembly with -hex" grep -qx "fake nvdisasm -hex" "$TMP/sass/$MPNAME.sass"
check "--emit-sass: the disassembly is of that cubin" grep -q "FAKE-CUBIN test $MPNAME," "$TMP/sass/$MPNAME.sass"
check "--emit-sass: names the device and driver" has out "Machine code from the JIT of Fake GPU (sm_90), CUDA driver 13.0"
check "--emit-sass: counts" has out "1 written, 1 refused, 0 failed"
check "--emit-sass: three files, nothing else" test "$(ls -A "$TMP/sass" | wc -l)" -eq 3
lit run --emit-ptx "$TMP/sassptx" "$MP"
check "--emit-sass: the PTX beside it is --emit-ptx's" cmp -s "$TMP/sass/$MPNAME.ptx" "$TMP/sassptx/$MPNAME.ptx"
check "--emit-sass: the cubin came from that PTX" grep -q ", $(wc -c <"$TMP/sassptx/$MPNAME.ptx") bytes of PTX" "$TMP/sass/$MPNAME.cubin"
PATH=/usr/bin:/bin LITMUS_NVDISASM='' fake run --emit-sass "$TMP/sass2" "$MP"
check "--emit-sass without nvdisasm: exit 0" test $RC -eq 0
check "--emit-sass without nvdisasm: says so" has out "nvdisasm not found"
check "--emit-sass without nvdisasm: cubin and PTX only" test "$(ls -A "$TMP/sass2" | tr '\n' ' ')" = "$MPNAME.cubin $MPNAME.ptx "
PATH=$TMP:$PATH LITMUS_NVDISASM=none fake run --emit-sass "$TMP/sass2b" "$MP"
check "--emit-sass, LITMUS_NVDISASM=none: cubin and PTX only, nvdisasm on PATH or not" test "$(ls -A "$TMP/sass2b" | tr '\n' ' ')" = "$MPNAME.cubin $MPNAME.ptx "
LITMUS_NVDISASM=$TMP/no-such-nvdisasm fake run --emit-sass "$TMP/sass3" "$MP"
check "--emit-sass, \$LITMUS_NVDISASM not a program: exit 2" test $RC -eq 2
check "--emit-sass, \$LITMUS_NVDISASM not a program: says so" has err "is not an executable file"
check "--emit-sass, \$LITMUS_NVDISASM not a program: nothing written" nodir "$TMP/sass3"
: >"$TMP/plainfile"
LITMUS_NVDISASM=$TMP/nvdisasm fake run --emit-sass "$TMP/plainfile/sub" "$MP"
check "--emit-sass into an unwritable directory: exit 2" test $RC -eq 2
check "--emit-sass into an unwritable directory: says so" has err "$TMP/plainfile/sub: error: cannot create or write this directory"
check "--emit-sass into an unwritable directory: nothing written" test ! -s "$TMP/plainfile"
FAKE_CUDA_REJECT=1 LITMUS_NVDISASM=$TMP/nvdisasm fake run --emit-sass "$TMP/sass4" "$MP"
check "--emit-sass, the driver rejects the PTX: exit 4" test $RC -eq 4
check "--emit-sass, the driver rejects the PTX: its log" has out "fake: rejected on request"
check "--emit-sass, the driver rejects the PTX: no file" nodir "$TMP/sass4"
FAKE_NVDISASM_FAIL=1 LITMUS_NVDISASM=$TMP/nvdisasm fake run --emit-sass "$TMP/sass5" "$MP" "$SB"
check "--emit-sass, nvdisasm fails: exit 4" test $RC -eq 4
check "--emit-sass, nvdisasm fails: its message" has out "fake nvdisasm: cannot read"
check "--emit-sass, nvdisasm fails: no half of a test's files" nodir "$TMP/sass5"
lit run --emit-sass "$TMP/sass6" --emit-ptx "$TMP/sass7" "$MP"
check "--emit-sass with --emit-ptx: usage error" test $RC -eq 2

# MP+rel.gpu+acq.gpu-diffcta observes (P1:r0, P1:r1); the model allows (0,0) (0,1) (1,1).
FAKE_CUDA_STATES="0,0;1,1" fake run -n 1e5 --seed 7 --json "$TMP/run.json" "$MP"
check "allowed states only: exit 0" test $RC -eq 0
check "histogram header" has out "Histogram (2 states)"
check "count then state, marked allowed" grep -qE '^[0-9]+ +:> P1:r0=1; P1:r1=1;  allowed$' "$TMP/out"
check "allowed states never observed" has out "Never observed (allowed) P1:r0=0; P1:r1=1;"
check "no VIOLATION" test "$(grep -c VIOLATION "$TMP/out")" -eq 0
check "instances reported" grep -qE '^Instances [0-9]+ in ' "$TMP/out"
check "verdict line" has out "Verdict ok: every observed state is allowed"
check "json: the verdict" grep -q '^{"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"MP+rel.gpu+acq.gpu-diffcta",.*"verdict":"ok","reason":"every observed state is allowed"' "$TMP/run.json"
check "json: one object with the histogram" grep -q '"status":"ok".*"histogram":\[{"state":{"P1:r0":0,"P1:r1":0},"count":[0-9]*,"condition":false,"allowed":true}' "$TMP/run.json"

FAKE_CUDA_STATES="0,0;1,0" fake run -n 100000 "$MP"
check "a forbidden state: exit 1" test $RC -eq 1
check "a forbidden state: VIOLATION line" grep -qE '^VIOLATION P1:r0=1; P1:r1=0; observed [0-9]+ times' "$TMP/out"
check "a forbidden state: marked *> and forbidden" grep -qE '\*> P1:r0=1; P1:r1=0;  forbidden$' "$TMP/out"

# Instances whose result slots were not written (the key's masks: terms, then threads) are counted
# apart and make the test inconclusive; they are never taken for the state their values suggest.
FAKE_CUDA_STATES="0,0;1,1,2,0" fake run -n 1000 --json "$TMP/nr.json" "$MP"
check "not recorded: exit 3" test $RC -eq 3
check "not recorded: its own line, the unwritten term shown as ?" grep -qE '^Not recorded [0-9]+ instances: P1:r0=1; P1:r1=\?;$' "$TMP/out"
check "not recorded: not in the histogram" has out "Histogram (1 states)"
check "not recorded: verdict inconclusive" grep -qE '^Verdict inconclusive: [0-9]+ instances not recorded' "$TMP/out"
check "not recorded: json" grep -q '"verdict":"inconclusive".*"notRecordedStates":\[{"state":{"P1:r0":1,"P1:r1":null},"unfinished":\[\],"count":' "$TMP/nr.json"
FAKE_CUDA_STATES="1,1,0,2" fake run -n 1000 "$MP"
check "a thread that left no sign of finishing: exit 3" test $RC -eq 3
check "a thread that left no sign of finishing: named" grep -qE '^Not recorded [0-9]+ instances: P1:r0=1; P1:r1=1; \(P1 did not finish\)$' "$TMP/out"
FAKE_CUDA_STATES="1,0;1,1,2,0" fake run -n 1000 "$MP"
check "a violation beside instances not recorded: exit 1" test $RC -eq 1

# The model undecided: no answer in time, or a loop bound that cut executions off.
FAKE_CUDA_STATES="0,0" fake run -n 1000 --model-timeout 1e-9 "$MP"
check "model timeout: exit 3" test $RC -eq 3
check "model timeout: inconclusive" has out "Verdict inconclusive: the model gave no answer"
printf '%s\n' 'name: store-loop' 'locations: {x: 0}' 'threads:' '  P0:' '    code: |' \
  '      L: ld.global.u32 %r0, [x];' '      add.u32 %r0, %r0, 1;' '      st.global.u32 [x], %r0;' \
  '      setp.lt.u32 %p, %r0, 3;' '      @%p bra L;' 'observe: [x]' "condition: 'exists (x == 3)'" >"$TMP/loop.yaml"
FAKE_CUDA_STATES="3" fake run -n 1000 --unroll 1 --json "$TMP/loop.json" "$TMP/loop.yaml"
check "loop bound: exit 3" test $RC -eq 3
check "loop bound: the state is unlisted, not forbidden" grep -qE '\*> x=3;  unlisted$' "$TMP/out"
check "loop bound: json" grep -q '"verdict":"inconclusive".*"model":"bounded"' "$TMP/loop.json"

FAKE_CUDA_HANG="test SB+fence.sc.gpu" FAKE_CUDA_STATES="0,1;1,1" fake run -n 1000 --timeout 2 "$SB" "$MP"
check "a test that never ends: exit 3" test $RC -eq 3
check "a test that never ends: reported as a timeout" has out "Test SB+fence.sc.gpu: timeout: stopped by the watchdog after 2 s"
check "the next test still runs" has out "Test MP+rel.gpu+acq.gpu-diffcta on Fake GPU"
check "a test that never ends: the model says it terminates" has out "the model says every execution terminates"
check "summary line" has out "Summary: 2 tests: 1 ok, 0 violation, 0 inconclusive, 0 hung, 1 timeout, 0 refused, 0 error"
check "a timeout the model does not expect: its allowed states not tried" has out "; not seen: 1 rare (their test ran to the end), 0 unreachable by the harness (their test hung, as the model allows), 3 not tried (their test did not end); 0 tests refused"

HANG=catalog/barriers/bar.sync-count-half.yaml
FAKE_CUDA_HANG="test bar.sync-count-half" fake run -n 1000 --timeout 2 --json "$TMP/hang.json" "$HANG"
check "a test the model says can hang, hanging: exit 0" test $RC -eq 0
check "a test the model says can hang: reported as hung, with the model's reason" grep -qE '^Test bar.sync-count-half: hung: stopped by the watchdog after 2 s.*; the model says it can hang: ' "$TMP/out"
check "hung: json says the hang was expected" grep -q '"verdict":"hung".*"status":"timeout".*"hangExpected":true' "$TMP/hang.json"
# A hang the model allows, in a test with final states: a launch is read only when all its
# instances end, so the harness cannot show them (coverage: unreachable, not "not tried").
FAKE_CUDA_HANG="test bar.arrive-count-too-small" fake run -n 1000 --timeout 2 --json "$TMP/hang2.json" \
  catalog/barriers/bar.arrive-count-too-small.yaml
check "hung with final states: coverage says unreachable by the harness" has out "Coverage: 0 of 3 allowed final states observed (0.0%); not seen: 0 rare (their test ran to the end), 3 unreachable by the harness (their test hung, as the model allows), 0 not tried (their test did not end); 0 tests refused"
check "hung with final states: json neverObservedReason unreachable" grep -q '"neverObservedReason":"unreachable"' "$TMP/hang2.json"

FAKE_CUDA_STATES="1" fake run -n 1000 catalog/cluster/bar.warp.sync-lane-never-arrives.yaml
check "a test the model says never finishes, finishing: exit 1" test $RC -eq 1
check "a test the model says never finishes: says so" has out "Verdict violation: the model says no execution finishes (P1 waits forever at 'bar.warp.sync 3'); the GPU finished"

lit run --emit-ptx "$TMP/ptx2" catalog/mbarrier/mbarrier.inval.yaml
check "undefined behaviour is refused" has err "an mbarrier operation on an invalidated object is undefined behaviour"

FAKE_CUDA_STATES="0,0" fake run -n 1000 catalog/alias/MP+alias-nofence.yaml
check "a test with an alias runs (the buffer mapped twice)" test $RC -eq 0
check "a test with an alias: its report" has out "Test MP+alias-nofence on Fake GPU"

# A texture alias: a texture object over each of the two location buffers (the fake logs
# "texture PID BYTES" and accepts only a linear one of 32-bit unsigned integers), the kernel's p_tex.
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="1,0" fake run -n 1000 catalog/proxy/texture-nofence.yaml
check "a test with a texture alias runs" has out "Test texture-nofence on Fake GPU"
check "a texture alias: a texture object per location buffer" test "$(grep -c '^texture ' "$TMP/ctx")" -eq 2
lit run --emit-ptx "$TMP/texptx" catalog/proxy/texture-nofence.yaml
check "a texture alias: tld becomes tex.1d through p_tex" grep -q 'tex.1d.v4.u32.s32 {%w[0-9]*, %w[0-9]*, %w[0-9]*, %w[0-9]*}, \[%x[0-9]*, {%w[0-9]*}\]' "$TMP/texptx/texture-nofence.ptx"
# A surface alias: its target lives in a CUDA array per location buffer (the fake logs "array PID
# WIDTH HEIGHT" and "surface PID"), sust/suld through p_surf; a texture alias of the same target
# reads that array with tex.2d through p_atex; the tally writes the initial values with sust.
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="1" fake run -n 1000 catalog/proxy/single-thread-sust-tld-nofence.yaml
check "a test with surface and texture aliases runs" has out "Test single-thread-sust-tld-nofence on Fake GPU"
check "a surface alias: an array per location buffer, in rows of 16384" test "$(grep -c '^array [0-9]* 16384 ' "$TMP/ctx")" -eq 2
check "a surface alias: a surface object per array" test "$(grep -c '^surface ' "$TMP/ctx")" -eq 2
check "a texture alias of an array location: a texture object over each array" test "$(grep -c '^texture [0-9]* array' "$TMP/ctx")" -eq 2
lit run --emit-ptx "$TMP/surfptx" catalog/proxy/single-thread-sust-tld-nofence.yaml
check "a surface alias: sust through p_surf" grep -q 'sust.b.2d.b32.trap \[%x[0-9]*, {%w[0-9]*, %w[0-9]*}\], {%w[0-9]*}' "$TMP/surfptx/single-thread-sust-tld-nofence.ptx"
check "a texture alias of an array location: tex.2d through p_atex" grep -q 'tex.2d.v4.u32.s32 {%w[0-9]*, %w[0-9]*, %w[0-9]*, %w[0-9]*}, \[%x[0-9]*, {%w[0-9]*, %w[0-9]*}\]' "$TMP/surfptx/single-thread-sust-tld-nofence.ptx"
check "a surface alias: the tally initialises the array" grep -q '@%h_init sust.b.2d.b32.trap \[%h_nsurf' "$TMP/surfptx/single-thread-sust-tld-nofence.ptx"
lit run --emit-ptx "$TMP/surfptx" catalog/proxy/MP+generic+suld-surface-fence.yaml
check "a model-only proxy fence is refused as such" has err "fence.proxy.surface is the model's (Dat3M's) fence; PTX has no such instruction"
printf 'name: surface+generic\nlocations:\n  x: 0\n  s: {alias-of: x, proxy: surface}\nthreads:\n  P0:\n    code: |\n      st.global.u32 [x], 1;\n      suld.weak.u32 %%r0, [s];\ncondition: "exists (P0:r0 == 0)"\n' >"$TMP/surface-generic.yaml"
lit run --emit-ptx "$TMP/surfptx" "$TMP/surface-generic.yaml"
check "a surface alias of a location named directly: refused with the hardware's reason" has err "no global address reaches an array's memory"
# A constant alias: its target lives in the module's constant bank (lt_cbank), whose address the
# harness asks the driver for and passes as p_cbank; ld.const reads it, the tally writes it.
FAKE_CUDA_STATES="1,42" fake run -n 1000 catalog/proxy/constant-nofence.yaml
check "a test with a constant alias of a written location runs" has out "Test constant-nofence on Fake GPU"
lit run --emit-ptx "$TMP/texptx" catalog/proxy/constant-nofence.yaml
check "a constant alias: the module's constant bank" grep -q '^.const .align 4 .b32 lt_cbank\[16384\];' "$TMP/texptx/constant-nofence.ptx"
check "a constant alias: cold becomes ld.const in the bank" grep -q 'ld.const.u32 %w[0-9]*, \[%x[0-9]*\]' "$TMP/texptx/constant-nofence.ptx"
check "a constant alias: the tally initialises the bank" grep -q '@%h_init st.global.u32 \[%h_A\], 0x0' "$TMP/texptx/constant-nofence.ptx"

FAKE_CUDA_REJECT=1 fake run -n 1000 --jit-cache none "$MP"  # a cached cubin would not be linked
check "the driver rejects the generated PTX: internal error, exit 4" test $RC -eq 4
check "the driver rejects the PTX: its log is shown" has out "fake: rejected on request"

# The worker (docs/gpu-runner.md, section 4): one process and one CUDA context run test after test;
# a test that hangs or faults ends its worker, and the next test runs in a fresh one. The fake logs
# each context it makes ("retain PID") and each module it loads ("load PID NAME").
retains() { grep -c '^retain ' "$TMP/ctx"; }
loaders() { grep '^load ' "$TMP/ctx" | cut -d' ' -f2 | uniq | wc -l; }
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 "$MP" "$SB" "$MP"
check "worker: three tests, one context" test "$(retains)" -eq 1
check "worker: three modules loaded by one process" test "$(grep -c '^load ' "$TMP/ctx")" -eq 3 -a "$(loaders)" -eq 1
check "worker: the timing line" grep -qE '^Timing: 3 tests, 1 worker started; per test: GPU .* JIT .* other overhead ' "$TMP/out"
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --worker-per-test "$MP" "$SB" "$MP"
check "--worker-per-test: a context per test" test "$(retains)" -eq 3 -a "$(loaders)" -eq 3
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_HANG="test SB+fence.sc.gpu" FAKE_CUDA_STATES="0,0" fake run -n 1000 --timeout 2 "$MP" "$SB" "$MP" "$MP"
check "worker: a hang ends the worker, the next test gets a fresh context" test "$(retains)" -eq 2
check "worker: the tests after a hang are fine" has out "Summary: 4 tests: 3 ok, 0 violation, 0 inconclusive, 0 hung, 1 timeout, 0 refused, 0 error"
check "worker: the tests after the hang share the new worker" test "$(loaders)" -eq 2
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_FAULT="test SB+fence.sc.gpu" FAKE_CUDA_STATES="0,0" fake run -n 1000 "$SB" "$MP"
check "worker: a failed launch is an error, exit 4" test $RC -eq 4
check "worker: the failed launch is named" has out "cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (719)"
check "worker: after a fault the next test runs on a fresh context" test "$(retains)" -eq 2
check "worker: the test after a fault is fine" has out "Summary: 2 tests: 1 ok, 0 violation, 0 inconclusive, 0 hung, 0 timeout, 0 refused, 1 error"
check "fault: no mbarrier arrival, the instruction unknown" has out "Fault: the test has no mbarrier arrival"
# A fault in a pipeline: the model names the arrival that can find no arrival pending in its phase
# (undefined in the ISA, docs/gpu-runner.md "Faults"); in the correct pipeline none can.
NOEW=patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-empty-wait.yaml
FAKE_CUDA_FAULT="test tma-pipeline-S2-K3-no-empty-wait" fake run -n 1000 --json "$TMP/fault.json" "$NOEW"
check "fault: an error, exit 4" test $RC -eq 4
check "fault: the refill's arrival is named, with its state" \
  has out "Fault: P0's 'mbarrier.arrive.expect_tx.shared::cta.b64 _, [full0], 16' (line 27) can arrive when its phase has 0 arrivals pending, fewer than its 1 (or before its mbarrier.init is visible)"
check "fault: the first fill's arrival is not named" test "$(grep -c "line 23)" "$TMP/out")" -eq 0
check "fault: JSON says undefined, with the site" \
  grep -q '"fault":{"undefined":true,.*"thread":"P0",.*"line":27,"pending":0,"count":1' "$TMP/fault.json"
FAKE_CUDA_FAULT="test tma-pipeline-S2-K3" fake run -n 1000 patterns/reference/tma-pipeline/tma-pipeline-S2-K3.yaml
check "fault in a correct pipeline: no arrival named" \
  has out "Fault: in no execution of the model does an mbarrier arrival find fewer pending arrivals"

# --budget: GPU seconds per test (the fake spends FAKE_CUDA_LAUNCH_US per launch in cuCtxSynchronize).
FAKE_CUDA_LAUNCH_US=2000 FAKE_CUDA_STATES="0,0" fake run -n 1e12 --budget 0.2 --json "$TMP/budget.json" "$MP"
check "budget: stops the test, exit 0" test $RC -eq 0
check "budget: json says the budget stopped it" grep -q '"stoppedBy":"budget"' "$TMP/budget.json"
budgetSeconds=$(grep -o '"seconds":[0-9.e-]*' "$TMP/budget.json" | cut -d: -f2)
check "budget: ran about the budget ($budgetSeconds s)" awk -v s="$budgetSeconds" 'BEGIN { exit !(s >= 0.2 && s < 1.5) }'
check "budget: json gives the budget" grep -q '"budget":0.2' "$TMP/budget.json"
# quick first launches, slow later ones: the batches grow from what was timed, so the first
# estimate cannot queue far past the budget (without: about 3 s here)
FAKE_CUDA_LAUNCH_US=20000 FAKE_CUDA_FAST_LAUNCHES=2 FAKE_CUDA_STATES="0,0" fake run -n 1e12 --budget 0.4 --json "$TMP/budget.json" "$MP"
budgetSeconds=$(grep -o '"seconds":[0-9.e-]*' "$TMP/budget.json" | cut -d: -f2)
check "budget: keeps to it when the first launches are quick ($budgetSeconds s of 0.4)" awk -v s="$budgetSeconds" 'BEGIN { exit !(s >= 0.4 && s < 0.5) }'
FAKE_CUDA_STATES="0,0" fake run -n 1000 --budget 100 --json "$TMP/budget.json" "$MP"
check "budget: -n first, json says the count stopped it" grep -q '"instances":[0-9]*,.*"stoppedBy":"count"' "$TMP/budget.json"

# --sweep N: each test under N profiles, the histograms added, each share in the JSON.
FAKE_CUDA_STATES="1,1;0,0" fake run -n 4000 --sweep 4 --json "$TMP/sweep.json" "$MP"
check "sweep: exit 0" test $RC -eq 0
check "sweep: the report names the profiles that showed the condition" has out "Sweep 4 profiles: the condition held under 0"
sweepCheck() {
  python3 - "$TMP/sweep.json" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
s = d["sweep"]
assert len(s) == 4, s
assert sum(x["instances"] for x in s) == d["instances"] >= 4000, d["instances"]
assert [x["seed"] for x in s] == [1, 2, 3, 4]
assert len({json.dumps(x["profile"], sort_keys=True) for x in s}) == 4  # four different profiles
assert sum(h["count"] for h in d["histogram"]) == d["instances"]
PY
}
check "sweep: four shares with their own seeds and profiles, adding up to the run" sweepCheck
cp "$TMP/sweep.json" "$TMP/sweep1.json"
FAKE_CUDA_STATES="1,1;0,0" fake run -n 4000 --sweep 4 --json "$TMP/sweep.json" "$MP"
# a share that shows a state the model forbids is named, with its profile and the replay
FAKE_CUDA_STATES="1,0" fake run -n 4000 --sweep 2 --json "$TMP/sweepf.json" "$MP"
check "sweep violation: exit 1" test $RC -eq 1
check "sweep violation: the shares that showed forbidden states" has out "; states the model forbids under 2: #0 "
check "sweep violation: the replay of the first" has out "Sweep share 0 showed "
check "sweep violation: its profile saved" test -s "$TMP/sweepf.json.MP+rel.gpu+acq.gpu-diffcta.share0.profile"
check "sweep violation: forbidden per share in the JSON" python3 -c 'import json,sys; s=json.loads(open(sys.argv[1]).readline())["sweep"]; sys.exit(not all(x["forbidden"] > 0 for x in s))' "$TMP/sweepf.json"
sweepProfiles() { python3 -c 'import json,sys; print([x["profile"] for x in json.loads(open(sys.argv[1]).readline())["sweep"]])' "$1"; }
check "sweep: a rerun draws the same profiles" test "$(sweepProfiles "$TMP/sweep.json")" = "$(sweepProfiles "$TMP/sweep1.json")"
# the later shares get what is left of the budget, so the test keeps to it (without: about 1.2x)
FAKE_CUDA_LAUNCH_US=20000 FAKE_CUDA_STATES="0,0" fake run -n 1e12 --budget 0.8 --sweep 16 --json "$TMP/sweepb.json" "$MP"
sweepSeconds=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["seconds"])' "$TMP/sweepb.json")
check "sweep: keeps to the test's budget ($sweepSeconds s of 0.8)" awk -v s="$sweepSeconds" 'BEGIN { exit !(s >= 0.8 && s < 0.9) }'
# A run whose launches keep finishing but are too slow for -n stops at 3/4 of --timeout with what
# it ran (stoppedBy "deadline"), instead of meeting the watchdog (issue 30: drawn profiles did).
FAKE_CUDA_LAUNCH_US=20000 FAKE_CUDA_STATES="0,0" fake run -n 1e12 --timeout 3 --json "$TMP/deadline.json" "$MP"
check "deadline: slow launches are no timeout (exit 0)" test $RC -eq 0
check "deadline: the report says why it ran fewer instances" has out "Deadline: stopped launching at 3/4 of --timeout"
jsonField() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])' "$1" "$2"; }
check "deadline: JSON stoppedBy deadline" test "$(jsonField "$TMP/deadline.json" stoppedBy)" = deadline
# A share that hangs is reported with its profile, which --profile replays; the JSON keeps every
# share, finished or not.
FAKE_CUDA_HANG_STRESS=1 FAKE_CUDA_STATES="0,0" fake run -n 4000 --sweep 4 --timeout 2 --json "$TMP/hangs.json" "$MP"
check "sweep hang: verdict timeout (exit 3)" test $RC -eq 3
check "sweep hang: the report names the share and the replay" has out "Sweep share 1 ran past its deadline (hung) under this profile"
check "sweep hang: the replay traces the waits" has out " --trace-waits $MP"
sweepStatus() { python3 -c 'import json,sys; print(" ".join(s["status"] for s in json.loads(open(sys.argv[1]).readline())["sweep"]))' "$1"; }
check "sweep hang: every share in the JSON" test "$(sweepStatus "$TMP/hangs.json")" = "ok timeout not run not run"
SHARE=$TMP/hangs.json.MP+rel.gpu+acq.gpu-diffcta.share1.profile
check "sweep hang: the share's profile is saved" test -s "$SHARE"
FAKE_CUDA_HANG_STRESS=1 FAKE_CUDA_STATES="0,0" fake run -n 1000 --timeout 2 --seed 2 --profile "$SHARE" "$MP"
check "sweep hang: --profile replays the hang" has out "stopped by the watchdog"
check "untraced: no waits in the report" test "$(grep -c '^Waits' "$TMP/out")" -eq 0
# --trace-waits: the fake's stuck launch writes its slots (P0 finished, P1 in the F2 loop, 3 lanes
# of P1 still in the harness's spin barrier) into the host-mapped region, which outlives the
# killed worker; the report and the JSON say where each litmus thread was.
TMA=patterns/reference/tma-pipeline/tma-pipeline-S2-K3.yaml
FAKE_CUDA_HANG="test tma-pipeline-S2-K3" FAKE_CUDA_TRACE="0:1:32,1:12:64,1:3:3" \
  fake run --trace-waits -n 1000 --timeout 2 --json "$TMP/traced.json" "$TMA"
check "trace: a timeout (exit 3)" test $RC -eq 3
check "trace: the report's P0 line" has out "  P0: 1 (32) finished"
check "trace: the report's P1 line" has out "  P1: 1 (3) at pre-stress and the spin barrier (harness); 2 (64) at F2: mbarrier.try_wait.parity.shared::cta.b64 %f2, [full0], 1 (line 48)"
waits() { python3 -c 'import json,sys; w=json.loads(open(sys.argv[1]).readline())["waits"]; print(w if w is None else " ".join("%s/%d/%d" % (r["thread"], r["warps"], r["lanes"]) for r in w["sites"]))' "$1"; }
check "trace: the JSON's waits" test "$(waits "$TMP/traced.json")" = "P0/1/32 P1/1/3 P1/2/64"
FAKE_CUDA_HANG="test tma-pipeline-S2-K3" FAKE_CUDA_TRACE="0:1:32" \
  fake run -n 1000 --timeout 2 --json "$TMP/untraced.json" "$TMA"
check "trace: off by default (JSON waits null)" test "$(waits "$TMP/untraced.json")" = None
# --cover S: rounds after the pass for the tests with allowed states unseen. The fake shows the
# state 0,1 only under a stressed launch (the pass's default profile has no stress; drawn ones do).
FAKE_CUDA_STATES="1,1;0,0" FAKE_CUDA_STRESS_STATES="0,1" fake run -n 4000 --cover 30 --json "$TMP/cover.json" "$MP"
check "cover: exit 0" test $RC -eq 0
check "cover: a round line" has out "Cover round 1: 1 tests run, "
check "cover: the state the pass missed is seen" has out " s: 1 allowed states seen that the pass had not shown; 0 still unseen"
check "cover: the Coverage line counts the rounds" has out "Coverage: 3 of 3 allowed final states observed (100.0%)"
coverRounds() { python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if "coverRound" in json.loads(l)))' "$1"; }
check "cover: a JSON record per round's run, after the pass's" test "$(coverRounds "$TMP/cover.json")" -ge 1
lit merge "$TMP/cover.json"
check "cover: merge adds the rounds to the pass (three states)" python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(not (len(r) == 1 and len(r[0]["histogram"]) == 3 and r[0]["neverObserved"] == []))' "$TMP/out"
lit report --no-graphs -o "$TMP/cover.html" "$TMP/cover.json"
check "cover: report shows the test once, its rounds added up" has err "litmus report: 1 results,"
check "cover: report's histogram has the round's state" grep -q '"histogram":\[[^]]*{"state":{"P1:r0":0,"P1:r1":1}' "$TMP/cover.html"
FAKE_CUDA_STATES="1,1;0,0" fake run -n 4000 --cover 1 "$MP"
check "cover: time out, exit 0" test $RC -eq 0
check "cover: names the test still short of a state" has out "0 allowed states seen that the pass had not shown; 1 still unseen in 1 of them: MP+rel.gpu+acq.gpu-diffcta (1)"
check "cover: the Coverage line without it" has out "Coverage: 2 of 3 allowed final states observed (66.7%); not seen: 1 rare"
FAKE_CUDA_STATES="1,1;0,0" FAKE_CUDA_STRESS_STATES="1,0" fake run -n 4000 --cover 2 --json "$TMP/coverv.json" "$MP"
check "cover violation: exit 1" test $RC -eq 1
check "cover violation: the round's report" has out "VIOLATION"
check "cover violation: the summary counts it" has out "Summary: 1 tests: 0 ok, 1 violation"
coverProfiles() { find "$TMP" -name 'coverv.json.MP+rel.gpu+acq.gpu-diffcta.cover*.profile' -size +0 | wc -l; }
check "cover violation: its profile saved, once (the test gets no more rounds)" test "$(coverProfiles)" -eq 1
fake run --tune --cover 2
check "cover: not with --tune" test $RC -eq 2
fake run --cover soon "$MP"
check "cover: a bad value is a usage error" test $RC -eq 2
fake run -n 1000 --sweep 0 "$MP"
check "sweep: 0 is a usage error" test $RC -eq 2
fake run --tune --sweep 2
check "sweep: not with --tune" test $RC -eq 2

# The progress line over the tests: on a terminal only (`script` gives the run one).
FAKE_CUDA_STATES="0,0" fake run -n 1000 "$MP" "$SB"
check "progress: nothing on stderr when piped" test ! -s "$TMP/err"
if command -v script >/dev/null; then
  LITMUS_LIBCUDA=$FAKE FAKE_CUDA_STATES="0,0" script -qec "timeout 60 $LITMUS run -n 1000 $MP $SB >/dev/null" \
    "$TMP/typescript" >/dev/null 2>&1
  check "progress: a line per test on a terminal" grep -q '\[1/2\] SB+fence.sc.gpu' "$TMP/typescript"
fi

# --resume and --max-time: a campaign in pieces. A torn last line (a killed run) is dropped and
# its test run again; the tests whose results are in the file are not run again.
# The JIT off the critical path (docs/gpu-runner.md): the worker's threads compile the next tests'
# modules while the GPU runs the current one, and keep them on disk. The fake logs "link PID NAME"
# per compilation and "cubin PID NAME" per module loaded as machine code.
links() { grep '^link ' "$TMP/ctx" | cut -d' ' -f3 | sort | tr '\n' ' '; }
LB=catalog/shapes/LB+acq.gpu+rel.gpu.yaml
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --jit-cache "$TMP/jit" "$MP" "$SB" "$MP"
check "jit: each distinct module compiled once" test "$(links)" = "$MPNAME SB+fence.sc.gpu "
check "jit: every test's module loaded as machine code" test "$(grep -c '^cubin ' "$TMP/ctx")" -eq 3
check "jit: --jit-cache DIR holds the two compilations" test "$(ls "$TMP/jit" | wc -l)" -eq 2
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --jit-cache "$TMP/jit" "$MP" "$SB" "$MP"
check "jit: a later campaign compiles nothing: the cache on disk" test "$(links)" = "" -a "$(grep -c '^cubin ' "$TMP/ctx")" -eq 3
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --jit-cache none "$MP" "$SB"
check "--jit-cache none: compiled again" test "$(links)" = "$MPNAME SB+fence.sc.gpu "
XDG_CACHE_HOME=$TMP/xdg FAKE_CUDA_STATES="0,0" fake run -n 1000 "$SB"
check "jit: the default cache is under \$XDG_CACHE_HOME" test "$(ls "$TMP/xdg/ptx-litmus/cubin" | wc -l)" -eq 1
FAKE_CUDA_REJECT=1 fake run -n 1000 --jit-cache none "$SB"
check "jit: a module the linker rejects is an error with the driver's log" has out "the CUDA driver rejected the generated PTX: CUDA_ERROR_INVALID_PTX (218)"
# Each link takes 0.3 s and each test 0.6 s of "GPU": compiled ahead, only the first test waits for
# its JIT; with --jit-ahead 0, every test does.
jits() { grep -o '"jitSeconds":[0-9.e-]*' "$1" | cut -d: -f2 | tr '\n' ' '; }
slow() { FAKE_CUDA_LINK_US=300000 FAKE_CUDA_LAUNCH_US=600000 FAKE_CUDA_STATES="0,0" fake run -n 1000 --jit-cache none "$@" "$MP" "$SB" "$LB"; }
slow --json "$TMP/ahead.json"
check "jit: the tests after the first find their module compiled (JIT s: $(jits "$TMP/ahead.json"))" \
  awk -v j="$(jits "$TMP/ahead.json")" 'BEGIN { n = split(j, a, " "); exit !(n == 3 && a[1] >= 0.25 && a[2] < 0.15 && a[3] < 0.15) }'
slow --json "$TMP/behind.json" --jit-ahead 0
check "--jit-ahead 0: every test waits for its JIT (JIT s: $(jits "$TMP/behind.json"))" \
  awk -v j="$(jits "$TMP/behind.json")" 'BEGIN { n = split(j, a, " "); exit !(n == 3 && a[1] >= 0.25 && a[2] >= 0.25 && a[3] >= 0.25) }'

FAKE_CUDA_STATES="0,0" fake run -n 1000 --json "$TMP/c.json" "$MP" "$SB"
check "resume: two result lines to start from" test "$(wc -l <"$TMP/c.json")" -eq 2
{ head -1 "$TMP/c.json"; sed -n 2p "$TMP/c.json" | head -c 150; } >"$TMP/c2.json"
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --resume --json "$TMP/c2.json" "$MP" "$SB"
check "resume: the done test is skipped, the torn one rerun" test "$(grep '^load ' "$TMP/ctx" | cut -d' ' -f3)" = "SB+fence.sc.gpu"
check "resume: the file has two whole lines" test "$(grep -c '"verdict"' "$TMP/c2.json")" -eq 2 -a "$(wc -l <"$TMP/c2.json")" -eq 2
check "resume: the summary counts both" has out "Summary: 2 tests: 1 ok, 1 violation"
check "resume: says what it skipped" has out "Resumed: 1 tests already in $TMP/c2.json"
rm -f "$TMP/ctx"
FAKE_CUDA_CTX_LOG=$TMP/ctx FAKE_CUDA_STATES="0,0" fake run -n 1000 --resume --json "$TMP/c2.json" "$MP" "$SB"
check "resume: nothing left, nothing run" test ! -e "$TMP/ctx"
printf 'not json\n%s\n' "$(head -1 "$TMP/c.json")" >"$TMP/bad.json"
fake run -n 1000 --resume --json "$TMP/bad.json" "$MP"
check "resume: a bad line that is not the last: positioned error, exit 2" test $RC -eq 2
check "resume: a bad line named" has err "$TMP/bad.json:1:1: error: not a result line"
lit run -n 1000 --resume "$MP"
check "resume without --json: usage error" test $RC -eq 2
ALIAS=catalog/alias/MP+alias-nofence.yaml
FAKE_CUDA_LAUNCH_US=2000 FAKE_CUDA_STATES="0,0" fake run -n 1e12 --budget 0.3 --max-time 0.2 --json "$TMP/m.json" "$MP" "$SB" "$ALIAS"
check "max-time: exit 3" test $RC -eq 3
check "max-time: says how many remain" has err "--max-time 0.2 s reached: 2 of 3 tests not run; run the same command with --resume"
check "max-time: one result written" test "$(wc -l <"$TMP/m.json")" -eq 1
FAKE_CUDA_STATES="0,0" fake run -n 1000 --resume --json "$TMP/m.json" "$MP" "$SB" "$ALIAS"
check "max-time then resume: the rest run" has out "Summary: 3 tests: 2 ok, 1 violation"
check "max-time then resume: three results" test "$(wc -l <"$TMP/m.json")" -eq 3

# --self-test: every built-in known-answer test shows its one allowed state in every instance. The
# fake's answers file plays a GPU that gets them right; a wrong answer or an unwritten slot fails.
ANSWERS=tests/gpu/self-test.answers
SELF=$(find gpu-runner/self-test -name '*.yaml' | wc -l)
FAKE_CUDA_ANSWERS=$ANSWERS fake run --self-test -n 1000
check "--self-test: exit 0" test $RC -eq 0
check "--self-test: a pass line per test" test "$(grep -c '^pass ' "$TMP/out")" -eq "$SELF"
check "--self-test: summary" has out "Self-test: $SELF tests, $SELF passed, 0 failed"
check "--self-test: covers the fixed mode" grep -qE '^pass self.MP\+bar.warp.sync \(fixed mode' "$TMP/out"
sed 's/^self.atom-two-ctas .*/self.atom-two-ctas 2;1/' "$ANSWERS" >"$TMP/wrong.answers"
FAKE_CUDA_ANSWERS=$TMP/wrong.answers fake run --self-test -n 1000
check "--self-test, a state other than the forced one: exit 1" test $RC -eq 1
check "--self-test, another state: FAIL line" grep -qE '^FAIL self.atom-two-ctas .*; [0-9]+ in x=1;$' "$TMP/out"
check "--self-test, another state: summary" has out "Self-test: $SELF tests, $((SELF - 1)) passed, 1 failed"
sed 's/^self.registers .*/self.registers 8,42;8,0,2,2/' "$ANSWERS" >"$TMP/unwritten.answers"
FAKE_CUDA_ANSWERS=$TMP/unwritten.answers fake run --self-test -n 1000
check "--self-test, a slot not written: exit 1" test $RC -eq 1
check "--self-test, a slot not written: FAIL line" grep -qE '^FAIL self.registers .* not recorded: P0:r1=8; P1:r1=\?; \(P1 did not finish\)$' "$TMP/out"

FAKE_CUDA_STATES="1,1" fake run --tune --trials 3 -n 1000 --profile "$TMP/tuned.profile"
check "--tune: exit 0" test $RC -eq 0
check "--tune: one line per trial" test "$(grep -c '^trial ' "$TMP/out")" -eq 3
check "--tune: saves the profile" grep -q '^memStride = ' "$TMP/tuned.profile"
FAKE_CUDA_STATES="0,0" fake run -n 1000 --profile "$TMP/tuned.profile" "$MP"
check "a saved profile loads" test $RC -eq 0

# --tune --per-family: a profile per family (YAML family:), tuned on its tests whose condition the
# model allows, saved as a section; a run loads the section of each test's family.
for i in 1 2; do
  printf '%s\n' "name: fam-MP$i" 'family: MPfam' 'locations: {x: 0, y: 0}' 'threads:' '  P0:' '    code: |' \
    '      st.relaxed.gpu.global.u32 [x], 1;' '      st.relaxed.gpu.global.u32 [y], 1;' '  P1:' '    code: |' \
    '      ld.relaxed.gpu.global.u32 %r0, [y];' '      ld.relaxed.gpu.global.u32 %r1, [x];' \
    "condition: 'exists (P1:r0 == 1 /\\ P1:r1 == 0)'" >"$TMP/fam$i.yaml"
done
cp "$TMP/tuned.profile" "$TMP/fam.profile"
FAKE_CUDA_STATES="1,0;0,0" fake run --tune --per-family --trials 2 -n 1000 --budget 0.05 --profile "$TMP/fam.profile" "$TMP/fam1.yaml" "$TMP/fam2.yaml" "$MP"
check "per-family tune: exit 0" test $RC -eq 0
check "per-family tune: the family tuned" grep -qE '^family MPfam: [0-9.e+]+ weak outcomes/s \(geometric mean over 2 tests, 2 trials\)$' "$TMP/out"
check "per-family tune: a family without a weak outcome to look for is not tuned" has out "family MP+rel.gpu+acq.gpu-diffcta: not tuned (no test whose condition the model allows)"
check "per-family tune: a section for the family" grep -qx '\[family MPfam\]' "$TMP/fam.profile"
check "per-family tune: the default profile kept" test "$(sed -n 2p "$TMP/fam.profile")" = "$(sed -n 2p "$TMP/tuned.profile")"
FAKE_CUDA_STATES="0,0" fake run -n 1000 --profile "$TMP/fam.profile" --json "$TMP/fam.json" "$TMP/fam1.yaml" "$MP"
check "per-family profiles: the family's test runs with its section" grep -q '"test":"fam-MP1",.*"profile":"MPfam"' "$TMP/fam.json"
check "per-family profiles: another test with the default" grep -q '"test":"MP+rel.gpu+acq.gpu-diffcta",.*"profile":"default"' "$TMP/fam.json"
printf 'memStride = 4\n[famly X]\n' >"$TMP/badsec.profile"
fake run --profile "$TMP/badsec.profile" "$MP"
check "bad profile section: positioned error" has err "$TMP/badsec.profile:2:1: error: expected a section '[family NAME]'"

# litmus compare (docs/compare.md): a run against the model's own answers (check --json).
FAKE_CUDA_STATES="0,0" fake run -n 1000 --json "$TMP/cmpA.json" "$MP" "$SB"
lit check --json "$MP" "$SB"
cp "$TMP/out" "$TMP/cmpB.json"
lit compare "$TMP/cmpA.json" "$TMP/cmpB.json"
check "compare: a test seen by one side only: exit 1" test $RC -eq 1
check "compare: names the sides" has out "B: $TMP/cmpB.json (model, 2 tests)"
check "compare: the forbidden weak outcome the fake showed, seen by A only" has out "seen by A only: SB+fence.sc.gpu"
lit compare --json "$TMP/cmpA.json" "$TMP/cmpA.json"
check "compare: a file against itself: exit 0" test $RC -eq 0
check "compare --json: one object" grep -q '^{"a":{"file":".*","kind":"run","tests":2}' "$TMP/out"
printf 'hello\n' >"$TMP/notjson"
lit compare "$TMP/cmpA.json" "$TMP/notjson"
check "compare: bad input: exit 2, positioned" test $RC -eq 2 -a "$(head -c 200 "$TMP/err")" = "$TMP/notjson:1:1: error: not a result of \`litmus run --json\` or \`litmus check --json\` (a JSON object per line)"
lit help compare
check "compare: help" has out "Usage: litmus compare"

# Grids (docs/gpu-runner.md, "Grids"): one launch of the test kernel per grid in the launch order,
# the programmatic ones through cuLaunchKernelEx with the programmatic-stream-serialization
# attribute (the fake refuses one that does not follow a test launch), the tally after the last
# (the log starts with the tally that initialises the first launch).
GRID=$SRC/catalog/grid
FAKE_CUDA_LAUNCH_LOG=$TMP/launches FAKE_CUDA_STATES="1,1" fake run -n 1000 "$GRID/MP-programmatic-wait.yaml"
check "grids: programmatic launch runs, exit 0" test $RC -eq 0
check "grids: test, then test programmatic, then tally" test "$(sed -n 2,4p "$TMP/launches" | tr '\n' ' ')" = "test test programmatic tally "
rm -f "$TMP/launches"
FAKE_CUDA_LAUNCH_LOG=$TMP/launches FAKE_CUDA_STATES="1,1" fake run -n 1000 "$GRID/chain3-wait-covers-grid0.yaml"
check "grids: three grids, two programmatic launches per iteration" test "$(sed -n 2,5p "$TMP/launches" | tr '\n' ' ')" = "test test programmatic test programmatic tally "
rm -f "$TMP/launches"
FAKE_CUDA_LAUNCH_LOG=$TMP/launches FAKE_CUDA_STATES="1,1" fake run -n 1000 "$GRID/MP-serialized.yaml"
check "grids: a serialized launch is a plain one" test "$(sed -n 2,4p "$TMP/launches" | tr '\n' ' ')" = "test test tally "
FAKE_CUDA_STATES="0,1" fake run -n 1000 "$GRID/MP-programmatic-wait.yaml"
check "grids: a stale read after griddepcontrol.wait is a violation" test $RC -eq 1
FAKE_CUDA_STATES="0,1" fake run -n 1000 "$GRID/MP-programmatic-nowait.yaml"
check "grids: a stale read without the wait is allowed" test $RC -eq 0

finish
