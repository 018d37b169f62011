#!/usr/bin/env bash
# The pattern library's reference sizes through both engines (ctest `patterns`): every test must
# meet its expectation and liveness, and no test may end unknown (120 s each at most: the symbolic
# engine needs up to 17 s on the warp-specialized pipeline, several times that under the
# sanitizers). The address
# space is capped so that an engine that runs away ends in an out-of-memory Unknown (exit 3, a
# failure here) rather than an OOM kill of a shared machine.
#   run_library.sh LITMUS SOURCE_DIR
set -u
. "$(dirname "$0")/../lib.sh"
lib_litmus "$1"
lib_source "$2"
# AddressSanitizer reserves terabytes of address space: no cap there (its build is slower anyway).
lib_sanitized || ulimit -v 4000000
"$LITMUS" suite --engine both --timeout 120 "$SRC/patterns/reference"
