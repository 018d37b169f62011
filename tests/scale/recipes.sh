#!/usr/bin/env bash
# The recipes of scripts/recipes run locally, shards as separate processes: a Slurm job array
# (SLURM_ARRAY_* set as Slurm sets them, and `submit` against a stand-in sbatch) and the CI
# matrix (github-actions.yml through tests/scale/run_workflow.py). Each merged result must equal
# the unsharded run (timings masked).
#   bash tests/scale/recipes.sh PATH-TO-LITMUS SOURCE-DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "$2"
cd "$SRC" || exit 2
export LITMUS
SET=catalog/shapes
"$LITMUS" suite --json "$SET" >"$TMP/all" 2>/dev/null
untimed "$TMP/all" >"$TMP/all.u"

# Slurm: an array 0-3 (task ids need not start at 1), each task its own process, all at once.
for id in 0 1 2 3; do
  SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=4 \
    SLURM_CPUS_PER_TASK=1 bash scripts/recipes/slurm-array.sh task "$TMP/slurm" -- suite --json "$SET" &
done
wait
bash scripts/recipes/slurm-array.sh merge 4 "$TMP/slurm" 2>"$TMP/err"
rc=$?
check "slurm: the merge job exits with the shards' status ($(cat "$TMP"/slurm/shard-*.rc | tr '\n' ' '))" test $rc -eq "$(cat "$TMP/slurm/shard-1.rc")"
untimed "$TMP/slurm/merged.jsonl" >"$TMP/m.u"
check "slurm: 4 array tasks merged = unsharded" same "$TMP/all.u" "$TMP/m.u"
rm "$TMP/slurm/shard-3.rc"
bash scripts/recipes/slurm-array.sh merge 4 "$TMP/slurm" 2>"$TMP/err"
check "slurm: a shard that left nothing fails the merge (exit 2)" test $? -eq 2
check "slurm: and names it" grep -q "shard 3 of 4" "$TMP/err"

# Slurm submit: a stand-in sbatch records its calls and runs nothing.
mkdir -p "$TMP/bin"
cat >"$TMP/bin/sbatch" <<'SB'
#!/usr/bin/env bash
echo "$*" >>"$SBATCH_LOG"
echo "$((1000 + $(wc -l <"$SBATCH_LOG")));cluster"
SB
chmod +x "$TMP/bin/sbatch"
SBATCH_LOG=$TMP/sbatch.log PATH="$TMP/bin:$PATH" bash scripts/recipes/slurm-array.sh submit 4 "$TMP/sub" -- suite --json "$SET" >/dev/null
check "slurm submit: an array of 4 tasks" grep -q -- "--array=1-4 .*slurm-array.sh task $TMP/sub -- suite --json $SET" "$TMP/sbatch.log"
check "slurm submit: a merge job after the array" grep -q -- "--dependency=afterany:1001 .*slurm-array.sh merge 4 $TMP/sub" "$TMP/sbatch.log"

# CI matrix: the example workflow, its 4 matrix jobs at once, then its merge job.
python3 tests/scale/run_workflow.py scripts/recipes/github-actions.yml "$LITMUS" "$SRC" "$TMP/ci" >"$TMP/ci.log" 2>&1
rc=$?
check "ci: the workflow ran (merge job exit $rc)" grep -q "job merge {}: exit" "$TMP/ci.log"
check "ci: four shard jobs" test "$(grep -c '^job shard' "$TMP/ci.log")" -eq 4
untimed "$TMP/ci/merge-1/out/merged.jsonl" >"$TMP/ci.u"
check "ci: 4 matrix jobs merged = unsharded" same "$TMP/all.u" "$TMP/ci.u"
finish
