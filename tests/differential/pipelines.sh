#!/usr/bin/env bash
# The differential test over the pattern library's pipelines (ctest `differential-pipelines`):
# each seed draws a pipeline family and its sizes (draw_pipelines.py), writes the correct pattern
# and every bug variant at those sizes, and checks each with `litmus check --engine both
# --max-states 0`. That runs both engines and fails (exit 1, "engines disagree on ...") when
# their sets of final states or their may-hang verdicts differ; --max-states 0 lists every state,
# so the whole sets are compared, not only the observations. Each test must also meet its own
# expect and liveness. An engine that does not finish in time fails the test too (exit 3).
#
#   pipelines.sh LITMUS [SOURCE_DIR]
#   LITMUS_PIPE_SEEDS=FIRST-LAST   the seeds (default 1-5: every family once but the multicast
#                                  pipeline, whose ten variants take a minute; 1-6 adds it)
#   LITMUS_PIPE_DUMP=DIR           keep the drawn tests in DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "${2:-}"
seeds=${LITMUS_PIPE_SEEDS:-1-5}
dir=${LITMUS_PIPE_DUMP:-$TMP/drawn}
mkdir -p "$dir"
# The engines' memory is capped so that a runaway ends Unknown rather than in an OOM kill, and each
# check has 30 s (the slowest drawn test takes about 5 s). AddressSanitizer reserves terabytes of
# address space and slows every check several times: no cap there, and 150 s.
limit=30
if lib_sanitized; then limit=150; else ulimit -v 4000000; fi
GUARD=$((limit + 10))

PYTHONPATH=$SRC python3 "$SRC/tests/differential/draw_pipelines.py" "$dir" "$seeds" >"$TMP/draws" 2>"$TMP/census"
ok_if $? "the seeds $seeds draw every variant of each family they draw" "$(cat "$TMP/census")"
sed 's/^/# /' "$TMP/census"
while read -r seed family sizes; do
  for f in "$dir/seed-$seed/$family"/*.yaml; do
    start=$(date +%s.%N)
    lit check --engine both --max-states 0 --timeout "$limit" "$f"
    name=$(basename "$f" .yaml)
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    if [ "$RC" -eq 0 ] && has out "Expectation met"; then
      ok "seed $seed ($sizes): $name ($secs s)"
    else
      notok "seed $seed ($sizes): $name" "$(ran)"
    fi
  done
done <"$TMP/draws"
finish
