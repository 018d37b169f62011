#!/usr/bin/env bash
# Builds the peer harness (cuda-litmus @805e221, public; not part of this repository) for every
# variant of SAMPLE.tsv, the way their tune.sh does (nvcc -D<defines> -I. -rdc=true runner.cu
# kernels/<kernel>.cu -arch sm_80: the H100's driver JIT-compiles the embedded compute_80 PTX, as
# it did for their published run), against the shared cudart, so that the binaries are small
# enough to carry to the GPU machine with libcudart.so.13 beside them.
#
#   build-peer.sh PEER_SRC SAMPLE.tsv OUTDIR [JOBS]
set -euo pipefail
src=$(cd "$1" && pwd) sample=$2 out=$3 jobs=${4:-2}
mkdir -p "$out/bin" "$out/params"
out=$(cd "$out" && pwd)
cp "$src"/params/*-loc.txt "$out/params/"
cp -L /usr/local/cuda/lib64/libcudart.so.13 "$out/"
tail -n +2 "$sample" | while IFS=$'\t' read -r _ _ variant _ kernel defines _; do
  [ -x "$out/bin/$variant" ] && continue
  printf '%s\t%s\t%s\n' "$variant" "$kernel" "$defines"
done | (cd "$src" && xargs -P "$jobs" -L 1 bash -c '
  ulimit -v 16000000
  flags=$(echo "$2" | sed "s/\([^,]*\)/-D\1/g; s/,/ /g")
  timeout 600 /usr/local/cuda/bin/nvcc $flags -I. -rdc=true -cudart shared \
    -arch sm_80 runner.cu "kernels/$1.cu" -o "'"$out"'/bin/$0" &&
    echo "built $0"' )
ls "$out/bin" | wc -l
