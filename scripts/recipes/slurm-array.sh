#!/usr/bin/env bash
# A litmus campaign as a Slurm job array: one array task per shard, then a merge job that waits
# for all of them (docs/scale.md, "Slurm").
#
#   scripts/recipes/slurm-array.sh submit N OUTDIR -- LITMUS-ARGS...
#       submits an array of N tasks (this script, mode `task`) and a merge job that runs after
#       the array ends (afterany: a failing shard still gets merged and reported).
#   Inside the array (what sbatch runs): mode `task`, the shard from SLURM_ARRAY_TASK_ID,
#       numbered from SLURM_ARRAY_TASK_MIN, N from SLURM_ARRAY_TASK_COUNT; -j from
#       SLURM_CPUS_PER_TASK (else litmus's default, the cores of the allocation).
#   Mode `merge N OUTDIR`: the merge job.
# Example: scripts/recipes/slurm-array.sh submit 16 results/corpus -- \
#            suite --json --engine both CORPUS --expected CORPUS/EXPECTED.tsv
# Environment: LITMUS (the binary), SBATCH_ARGS (more sbatch options: partition, time, account).
#SBATCH --job-name=litmus-shard
#SBATCH --cpus-per-task=4
#SBATCH --output=litmus-shard-%A_%a.log
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Under sbatch the script runs from a spool copy; the submitter passes the recipes' directory.
recipes=${LITMUS_RECIPES:-$here}
mode=${1:-}
shift || true
case $mode in
  submit)
    [ $# -ge 4 ] && [ "$3" = -- ] || { sed -n '4,16p' "$0" >&2; exit 2; }
    n=$1 out=$2
    shift 3
    mkdir -p "$out" || exit 2
    # shellcheck disable=SC2086
    array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="1-$n" --export=ALL,LITMUS_RECIPES="$recipes" \
            "$recipes/slurm-array.sh" task "$out" -- "$@") || exit 2
    array=${array%%;*}
    # shellcheck disable=SC2086
    sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterany:$array" --job-name=litmus-merge \
      --export=ALL,LITMUS_RECIPES="$recipes" "$recipes/slurm-array.sh" merge "$n" "$out" || exit 2
    ;;
  task)
    out=$1
    shift
    : "${SLURM_ARRAY_TASK_ID:?not inside a Slurm job array}"
    min=${SLURM_ARRAY_TASK_MIN:-1}
    n=${SLURM_ARRAY_TASK_COUNT:-$((${SLURM_ARRAY_TASK_MAX:?} - min + 1))}
    k=$((SLURM_ARRAY_TASK_ID - min + 1))
    [ "${1:-}" = -- ] && shift
    cmd=$1
    shift
    jobs=()  # litmus run has no -j (one GPU per task)
    [ -n "${SLURM_CPUS_PER_TASK:-}" ] && [ "$cmd" != run ] && jobs=(-j "$SLURM_CPUS_PER_TASK")
    exec bash "$recipes/shard.sh" run "$k" "$n" "$out" -- "$cmd" "${jobs[@]}" "$@"
    ;;
  merge)
    exec bash "$recipes/shard.sh" merge "$1" "$2"
    ;;
  *) sed -n '4,16p' "$0" >&2; exit 2 ;;
esac
