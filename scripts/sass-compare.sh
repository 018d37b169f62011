#!/usr/bin/env bash
# Compares the machine code a GPU machine's driver made (`litmus run --emit-sass DIR` there: each
# NAME.cubin beside its NAME.ptx) with what the local ptxas makes of the same PTX, relocatable
# (`ptxas -c`, as the driver's JIT linker compiles) and whole-program (as cuModuleLoadDataEx does).
# Instructions and their control words are compared function by function; section headers,
# symbol tables and the recorded ptxas options are not. Prints one line per test.
#
#   scripts/sass-compare.sh DIR        needs nvdisasm ($LITMUS_NVDISASM, else
#                                      .tools/nvdisasm/bin/nvdisasm, else PATH) and ptxas
#                                      ($PTXAS, else PATH, else /usr/local/cuda/bin/ptxas)
# Exit 0 when every driver cubin equals the local relocatable compile, 1 when one differs, 2 on
# bad usage or missing tools.
set -euo pipefail
[ $# -eq 1 ] && [ -d "$1" ] || { sed -n '2,12p' "$0"; exit 2; }
dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
nvdisasm=${LITMUS_NVDISASM:-}
[ -n "$nvdisasm" ] || { [ -x "$root/.tools/nvdisasm/bin/nvdisasm" ] && nvdisasm=$root/.tools/nvdisasm/bin/nvdisasm; } || true
[ -n "$nvdisasm" ] || nvdisasm=$(command -v nvdisasm || true)
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$nvdisasm" ] || { echo "sass-compare: no nvdisasm (scripts/get-nvdisasm.sh fetches one)" >&2; exit 2; }
[ -x "$ptxas" ] || { echo "sass-compare: no ptxas" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sass-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# "FUNCTION<TAB>INSTRUCTION | CONTROL FIELDS [LOW HIGH]" per instruction (litmuspy/sass_control.py),
# grouped by function in name order (the two compiles may order the functions differently).
code() {
  "$nvdisasm" -hex "$1" | (cd "$root" && python3 -m litmuspy.sass_control --hex) |
    awk '/^\.text\./ { fn = $0 } /^\/\*[0-9a-f]+\*\/ / && fn != "" { print fn "\t" $0 }' |
    sort -s -t "$(printf '\t')" -k1,1
}

status=0
found=0
for cubin in "$dir"/*.cubin; do
  [ -e "$cubin" ] || continue
  name=$(basename "$cubin" .cubin)
  ptx=$dir/$name.ptx
  [ -f "$ptx" ] || { echo "$name: no $name.ptx beside the cubin"; status=1; continue; }
  found=$((found + 1))
  code "$cubin" >"$tmp/driver"
  "$ptxas" -arch=sm_90 -c -o "$tmp/rdc.cubin" "$ptx"
  "$ptxas" -arch=sm_90 -o "$tmp/whole.cubin" "$ptx"
  code "$tmp/rdc.cubin" >"$tmp/rdc"
  code "$tmp/whole.cubin" >"$tmp/whole"
  n=$(wc -l <"$tmp/driver")
  same() { cmp -s "$tmp/driver" "$tmp/$1" && echo same || echo "differs ($(diff "$tmp/driver" "$tmp/$1" | grep -c '^[<>]') lines)"; }
  rdc=$(same rdc)
  echo "$name: $n instructions; local ptxas -c: $rdc; local ptxas (whole program): $(same whole)"
  [ "$rdc" = same ] || status=1
done
[ "$found" -gt 0 ] || { echo "sass-compare: no NAME.cubin with NAME.ptx in $dir" >&2; exit 2; }
exit $status
