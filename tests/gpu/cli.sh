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
LITMUS=$1
FAKE=$2
SRC=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
export LC_ALL=C
TMP=$(mktemp -d "${TMPDIR:-/tmp}/litmus-gpu-cli.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cd "$SRC" || exit 2
MP=litmus/catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml
SB=litmus/catalog/shapes/SB+fence.sc.gpu.yaml

PASSED=0
FAILED=0
check() {  # check DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1
  shift
  if "$@"; then
    PASSED=$((PASSED + 1))
    echo "ok - $what"
  else
    FAILED=$((FAILED + 1))
    echo "not ok - $what"
    echo "#   exit $RC; stdout:"
    sed 's/^/#     /' "$TMP/out" | head -20
    echo "#   stderr:"
    sed 's/^/#     /' "$TMP/err" | head -20
  fi
}
RC=0
lit() {  # run litmus (killed after 60 s so that the script always ends)
  timeout 60 "$LITMUS" "$@" >"$TMP/out" 2>"$TMP/err"
  RC=$?
}
has() { grep -qF -- "$2" "$TMP/$1"; }
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

lit run --emit-ptx "$TMP/ptx" "$MP" litmus/catalog/proxy/MP+sust+suld-diffcta.yaml
check "--emit-ptx with a refused test: exit 3" test $RC -eq 3
check "--emit-ptx writes the PTX" test -s "$TMP/ptx/MP+rel.gpu+acq.gpu-diffcta.ptx"
check "--emit-ptx names the refused location" has err "litmus/catalog/proxy/MP+sust+suld-diffcta.yaml:"
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
LITMUS_NVDISASM=$TMP/nvdisasm fake run --emit-sass "$TMP/sass" "$MP" litmus/catalog/proxy/MP+sust+suld-diffcta.yaml
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
check "json: the verdict" grep -q '^{"test":"MP+rel.gpu+acq.gpu-diffcta",.*"verdict":"ok","reason":"every observed state is allowed"' "$TMP/run.json"
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

HANG=litmus/catalog/barriers/bar.sync-count-half.yaml
FAKE_CUDA_HANG="test bar.sync-count-half" fake run -n 1000 --timeout 2 --json "$TMP/hang.json" "$HANG"
check "a test the model says can hang, hanging: exit 0" test $RC -eq 0
check "a test the model says can hang: reported as hung, with the model's reason" grep -qE '^Test bar.sync-count-half: hung: stopped by the watchdog after 2 s.*; the model says it can hang: ' "$TMP/out"
check "hung: json says the hang was expected" grep -q '"verdict":"hung".*"status":"timeout".*"hangExpected":true' "$TMP/hang.json"

FAKE_CUDA_STATES="1" fake run -n 1000 litmus/catalog/cluster/bar.warp.sync-lane-never-arrives.yaml
check "a test the model says never finishes, finishing: exit 1" test $RC -eq 1
check "a test the model says never finishes: says so" has out "Verdict violation: the model says no execution finishes (P1 waits forever at 'bar.warp.sync 3'); the GPU finished"

lit run --emit-ptx "$TMP/ptx2" litmus/catalog/mbarrier/mbarrier.inval.yaml
check "undefined behaviour is refused" has err "an mbarrier operation on an invalidated object is undefined behaviour"

FAKE_CUDA_STATES="0,0" fake run -n 1000 litmus/catalog/alias/MP+alias-nofence.yaml
check "a test with an alias runs (the buffer mapped twice)" test $RC -eq 0
check "a test with an alias: its report" has out "Test MP+alias-nofence on Fake GPU"

FAKE_CUDA_REJECT=1 fake run -n 1000 "$MP"
check "the driver rejects the generated PTX: internal error, exit 4" test $RC -eq 4
check "the driver rejects the PTX: its log is shown" has out "fake: rejected on request"

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

# Grids (docs/gpu-runner.md, "Grids"): one launch of the test kernel per grid in the launch order,
# the programmatic ones through cuLaunchKernelEx with the programmatic-stream-serialization
# attribute (the fake refuses one that does not follow a test launch), the tally after the last
# (the log starts with the tally that initialises the first launch).
GRID=$SRC/litmus/catalog/grid
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

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
