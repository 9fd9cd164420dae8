#!/usr/bin/env bash
# call 3 (session 22): the single-engine L3 run (engine c28c09a) resumed with the next problems.
set -u
OUT=$1; shift
PROBLEM_TIMEOUT=300 SINGLE_RUN=1 bash scripts/gpu/bench_each.sh $PWD/build/dev/kernelopt $OUT "$(( ${CALL_S:-560} ))" .kb 3 runs/l3single "$@"
