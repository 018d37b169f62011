#!/usr/bin/env bash
# One shard of a litmus campaign, and the merge of all of them (docs/scale.md). Engine-neutral:
# the Slurm recipe (slurm-array.sh) and the CI-matrix recipe (github-actions.yml) call it with
# their own shard numbers.
#
#   shard.sh run K N OUTDIR -- LITMUS-ARGS...
#       runs `litmus LITMUS-ARGS --shard K/N` (LITMUS-ARGS: check/suite/run with --json output on
#       stdout, or `run ... --json FILE`), writing OUTDIR/shard-K.jsonl, shard-K.err and
#       shard-K.rc (its exit status). For `run`, give `--json -`: it is replaced by the shard's file.
#   shard.sh merge N OUTDIR
#       checks that all N shards left a status, joins them with `litmus merge` into
#       OUTDIR/merged.jsonl, and exits with the most severe status of the shards (4 > 2 > 1 > 3 > 0,
#       as litmus itself), or 2 when a shard is missing.
# Environment: LITMUS (the binary; default: litmus on PATH).
set -uo pipefail
litmus=${LITMUS:-litmus}
usage() { sed -n '5,14p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift

severity() { case $1 in 0) echo 0 ;; 3) echo 1 ;; 1) echo 2 ;; 2) echo 3 ;; *) echo 4 ;; esac; }

case $mode in
  run)
    [ $# -ge 5 ] && [ "$4" = -- ] || usage
    k=$1 n=$2 out=$3
    shift 4
    mkdir -p "$out" || exit 2
    args=()
    json_file=""
    while [ $# -gt 0 ]; do
      if [ "$1" = --json ] && [ "${2:-}" = - ]; then  # run --json -: the shard's own file
        json_file=$out/shard-$k.jsonl
        args+=(--json "$json_file")
        shift 2
        continue
      fi
      args+=("$1")
      shift
    done
    if [ -n "$json_file" ]; then
      "$litmus" "${args[@]}" --shard "$k/$n" >"$out/shard-$k.out" 2>"$out/shard-$k.err"
    else
      "$litmus" "${args[@]}" --shard "$k/$n" >"$out/shard-$k.jsonl" 2>"$out/shard-$k.err"
    fi
    rc=$?
    echo "$rc" >"$out/shard-$k.rc"
    exit "$rc"
    ;;
  merge)
    [ $# -eq 2 ] || usage
    n=$1 out=$2
    worst=0 files=()
    for k in $(seq 1 "$n"); do
      if [ ! -f "$out/shard-$k.rc" ] || [ ! -f "$out/shard-$k.jsonl" ]; then
        echo "shard.sh: shard $k of $n left no result in $out" >&2
        exit 2
      fi
      rc=$(cat "$out/shard-$k.rc")
      [ "$(severity "$rc")" -gt "$(severity "$worst")" ] && worst=$rc
      files+=("$out/shard-$k.jsonl")
    done
    "$litmus" merge -o "$out/merged.jsonl" "${files[@]}" || exit $?
    echo "shard.sh: $n shards merged into $out/merged.jsonl; worst shard status $worst" >&2
    exit "$worst"
    ;;
  *) usage ;;
esac
