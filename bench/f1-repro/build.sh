#!/usr/bin/env bash
# Builds the harness-free F1 reproducer (f1.cu) for sm_90 with the CUDA runtime linked statically,
# so that it runs where only the CUDA driver is installed, and writes its machine code: f1.cubin
# (nvcc -cubin, the same ptxas as the program's) and, where nvdisasm is found ($LITMUS_NVDISASM,
# else ../../.tools/nvdisasm/bin/nvdisasm from scripts/get-nvdisasm.sh, else PATH), f1.sass
# (nvdisasm -hex). The outputs sit beside this script and are ignored by git: carry bench/f1-repro/f1
# to the GPU machine explicitly. docs/findings.md F1 says how to run it.
#   NVCC   the compiler (default /usr/local/cuda/bin/nvcc)
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
flags=(-arch=sm_90 -O3 -std=c++17)
"$nvcc" "${flags[@]}" -cudart static -o f1 f1.cu
"$nvcc" "${flags[@]}" -cubin -o f1.cubin f1.cu
echo "built $(pwd)/f1 and f1.cubin" >&2
nvdisasm=${LITMUS_NVDISASM:-}
[ -n "$nvdisasm" ] || { [ -x ../../.tools/nvdisasm/bin/nvdisasm ] && nvdisasm=../../.tools/nvdisasm/bin/nvdisasm; } || true
[ -n "$nvdisasm" ] || nvdisasm=$(command -v nvdisasm || true)
if [ -n "$nvdisasm" ]; then
  "$nvdisasm" -hex f1.cubin >f1.sass.tmp && mv f1.sass.tmp f1.sass
  echo "wrote $(pwd)/f1.sass" >&2
else
  echo "no nvdisasm (scripts/get-nvdisasm.sh fetches one): f1.sass not written" >&2
fi
