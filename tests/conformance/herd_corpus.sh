#!/usr/bin/env bash
# CTest herd-corpus: the test cases that need the dat3m corpus (the herd front end over the whole
# corpus in tests/litmus/herd_test.cpp, pruning against the whole model on a tenth of it in
# tests/model/axioms_test.cpp), marked skip so that `unit` runs without the corpus. Exit 77 (CTest
# reports it skipped) when the corpus is absent; a failure if it is present and anything is wrong,
# including a filter that runs fewer cases than the three it names.
#   tests/conformance/herd_corpus.sh UNIT_TESTS CORPUS_DIR
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
unit=$1
corpus=$2
if [ ! -d "$corpus" ]; then
  echo "herd-corpus: corpus not found at $corpus: skipped"
  exit 77
fi
"$unit" --no-skip --test-case='*dat3m corpus*' >"$OUT" 2>&1
RC=$?
cat "$OUT"
check "the corpus test cases pass (exit $RC)" test "$RC" -eq 0
check "the 3 corpus test cases ran and passed" grep -qE 'test cases: +3 \| +3 passed' "$OUT"
finish
